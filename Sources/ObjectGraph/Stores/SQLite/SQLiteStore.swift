import Foundation
import GRDB
import Synchronization

/// The SQLite store: a GRDB `DatabasePool` in WAL mode for a file, a `DatabaseQueue` in memory
/// (same SQL, same semantics).
final class SQLiteStore: ObjectStore, @unchecked Sendable {
    // @unchecked Sendable: the GRDB writer is thread-safe; key ranges and the fault injection
    // are lock-protected boxes; `identifier` and `metadataSummary` are set in init only.

    static let formatVersion = 1

    let managedObjectModel: ManagedObjectModel
    /// The model's tables, columns, statements and relationship storage, computed once.
    let plan: StorePlan
    var schema: StoreSchema { plan.schema }
    /// The same tables in SQLite's dialect, as the SQL store engine writes its statements for
    /// both stores (uniqueness probes, batch rules, fetch queries).
    let layout: SQLStoreLayout
    let writer: any DatabaseWriter
    /// The save lock and the count of saves written (see ``SaveSerializer``).
    private let saves = SaveSerializer()
    /// This process's writers holding the file's write lock (see `SQLiteStore+WriteLock.swift`).
    let writeLockHolders: WriteLockHolders
    /// The connection that checks whether the write lock is free, opened on first use.
    let writeLockProbeConnection = Mutex<DatabaseQueue?>(nil)

    func serializingSaves<T>(_ body: () throws -> T) rethrows -> T {
        try saves.serializing(body)
    }
    /// The store's file; `nil` in memory. Named in every error the store throws.
    let path: String?
    /// Where binary values that allow external storage are kept when large.
    var externalStorage: ExternalBinaryStorage { ExternalBinaryStorage(storePath: path) }
    private(set) var identifier = "" {
        didSet { ids = plan.objectIDs(storeIdentifier: identifier) }
    }
    /// The IDs of this store's entities, so rows decode into IDs without looking up names.
    private(set) var ids = StoreObjectIDs()
    private(set) var metadataSummary: [String: String] = [:]
    /// For a store Apple's Core Data wrote: its metadata, whose keys a save keeps.
    private(set) var coreDataMetadata: CoreDataStoreMetadata?

    /// Whether saves record persistent history (see `SQLiteStore+History.swift`); set once when
    /// the store is added, before any context uses it.
    var tracksHistory = false
    /// The persistent history transactions this store wrote that the remote-change monitor has
    /// not read past yet (see `SQLiteStore+RemoteChanges.swift`).
    let ownTransactions = OwnHistoryTransactions()
    /// How long and how much persistent history is kept; `nil` keeps all of it (see
    /// `SQLiteStore+HistoryRetention.swift`). Set once when the store is added.
    var historyRetention: PersistentHistoryRetention?

    /// Primary keys reserved per root entity.
    private let keys = Mutex(KeyReservations())
    /// Rows read by ID, shared by the store's contexts (Core Data's row cache).
    let rowCache = RowCache()
    /// What Core Data's derived-attribute triggers reported during the last save.
    let derivedAttributes: DerivedAttributeLog
    var snapshotGeneration: UInt64? { saves.generation }

    /// Counts a context's save as written (see ``snapshotGeneration``).
    func noteSaveWritten() {
        saves.noteSaveWritten()
    }
    /// How many fetch plans the store has compiled (tests prove plans are reused with it).
    let fetchPlansCompiled = Mutex(0)
    /// The plans of the requests fetched from this store, by request key.
    let fetchPlans = FetchPlanCache()

    init(
        model: ManagedObjectModel,
        url: URL?,
        readOnly: Bool,
        statementObserver: SQLStatementObserver? = nil,
        busyTimeout: Double = PersistentStore.defaultTimeout,
        migration options: MigrationOptions = MigrationOptions()
    ) throws {
        managedObjectModel = model
        path = url?.path
        writeLockHolders = WriteLockHolders.forFile(url?.path)
        var configuration = Configuration()
        configuration.readonly = readOnly
        // Another process writing (a server beside a command-line tool) makes writes wait,
        // not fail at once.
        configuration.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
        configuration.label = "ObjectGraph"
        let derivedAttributes = DerivedAttributeLog()
        self.derivedAttributes = derivedAttributes
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(on: db, derivedAttributes: derivedAttributes)
            if let statementObserver {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { statementObserver(statement.sql) }
                }
            }
        }
        do {
            if let url {
                // Decide on a read-only connection whether this file is ours to open: a refusal
                // must leave the file and its -wal/-shm exactly as they were.
                var migration: StoreMigration?
                // New stores are laid out as Core Data lays them out; existing ones keep theirs.
                var layout = StoreLayout.coreData
                switch try StoreFileProbe.inspect(url) {
                case .store(let metadata) where metadata.modelVersionHash != model.versionHash:
                    // The migration also brings a store in ObjectGraph's former layout to Core Data's.
                    // Another version of the model wrote it: plan the migration, and rehearse it
                    // on a private copy, so a migration that cannot succeed changes nothing.
                    let planned = try StoreMigration(metadata: metadata, model: model, options: options, path: url.path)
                    if readOnly {
                        throw ObjectGraphError(
                            .persistentStoreIncompatibleVersionHash,
                            "the store at \(url.path) was written with another model version and needs a migration, but it is opened read-only; the file was not changed",
                            file: url.path
                        )
                    }
                    try planned.rehearse(url: url, configuration: configuration)
                    migration = planned
                case .store(let metadata) where metadata.storeLayout == .objectGraph && !readOnly:
                    // Written before ObjectGraph followed Core Data's layout: converted once, in
                    // one transaction, after a rehearsal on a private copy.
                    let planned = StoreMigration(convertingLayoutOf: metadata, model: model, path: url.path)
                    try planned.rehearse(url: url, configuration: configuration)
                    migration = planned
                case .store(let metadata):
                    // Read-only: read in the layout it has.
                    layout = metadata.storeLayout
                case .coreDataStore(let metadata)
                where metadata.versionHashes != model.entityVersionHashesByName && options.migratesAutomatically && !readOnly:
                    // Another version of the app's model wrote it: migrated as Core Data migrates
                    // it, rehearsed on a private copy first; it stays Core Data's.
                    let planned = try StoreMigration(coreDataStore: metadata, model: model, options: options, path: url.path)
                    try planned.rehearse(url: url, configuration: configuration)
                    migration = planned
                case .coreDataStore(let metadata):
                    // Core Data's own decision: equal entity version hashes, or no opening.
                    try metadata.checkCompatible(with: model, path: url.path)
                    try metadata.checkEntityNumbers(of: model, path: url.path)
                    coreDataMetadata = metadata
                case .noStore where readOnly:
                    throw ObjectGraphError(.persistentStoreOperation, "cannot create a store at \(url.path) read-only")
                case .noStore:
                    break
                }
                writer = try DatabasePool(path: url.path, configuration: configuration)
                if let migration {
                    try writer.write { db in try migration.run(in: db) }
                    if migration.coreDataMetadata != nil, case .coreDataStore(let metadata) = try StoreFileProbe.inspect(url) {
                        try metadata.checkEntityNumbers(of: model, path: url.path)
                        coreDataMetadata = metadata
                    }
                }
                // The file's own join tables win where Core Data named one from the other side.
                let (tables, joinColumns) = try writer.read { db in
                    (try SQLiteStoreFileTables.names(db), try SQLiteStoreFileTables.joinTableColumns(db))
                }
                let asFound = StorePlan(model: model, layout: layout, existingTables: tables, existingJoinColumns: joinColumns)
                let renames = asFound.schema.reflexiveColumnRenames(existingJoinColumns: joinColumns)
                if !readOnly && !renames.isEmpty {
                    // An earlier ObjectGraph's name for a symmetric relationship's members:
                    // renamed to Core Data's in one transaction, so Core Data reads the file.
                    try writer.write { db in for statement in renames { try db.execute(sql: statement) } }
                    plan = StorePlan(model: model, layout: layout, existingTables: tables)
                } else {
                    plan = asFound
                }
                self.layout = SQLStoreLayout(plan: plan, dialect: SQLiteDialect())
            } else {
                plan = StorePlan(model: model, layout: .coreData)
                self.layout = SQLStoreLayout(plan: plan, dialect: SQLiteDialect())
                writer = try DatabaseQueue(configuration: configuration)
            }
            try openOrCreate(readOnly: readOnly, path: url?.path ?? ":memory:")
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(url?.path ?? "the store") is not an SQLite database, or it is damaged",
                underlying: error,
                file: url?.path
            )
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not open the store at \(url?.path ?? ":memory:")",
                underlying: error,
                file: url?.path
            )
        }
    }

    // MARK: Metadata

    private func openOrCreate(readOnly: Bool, path: String) throws {
        try StoreSchema.checkDerivations(of: managedObjectModel)
        if let coreDataMetadata {
            // Core Data's schema is Core Data's: nothing is created or rewritten on opening.
            identifier = coreDataMetadata.storeUUID.isEmpty ? UUID().uuidString : coreDataMetadata.storeUUID
            metadataSummary = coreDataMetadata.summary
            return
        }
        let snapshot = ModelSnapshot(managedObjectModel)
        let existing: StoreMetadata? = try writer.read { db in
            guard try db.tableExists("Z_METADATA") else {
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if !tables.isEmpty {
                    throw ObjectGraphError(
                        .persistentStoreInvalidType,
                        "\(path) is an SQLite database but not an ObjectGraph store (it has tables \(tables.prefix(5).joined(separator: ", ")) and no Z_METADATA)"
                    )
                }
                return nil
            }
            guard let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = ?", arguments: [Self.formatVersion]) else {
                throw ObjectGraphError(.persistentStoreInvalidType, "\(path) has no readable ObjectGraph metadata (format \(Self.formatVersion))")
            }
            return try StoreMetadata.decode(plist, path: path)
        }
        if let existing {
            // Checked already on a read-only connection (for a file); this catches a file
            // changed in between, and the in-memory case.
            try existing.checkWritten(by: snapshot, path: path)
            identifier = existing.storeUUID
            if let renumbering = try writer.read({ db in try StoreEntityRenumbering(db, model: managedObjectModel, layout: schema.layout) }) {
                if readOnly {
                    throw ObjectGraphError(
                        .persistentStoreOperation,
                        "the store at \(path) numbers its entities as ObjectGraph did before it followed Core Data; open it once read-write to renumber them; the file was not changed",
                        file: path
                    )
                }
                try writeTransaction { db in try renumbering.run(in: db) }
            }
            // Indexes do not change the version hash; create any the model gained. Only then
            // write: opening an up-to-date store must not need the write lock, so it opens
            // (and reads) while another connection holds a write transaction.
            // So do derived attributes' triggers (a store created before the model derived the
            // attribute, or before ObjectGraph kept derivations): created with a recount.
            let creation = schema.creationSQL(model: managedObjectModel)
            let derived = creation.filter(StoreSchema.isDerivedAttributeStatement)
            let indexStatements = creation.filter { $0.contains("INDEX") && !StoreSchema.isDerivedAttributeStatement($0) }
            let (existingIndexes, existingTriggers) = try writer.read { db in
                (
                    Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")),
                    Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'"))
                )
            }
            var missing = indexStatements.filter { statement in
                guard let name = Self.indexName(in: statement) else { return true }
                return !existingIndexes.contains(name)
            }
            let triggerNames = derived.filter { $0.hasPrefix("CREATE TRIGGER") }.compactMap(Self.indexName(in:))
            if triggerNames.contains(where: { !existingTriggers.contains($0) }) { missing += derived }
            if !readOnly && !missing.isEmpty {
                try writeTransaction { db in
                    for statement in missing { try db.execute(sql: statement) }
                }
            }
        } else {
            if readOnly { throw ObjectGraphError(.persistentStoreOperation, "cannot create a store at \(path) read-only") }
            identifier = UUID().uuidString
            let metadata = StoreMetadata(
                formatVersion: Self.formatVersion,
                storeUUID: identifier,
                modelVersionHash: snapshot.versionHash,
                model: snapshot,
                versionHashHistory: [snapshot.versionHash],
                layout: schema.layout,
                entityVersionHashes: managedObjectModel.entityVersionHashesByName
            )
            let plist = try JSONEncoder.sortedKeys.encode(metadata)
            let created = try writeTransaction { db -> Bool in
                // Another process may have created the store since the read above (two
                // `spot` commands starting on a new data directory): then open theirs.
                guard try !db.tableExists("Z_METADATA") else { return false }
                try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
                try db.execute(
                    sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (?, ?, ?)",
                    arguments: [Self.formatVersion, identifier, plist]
                )
                try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
                for entity in managedObjectModel.entities {
                    try db.execute(
                        sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                        arguments: [entity.entityCode, entity.name, entity.superentity?.entityCode ?? 0]
                    )
                }
                for statement in schema.creationSQL(model: managedObjectModel) { try db.execute(sql: statement) }
                return true
            }
            if !created { return try openOrCreate(readOnly: readOnly, path: path) }
        }
        metadataSummary = ["storeUUID": identifier, "modelVersionHash": snapshot.versionHash, "formatVersion": String(Self.formatVersion)]
    }

    /// The index a `CREATE [UNIQUE] INDEX IF NOT EXISTS name ON …` statement creates.
    /// The name a `CREATE INDEX IF NOT EXISTS` or `CREATE TRIGGER IF NOT EXISTS` statement creates.
    static func indexName(in statement: String) -> String? {
        guard let range = statement.range(of: "IF NOT EXISTS ") else { return nil }
        return statement[range.upperBound...].split(separator: " ", maxSplits: 1).first.map(String.init)
    }

    // MARK: Errors

    /// What a store operation does to the file, for ``failureInjection``.
    enum StoreAccess: Sendable {
        case read, write
    }

    /// Tests' fault injection, checked before each read and write.
    let failureInjection = StoreFailureInjection()

    /// Runs `body`, turning any failure into an ``ObjectGraphError`` that says what the store
    /// was doing, with SQLite's code, message and statement and the store's file.
    func storeOperation<T>(_ access: StoreAccess, _ what: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            try failureInjection.check(access)
            return try body()
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not \(what()) in the store at \(path ?? ":memory:")",
                underlying: error,
                file: path
            )
        }
    }

    // MARK: Keys

    func newObjectID(forEntity entityCode: Int) throws -> ManagedObjectID {
        guard let entity = plan.entity(code: entityCode) else {
            throw ObjectGraphError(.entityNotFound, "the store at \(path ?? ":memory:") has no entity with code \(entityCode)", file: path)
        }
        let key = entity.rootCode
        let reserved: Int64? = keys.withLock { $0.take(key) }
        if let reserved { return ManagedObjectID(scope: ids.scope(code: entity.code), primaryKey: reserved) }
        // Reserve keys in growing ranges, so an import reserves rarely; unused keys are gaps.
        // The write runs with the lock released: it waits for SQLite's writer, up to the busy
        // timeout, and no lock is held across that (ARCHITECTURE.md, the lock rule). Two
        // threads may both reserve: each uses its own range, as the PostgreSQL store's do.
        let size = keys.withLock { $0.nextReservationSize(key) }
        let end: Int64 = try storeOperation(.write, "reserve keys for new \(entity.rootName) objects") {
            try writeTransaction { db in
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?", arguments: [size, entity.rootCode])
                return try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity.rootCode]) ?? size
            }
        }
        let start = end - size + 1
        keys.withLock { $0.reserved(key, next: start + 1, end: end + 1) }
        return ManagedObjectID(scope: ids.scope(code: entity.code), primaryKey: start)
    }

    /// The ID of the object of entity code `code` with primary key `primaryKey`; `nil` for a
    /// code the model does not have.
    @inline(__always)
    func objectID(code: Int, primaryKey: Int64) -> ManagedObjectID? {
        ids.objectID(code: code, primaryKey: primaryKey)
    }
}

/// Primary keys reserved from `Z_PRIMARYKEY`, per root entity, by its code (`Z_ENT`, a small
/// number): every new object takes one, so no hashing on the way.
private struct KeyReservations {
    /// A root entity's reserved keys: the next to hand out, the end of the range, and the
    /// size of the last range reserved (ranges grow, so an import reserves rarely).
    private struct Range {
        var next: Int64 = 0
        var end: Int64 = 0
        var size: Int64 = 8
    }

    private var ranges: [Range] = []

    /// The next reserved key of root entity `code`, taken; `nil` when none is left.
    mutating func take(_ code: Int) -> Int64? {
        guard code < ranges.count, ranges[code].next < ranges[code].end else { return nil }
        defer { ranges[code].next += 1 }
        return ranges[code].next
    }

    /// How many keys the next reservation for root entity `code` takes (twice the last, up
    /// to 65,536).
    mutating func nextReservationSize(_ code: Int) -> Int64 {
        grow(toHold: code)
        ranges[code].size = min(ranges[code].size * 2, 65_536)
        return ranges[code].size
    }

    /// Records the keys `next..<end` as reserved for root entity `code`.
    mutating func reserved(_ code: Int, next: Int64, end: Int64) {
        grow(toHold: code)
        ranges[code].next = next
        ranges[code].end = end
    }

    private mutating func grow(toHold code: Int) {
        if code >= ranges.count { ranges.append(contentsOf: repeatElement(Range(), count: code + 1 - ranges.count)) }
    }
}
