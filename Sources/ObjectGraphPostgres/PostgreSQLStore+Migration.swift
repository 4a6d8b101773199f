import Foundation
import Logging
import ObjectGraph
import PostgresNIO

/// Lightweight migration of a PostgreSQL store: the SQLite store's inference and copy
/// (``ServerStoreMigration``), its statements in PostgreSQL's dialect, all in ONE transaction —
/// PostgreSQL's DDL is transactional, so a migration that fails leaves tables, rows and
/// metadata exactly as they were.
extension PostgreSQLStore {
    /// What `Z_METADATA` holds: the store's UUID, model version hash and, since stores keep
    /// their model, the metadata JSON with it (`nil` in a schema from before).
    struct StoredMetadata: Sendable {
        let uuid: String
        let hash: String
        let json: String?
    }

    /// What every refusal and failed migration says of the schema.
    static let unchanged = "nothing was changed"

    /// Reads `Z_METADATA` on `connection` (which must exist); an empty UUID when it has no row
    /// of this format.
    static func readMetadata(_ connection: PostgresConnection, schema: String, logger: Logger) async throws -> StoredMetadata {
        let hasJSON = try await !connection.query(
            PostgresQuery(
                unsafeSQL:
                    "SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'Z_METADATA' AND column_name = 'Z_PLIST'",
                binds: binds([.text(schema)])
            ),
            logger: logger
        ).collect().isEmpty
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: #"SELECT "Z_UUID", "Z_MODELHASH", \#(hasJSON ? #""Z_PLIST""# : "NULL::text") FROM "Z_METADATA" WHERE "Z_VERSION" = $1"#,
                binds: binds([.integer(Int64(formatVersion))])
            ),
            logger: logger
        ).collect()
        guard let row = rows.first else { return StoredMetadata(uuid: "", hash: "", json: nil) }
        let (uuid, hash, json) = try row.decode((String, String, String?).self)
        return StoredMetadata(uuid: uuid, hash: hash, json: json)
    }

    /// Writes the metadata JSON of a store whose model version hash is `hash` (adding the
    /// column to a schema created before stores kept their model).
    static func writeMetadata(_ connection: PostgresConnection, hash: String, json: String, logger: Logger) async throws {
        try await connection.query(#"ALTER TABLE "Z_METADATA" ADD COLUMN IF NOT EXISTS "Z_PLIST" TEXT"#, logger: logger)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: #"UPDATE "Z_METADATA" SET "Z_MODELHASH" = $1, "Z_PLIST" = $2 WHERE "Z_VERSION" = $3"#,
                binds: binds([.text(hash), .text(json), .integer(Int64(formatVersion))])
            ),
            logger: logger
        )
    }

    /// Migrates the schema, written with another model version, to the store's model, on a
    /// connection of its own, in one transaction under the schema's advisory lock: another
    /// instance opening meanwhile waits, then finds the schema migrated.
    ///
    /// - Returns: The migrated metadata.
    /// - Throws: ``ObjectGraphError`` as the SQLite store refuses or fails a migration (every
    ///   difference, or every change that cannot be migrated), or naming what a schema from
    ///   before stores kept their model lacks; the schema is then as it was.
    func migrate(options: [String: Any]) throws -> StoredMetadata {
        var configuration = location.connectionConfiguration
        configuration.options.additionalStartupParameters = [("search_path", location.searchPath)]
        let connectionConfiguration = configuration
        let logger = logger
        let connection = try run("connect to migrate the store") { _ in
            try await PostgresConnection.connect(on: PostgreSQLEventLoops.group.any(), configuration: connectionConfiguration, id: 1, logger: logger)
        }
        defer { _ = try? bridge.wait(timeout: .seconds(10)) { try await connection.close() } }
        let executor = PostgreSQLMigrationExecutor(connection: connection, bridge: bridge, logger: logger, timeout: migrationTimeout)
        let model = managedObjectModel
        let hash = model.versionHash
        let schema = schemaName
        do {
            try executor.execute("BEGIN")
            try executor.wait {
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: Self.binds([.text("ObjectGraph.\(schema)")])),
                    logger: logger
                )
                // The lock every save numbers its history under: instances still running the
                // old model finish the saves they are in before the tables change, and the
                // next finds the new model's hash (``checkModelHash(_:)``) and is refused.
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: Self.binds([.text(Self.historyLockName(schema))])),
                    logger: logger
                )
            }
            let stored = try executor.wait { try await Self.readMetadata(connection, schema: schema, logger: logger) }
            if stored.hash == hash {
                // Another instance migrated it while this one waited for the lock.
                try executor.execute("COMMIT")
                return stored
            }
            guard let json = stored.json else {
                throw ObjectGraphError(
                    .persistentStoreIncompatibleVersionHash,
                    "the store in schema \(schemaName) at \(serverDescription) was written with another model version (\(stored.hash.prefix(12))…, this model is \(hash.prefix(12))…), and its metadata holds only that version's hash, not its model (Z_METADATA has no Z_PLIST: the schema was created before the PostgreSQL store kept it), so no mapping can be inferred; open it once with the model version that wrote it, which records the model, then migrate; \(Self.unchanged)",
                    file: serverDescription
                )
            }
            let migration = try ServerStoreMigration(
                metadataJSON: json,
                model: model,
                options: options,
                dialect: layout.dialect,
                store: serverDescription,
                unchanged: Self.unchanged
            )
            let dialect = layout.dialect
            let migrated = try migration.run(on: executor) { SQLStoreLayout(model: $0, dialect: dialect).creationSQL(model: $0) }
            let channel = notificationChannel
            try executor.wait {
                try await Self.writeMetadata(connection, hash: hash, json: migrated, logger: logger)
                // Delivered at commit: listening instances of the old model stop at once,
                // not at their next save.
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: Self.binds([.text(channel), .text(Self.migratedNotice + hash)])),
                    logger: logger
                )
            }
            try executor.execute("COMMIT")
            return StoredMetadata(uuid: stored.uuid, hash: hash, json: migrated)
        } catch {
            // Also when the failure is the server's: the transaction is then aborted, and
            // ROLLBACK ends it. A dropped connection rolls back on the server by itself.
            _ = try? executor.execute("ROLLBACK")
            if let error = error as? ObjectGraphError { throw error }
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not migrate the PostgreSQL store at \(serverDescription); \(Self.unchanged)",
                underlying: PostgreSQLFailure(error),
                file: serverDescription
            )
        }
    }

    /// The start of the notification a migration sends, followed by the new model's hash.
    static let migratedNotice = "migrated "

    /// The advisory lock saves number their history under, and migrations change tables under.
    static func historyLockName(_ schema: String) -> String { "ObjectGraph.history.\(schema)" }

    /// How long one statement of a migration may take: it copies whole tables.
    var migrationTimeout: Duration { .seconds(600) }
}

/// Runs a migration's statements on one connection, each waited for through the store's
/// ``BlockingBridge`` (the mapping is synchronous; the caller is not on the bridge's executor).
struct PostgreSQLMigrationExecutor: MigrationSQLExecutor {
    let connection: PostgresConnection
    let bridge: BlockingBridge
    let logger: Logger
    let timeout: Duration

    /// Runs `body` on the bridge and waits, its error as a ``PostgreSQLFailure`` (the server's
    /// SQLSTATE, message and statement).
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        do {
            return try bridge.wait(timeout: timeout, body)
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw PostgreSQLFailure(error)
        }
    }

    func execute(_ sql: String) throws {
        let (connection, logger) = (connection, logger)
        try wait { _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
    }

    func integer(_ sql: String) throws -> Int64? {
        let (connection, logger) = (connection, logger)
        return try wait {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            return try rows.first?.decode(Int64?.self) ?? nil
        }
    }

    func tableExists(_ name: String) throws -> Bool {
        let (connection, logger) = (connection, logger)
        return try wait {
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
                    binds: PostgreSQLStore.binds([.text(name)])
                ),
                logger: logger
            ).collect()
            return !rows.isEmpty
        }
    }
}
