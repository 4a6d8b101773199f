package import Foundation
import Logging
package import ObjectGraph
import PostgresNIO
import Synchronization

/// The PostgreSQL store: the model laid out as Core Data lays it out in SQLite (tables
/// `ZPHOTO`, …, with `Z_PK`, `Z_ENT`, `Z_OPT`), in one database (and schema) of a server,
/// read and written through postgres-nio's `PostgresClient` and its pool of connections.
///
/// Contexts call it synchronously on their queues; each call runs its queries as a task of a
/// ``BlockingBridge`` and waits, off Swift's cooperative pool. Predicates compile with the
/// shared compiler in PostgreSQL's dialect (with the folding functions it creates), so fetches,
/// sorts and counts mean what they mean in memory and in SQLite.
package final class PostgreSQLStore: StoreBackend, @unchecked Sendable {
    // @unchecked Sendable: `client`, `layout` and the identity are set in init only; key
    // ranges are in a Mutex; saves are serialized by `saves`.

    /// The store's format in `Z_METADATA`.
    static let formatVersion = 1

    package let managedObjectModel: ManagedObjectModel
    /// The model's tables and queries in PostgreSQL's dialect.
    let layout: SQLStoreLayout
    /// The plans of the requests fetched from this store, by request key.
    let fetchPlans = FetchPlanCache()
    let client: PostgresClient
    let bridge: BlockingBridge
    /// The server and database, without the password: named in every error.
    let serverDescription: String
    /// The schema the store's tables are in.
    let schemaName: String
    /// The server, database and schema (a migration connects on its own).
    let location: PostgreSQLLocation
    package private(set) var identifier = "" {
        didSet { storeIDs = layout.objectIDs(storeIdentifier: identifier) }
    }
    /// The IDs of this store's entities, so new objects and rows get IDs without looking up
    /// names.
    private(set) var storeIDs = StoreObjectIDs()
    package private(set) var metadataSummary: [String: String] = [:]
    let logger: Logger
    private let runTask: Task<Void, Never>
    /// The save lock and the count of saves written (see ``SaveSerializer``).
    private let saves = SaveSerializer()
    /// How long one operation waits without progress (a connection from the pool included)
    /// before the store checks the server (``liveness()``): `NSPersistentStoreTimeoutOption`,
    /// else ``defaultOperationTimeout``. An operation the server keeps working on is waited
    /// for; one whose server does not answer a new connection, or that waits for a lock another
    /// session holds, fails then, with that reason.
    let operationTimeout: Duration
    /// The operation timeout when the options give none.
    static let defaultOperationTimeout = Duration.seconds(10)
    /// The `application_name` of the pool's sessions, one per store instance, by which
    /// ``liveness()`` finds them in `pg_stat_activity`.
    let sessionName = "ObjectGraph " + UUID().uuidString.prefix(8).lowercased()
    /// Primary keys reserved, by root entity code (see ``KeyRange``).
    private let keys: Mutex<[KeyRange]>
    /// By entity code: the code of the root of its inheritance tree, whose keys it shares (0
    /// for a code no entity has). An insert reads this instead of the entity's layout.
    private let rootCodes: [Int]
    /// The persistent history transactions this store wrote that the remote-change monitor has
    /// not read past yet: it skips them (their contexts merged them already).
    let ownTransactions = OwnHistoryTransactions()
    /// How many `NOTIFY`s of this store's channel arrived: the remote-change marker.
    let notificationsReceived = Atomic<Int64>(0)
    /// The `LISTEN` loop, once the remote-change monitor asked for it.
    let listener = Mutex<Task<Void, Never>?>(nil)
    /// How much persistent history saves keep (the retention options), `nil` for all of it.
    let historyRetention: PersistentHistoryRetention?
    /// The model version hash another instance migrated the schema to while this store was
    /// open: from then on every operation is refused (see ``checkNotSuperseded()``).
    let supersedingModelHash = Mutex<String?>(nil)

    /// Opens the store at `url` (`postgres://user[:password]@host[:port]/database[?schema=name]`),
    /// creating its tables when the schema has none, and migrating them when another version
    /// of the model wrote them and `options` allow it (as an SQLite store's options do).
    ///
    /// - Throws: ``ObjectGraphError`` naming the server when it cannot be reached, the URL is
    ///   not a PostgreSQL URL, or the schema holds a store of another model that is not
    ///   migrated (the reason, and every difference).
    package init(model: ManagedObjectModel, url: URL, options: [String: Any] = [:]) throws {
        managedObjectModel = model
        historyRetention = try PersistentHistoryRetention.requested(in: options)
        operationTimeout =
            try PersistentStoreCoordinator.number(options[PersistentStore.timeoutOption], option: PersistentStore.timeoutOption, allowingZero: false)
            .map { Duration.milliseconds(Int64(($0 * 1_000).rounded(.up))) } ?? Self.defaultOperationTimeout
        let location = try PostgreSQLLocation(url)
        self.location = location
        serverDescription = location.description
        schemaName = location.schema
        let bridge = BlockingBridge()
        self.bridge = bridge
        let logger = Logger(label: "ObjectGraphPostgres")
        self.logger = logger
        try Self.prepareDatabase(location, bridge: bridge, logger: logger)
        layout = SQLStoreLayout(model: model, dialect: PostgreSQLDialect())
        var rootCodes: [Int] = []
        for entity in layout.allEntities {
            if rootCodes.count <= entity.code { rootCodes += repeatElement(0, count: entity.code + 1 - rootCodes.count) }
            rootCodes[entity.code] = entity.rootCode
        }
        self.rootCodes = rootCodes
        keys = Mutex(Array(repeating: KeyRange(), count: rootCodes.count))
        var configuration = location.clientConfiguration
        configuration.options.maximumConnections = 4
        configuration.options.additionalStartupParameters.append(("application_name", sessionName))
        let client = PostgresClient(configuration: configuration, eventLoopGroup: PostgreSQLEventLoops.group)
        self.client = client
        runTask = bridge.start { await client.run() }
        do {
            try openOrCreate(options: options)
        } catch {
            runTask.cancel()
            throw error
        }
    }

    deinit {
        // Cancelled after the lock is released: cancelling takes the runtime's lock of the
        // task and runs its cancellation handlers (ARCHITECTURE.md, "Never call out while
        // holding a lock").
        listener.withLock { $0 }?.cancel()
        runTask.cancel()
    }

    package func close() {
        listener.withLock { $0 }?.cancel()
        runTask.cancel()
    }

    package var locationURL: URL? { URL(string: serverDescription) }

    // MARK: Opening

    /// Creates the schema when missing, with the collation and the folding functions
    /// (``PostgreSQLFolding``) the compiled SQL uses.
    ///
    /// On a connection of its own rather than the pool's: a server that is not there fails at
    /// once with the reason (the pool would keep retrying for a minute).
    private static func prepareDatabase(_ location: PostgreSQLLocation, bridge: BlockingBridge, logger: Logger) throws {
        let connectionConfiguration = location.connectionConfiguration
        let schema = location.schema
        try run("connect to prepare schema \(schema)", server: location.description, bridge: bridge, timeout: .seconds(30)) {
            let connection = try await PostgresConnection.connect(
                on: PostgreSQLEventLoops.group.any(), configuration: connectionConfiguration, id: 0, logger: logger
            )
            do {
                do {
                    try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(Self.quoted(schema))"), logger: logger)
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                    // `IF NOT EXISTS` is not safe against another instance creating it at
                    // the same moment: the loser is told the name is taken, and that is fine.
                }
                // `localizedStandardCompare:` orders digits as numbers ("Photo 58" before
                // "Photo 409"), as Foundation and the SQLite store do; ICU's `kn` does that.
                // Two stores opening at once may both create it: the loser's error is harmless.
                do {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "CREATE COLLATION IF NOT EXISTS \(Self.quoted(schema)).\(Self.quoted(PostgreSQLDialect.numericCollation)) (provider = icu, locale = 'und-u-kn-true')"
                        ),
                        logger: logger
                    )
                } catch {
                    let rows = try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "SELECT 1 FROM pg_collation c JOIN pg_namespace n ON n.oid = c.collnamespace WHERE n.nspname = $1 AND c.collname = $2",
                            binds: Self.binds([.text(schema), .text(PostgreSQLDialect.numericCollation)])
                        ),
                        logger: logger
                    ).collect()
                    if rows.isEmpty { throw error }
                }
                // `[c]`, `[d]` and `caseInsensitiveCompare:` fold as the evaluator does
                // (`lower()` maps one character at a time, `unaccent` has other tables).
                // Replaced on every open, so a store follows the tables of the ObjectGraph that
                // opens it; two stores opening at once may collide, and the loser finds the
                // function there.
                let names = [PostgreSQLFolding.caseFunctionName, PostgreSQLFolding.diacriticFunctionName]
                for (name, sql) in zip(names, PostgreSQLFolding.creationSQL(schema: Self.quoted(schema))) {
                    do {
                        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                    } catch {
                        let rows = try await connection.query(
                            PostgresQuery(
                                unsafeSQL:
                                    "SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = $2",
                                binds: Self.binds([.text(schema), .text(name)])
                            ),
                            logger: logger
                        ).collect()
                        if rows.isEmpty { throw error }
                    }
                }
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    /// Reads the store's metadata, or creates the store: metadata (with the model, so a later
    /// version can migrate it), key table and the model's tables, in one transaction under an
    /// advisory lock (two instances opening a new database at once create it once). A store of
    /// another model version is migrated when `options` allow it.
    private func openOrCreate(options: [String: Any]) throws {
        let statements = layout.creationSQL(model: managedObjectModel)
        let hash = managedObjectModel.versionHash
        let uuid = UUID().uuidString
        let json = try ServerStoreMigration.metadataJSON(model: managedObjectModel, storeUUID: uuid, formatVersion: Self.formatVersion)
        let entities = layout.allEntities.map { ($0.code, $0.name, $0.rootCode == $0.code ? 0 : $0.rootCode) }
        let schema = schemaName
        var found: StoredMetadata = try run("open the store") { client in
            try await Self.inTransaction(client, logger: self.logger) { connection in
                try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: Self.binds([.text("ObjectGraph.\(schema)")])),
                    logger: self.logger
                )
                let existing = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Z_METADATA'",
                        binds: Self.binds([.text(schema)])
                    ),
                    logger: self.logger
                ).collect()
                if !existing.isEmpty {
                    // A store created before history kept changed properties, tombstones
                    // and runs of inserts.
                    let upgraded = try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'Z_HISTORYCHANGE' AND column_name IN ('ZCOLUMNS', 'ZTOMBSTONE', 'ZLASTOBJECT')",
                            binds: Self.binds([.text(schema)])
                        ),
                        logger: self.logger
                    ).collect()
                    if upgraded.count < PostgreSQLStore.historyUpgradeSQL.count {
                        for statement in PostgreSQLStore.historyUpgradeSQL {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                        }
                    }
                    let stored = try await Self.readMetadata(connection, schema: schema, logger: self.logger)
                    if stored.hash == hash && stored.json == nil && !stored.uuid.isEmpty {
                        // Created before stores kept their model: keep it now, so that the
                        // next model version can infer its migration.
                        let current = try ServerStoreMigration.metadataJSON(
                            model: self.managedObjectModel,
                            storeUUID: stored.uuid,
                            formatVersion: Self.formatVersion
                        )
                        try await Self.writeMetadata(connection, hash: hash, json: current, logger: self.logger)
                        return StoredMetadata(uuid: stored.uuid, hash: hash, json: current)
                    }
                    return stored
                }
                try await connection.query(
                    #"CREATE TABLE "Z_METADATA" ("Z_VERSION" INTEGER PRIMARY KEY, "Z_UUID" TEXT NOT NULL, "Z_MODELHASH" TEXT NOT NULL, "Z_PLIST" TEXT)"#,
                    logger: self.logger
                )
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_MODELHASH", "Z_PLIST") VALUES ($1, $2, $3, $4)"#,
                        binds: Self.binds([.integer(Int64(Self.formatVersion)), .text(uuid), .text(hash), .text(json)])
                    ),
                    logger: self.logger
                )
                try await connection.query(
                    #"CREATE TABLE "Z_PRIMARYKEY" ("Z_ENT" INTEGER PRIMARY KEY, "Z_NAME" TEXT, "Z_SUPER" INTEGER, "Z_MAX" BIGINT NOT NULL)"#,
                    logger: self.logger
                )
                for (code, name, parent) in entities {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ($1, $2, $3, 0)"#,
                            binds: Self.binds([.integer(Int64(code)), .text(name), .integer(Int64(parent))])
                        ),
                        logger: self.logger
                    )
                }
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
                for statement in PostgreSQLStore.historyTableSQL {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
                return StoredMetadata(uuid: uuid, hash: hash, json: json)
            }
        }
        guard !found.uuid.isEmpty else {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "the schema \(schemaName) at \(serverDescription) has no readable ObjectGraph metadata (format \(Self.formatVersion))"
            )
        }
        if found.hash != hash {
            found = try migrate(options: options)
        }
        identifier = found.uuid
        metadataSummary = ["storeUUID": found.uuid, "modelVersionHash": hash, "formatVersion": String(Self.formatVersion)]
    }

    // MARK: Keys

    package func newObjectID(forEntity entityCode: Int) throws -> ManagedObjectID {
        let root = entityCode > 0 && entityCode < rootCodes.count ? rootCodes[entityCode] : 0
        if root != 0, let key = keys.withLock({ $0[root].take() }), let id = storeIDs.objectID(code: entityCode, primaryKey: key) {
            return id
        }
        guard let entity = layout.entity(code: entityCode) else {
            throw ObjectGraphError(.entityNotFound, "the store at \(serverDescription) has no entity with code \(entityCode)")
        }
        // Reserve keys in ranges growing 32-fold up to 65,536 (one statement each: 256, 8,192,
        // 65,536 keys…), so an import of 50,000 objects waits for the server three times, not
        // once per object; unused keys are gaps. Two threads may both reserve: each uses its
        // own range.
        //
        // The reservation commits without waiting for its WAL to reach disk
        // (`synchronous_commit` off for its own transaction only): a save that stores one of
        // the keys commits later, and its flush carries the reservation, which comes before it
        // in the WAL. A reservation lost in a crash is one no saved row used.
        let size = min(keys.withLock { $0[root].size } * 32, 65_536)
        let end: Int64 = try run("reserve keys for new \(entity.rootName) objects") { client in
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL: #"""
                        WITH "commit" AS (SELECT set_config('synchronous_commit', 'off', true) AS "setting")
                        UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = "Z_MAX" + $1
                        WHERE "Z_ENT" = $2 AND (SELECT "setting" FROM "commit") IS NOT NULL RETURNING "Z_MAX"
                        """#,
                    binds: Self.binds([.integer(size), .integer(Int64(root))])
                )
            ).collect()
            return try rows.first?.decode(Int64.self) ?? size
        }
        let start = end - size + 1
        keys.withLock { $0[root] = KeyRange(next: start + 1, end: end + 1, size: size) }
        return storeIDs.objectID(code: entityCode, primaryKey: start) ?? storeIDs.objectID(entityName: entity.name, primaryKey: start)
    }

    /// Keys of one entity tree reserved from `Z_PRIMARYKEY`: `next` up to `end` (exclusive),
    /// and the size of the last reservation (ranges grow, so an import reserves rarely).
    private struct KeyRange {
        var next: Int64 = 0
        var end: Int64 = 0
        var size: Int64 = 8

        /// The next reserved key, or `nil` when the range is used up.
        mutating func take() -> Int64? {
            guard next < end else { return nil }
            defer { next += 1 }
            return next
        }
    }

    // MARK: Saves

    package var snapshotGeneration: UInt64? { saves.generation }

    /// Counts a context's save as written (see ``snapshotGeneration``).
    func noteSaveWritten() {
        saves.noteSaveWritten()
    }

    package func serializingSaves<T>(_ body: () throws -> T) rethrows -> T {
        try saves.serializing(body)
    }

    // MARK: Running queries

    /// Runs `body` with the client through the bridge, turning a failure into an
    /// ``ObjectGraphError`` that says what the store was doing, with the server's SQLSTATE,
    /// message and statement, and the server.
    func run<T: Sendable>(
        _ what: @autoclosure () -> String,
        meanwhile: () -> Void = {},
        _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) throws -> T {
        try checkNotSuperseded()
        let client = client
        do {
            return try Self.run(
                what(), server: serverDescription, bridge: bridge, timeout: operationTimeout, meanwhile: meanwhile, liveness: liveness
            ) {
                try await body(client)
            }
        } catch let error as ObjectGraphError where error.cause?.sqlState.map({ $0 != "23505" }) == true {
            // A statement the server refused (a table or column gone): another instance may
            // have migrated the schema under this one, which is then what to report.
            try checkSchemaModel()
            throw error
        }
    }

    /// Runs `body` through `bridge`, its failure as an ``ObjectGraphError`` naming `what` and
    /// `server`; `liveness` as ``BlockingBridge/wait(timeout:meanwhile:liveness:_:)`` takes it.
    static func run<T: Sendable>(
        _ what: @autoclosure () -> String,
        server serverDescription: String,
        bridge: BlockingBridge,
        timeout: Duration,
        meanwhile: () -> Void = {},
        liveness: (() -> BlockingBridge.Liveness)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        do {
            return try bridge.wait(timeout: timeout, meanwhile: meanwhile, liveness: liveness, body)
        } catch {
            throw ObjectGraphError.passedOn(error)
                ?? ObjectGraphError(
                    .persistentStoreOperation,
                    "could not \(what()) in the PostgreSQL store at \(serverDescription)",
                    underlying: PostgreSQLFailure(error),
                    file: serverDescription
                )
        }
    }

    /// `identifier` quoted for PostgreSQL.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
