import Foundation
import Logging
import ObjectGraph
import PostgresNIO
import Synchronization

extension PostgreSQLStore {
    /// The history tables: one row per saved transaction (numbered in commit order), one per
    /// changed object.
    static let historyTableSQL = [
        #"CREATE TABLE IF NOT EXISTS "Z_HISTORYTRANSACTION" ("Z_PK" BIGINT PRIMARY KEY, "ZTIMESTAMP" DOUBLE PRECISION NOT NULL, "ZAUTHOR" TEXT, "ZCONTEXTNAME" TEXT, "ZPROCESSID" TEXT NOT NULL, "ZBUNDLEID" TEXT NOT NULL)"#,
        #"CREATE TABLE IF NOT EXISTS "Z_HISTORYCHANGE" ("Z_PK" BIGSERIAL PRIMARY KEY, "ZTRANSACTION" BIGINT NOT NULL, "ZENTITY" INTEGER NOT NULL, "ZOBJECT" BIGINT NOT NULL, "ZTYPE" INTEGER NOT NULL, "ZCOLUMNS" TEXT, "ZTOMBSTONE" TEXT, "ZLASTOBJECT" BIGINT)"#,
        #"CREATE INDEX IF NOT EXISTS "Z_HISTORYCHANGE_TRANSACTION" ON "Z_HISTORYCHANGE" ("ZTRANSACTION")"#,
    ]

    /// Adds what stores created before it lacked: an update's changed properties, a delete's
    /// tombstone and the last key of a run of inserts (all optional, so older instances keep
    /// writing; one reading a run sees its first object only).
    static let historyUpgradeSQL = [
        #"ALTER TABLE "Z_HISTORYCHANGE" ADD COLUMN IF NOT EXISTS "ZCOLUMNS" TEXT"#,
        #"ALTER TABLE "Z_HISTORYCHANGE" ADD COLUMN IF NOT EXISTS "ZTOMBSTONE" TEXT"#,
        #"ALTER TABLE "Z_HISTORYCHANGE" ADD COLUMN IF NOT EXISTS "ZLASTOBJECT" BIGINT"#,
    ]

    /// The channel every save of this store announces itself on: the schema's, so stores of
    /// other schemas in the database stay quiet.
    ///
    /// Named as the server names it: cut at 63 bytes, as `LISTEN` and `NOTIFY` cut a longer
    /// identifier. postgres-nio hands a notification to the listener of the name it arrived
    /// under, and `pg_notify` refuses a longer name: uncut, a schema name of more than 51
    /// bytes left other instances deaf to this one's saves.
    var notificationChannel: String { Self.serverChannelName("objectgraph." + schemaName) }

    /// `channel` cut at 63 bytes, at a character's boundary, as the server cuts identifiers.
    static func serverChannelName(_ channel: String) -> String {
        var name = channel
        while name.utf8.count > 63 { name.unicodeScalars.removeLast() }
        return name
    }

    /// Whether saves record persistent history: always, as other instances read it to follow.
    package var tracksHistory: Bool { true }

    /// Records a save's history at the end of its transaction. The transaction's number is
    /// taken under a transaction-scoped advisory lock held until commit, so numbers grow in
    /// commit order and a reader past number *n* never misses a later commit numbered below it.
    ///
    /// Every few transactions it also deletes what the retention options no longer keep
    /// (``pruneHistoryIfNeeded(after:connection:logger:)``).
    ///
    /// The statement that numbers the transaction also writes its row, a small save's change
    /// rows, and notifies `channel` (delivered at commit); it is queued behind the lock, so the
    /// save waits for the server once here where it waited three times, each of which a loaded
    /// machine made longer.
    ///
    /// - Returns: The transaction's number, `nil` when there was nothing to record (and
    ///   nobody was notified).
    func recordHistory(
        _ changes: HistoryChanges,
        tombstones: [TombstoneKey: String],
        notifying channel: String,
        connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int64? {
        guard !changes.rows.isEmpty else { return nil }
        // The transaction's number, and one key per changed object for the change rows (a
        // run's objects get consecutive ones), reserved from the table's sequence at once;
        // and the model the schema holds now, read after the lock (a migration holds it: a
        // statement's snapshot is taken before it runs, so the lock must be a statement of its
        // own). The transaction's row is written with them, and so are the change rows of a
        // save with few (bound as arrays; many are streamed with COPY after it); a model that
        // changed meanwhile throws below, and the rollback takes the rows back.
        let changeCount = changes.rows.reduce(Int64(0)) { $0 + $1.objectCount }
        let bindsChanges = changes.rows.count < Self.copyMinimumRows
        let process = ProcessInfo.processInfo
        var bindings = Self.binds([
            .integer(changeCount), .real(Date().timeIntervalSinceReferenceDate), changes.author.map { .text($0) } ?? .null,
            changes.contextName.map { .text($0) } ?? .null, .text(String(process.processIdentifier)), .text(process.processName),
            .text(channel),
        ])
        var changesWritten = ""
        if bindsChanges {
            Self.appendChangeArrays(changes, tombstones: tombstones, to: &bindings)
            // Each row's key is its offset `k` among the change keys, added to the first key.
            changesWritten = #"""
                "changesWritten" AS (
                    INSERT INTO "Z_HISTORYCHANGE" (\#(Self.historyChangeColumns.map(Self.quoted).joined(separator: ", ")))
                    SELECT "lastKey" - $1 + 1 + k, "number", e, o, NULLIF(l, 0), t, NULLIF(n, ''), NULLIF(v, '')
                    FROM "next", unnest($8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::text[], $14::text[])
                        AS c(k, e, o, l, t, n, v)
                ),
                """#
        }
        let numbering = PostgresQuery(
            unsafeSQL: #"""
                WITH "next" AS MATERIALIZED (
                    SELECT (\#(Self.nextHistoryNumberSQL)) AS "number", \#(Self.reserveChangeKeysSQL) AS "lastKey",
                    (SELECT "Z_MODELHASH" FROM "Z_METADATA" WHERE "Z_VERSION" = \#(Self.formatVersion)) AS "modelHash"
                ),
                "written" AS (
                    INSERT INTO "Z_HISTORYTRANSACTION" ("Z_PK", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID", "ZBUNDLEID")
                    SELECT "number", $2, $3, $4, $5, $6 FROM "next"
                ),
                \#(changesWritten)
                "notified" AS MATERIALIZED (SELECT pg_notify($7, ''))
                SELECT "number", "lastKey", "modelHash" FROM "next", "notified"
                """#,
            binds: bindings
        )
        // Queued together: the connection sends the numbering statement as soon as the lock is
        // granted, without a round trip through this task in between.
        let locked: EventLoopFuture<PostgresQueryResult> = connection.query(
            Self.query("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(Self.historyLockName(schemaName))]),
            logger: logger
        )
        let rows: [PostgresRow]
        do {
            rows = try await connection.query(numbering, logger: logger).collect()
        } catch {
            // A lock that failed aborted the transaction, and so this statement: its error
            // says why.
            _ = try await locked.get()
            throw error
        }
        _ = try await locked.get()
        guard let row = rows.first else {
            throw ObjectGraphError(.persistentStoreOperation, "the store at \(serverDescription) could not number a history transaction")
        }
        let (number, lastChangeKey, modelHash) = try row.decode((Int64, Int64, String?).self)
        if let modelHash { try checkModelHash(modelHash) }
        if !bindsChanges {
            let firstChangeKey = lastChangeKey - changeCount + 1
            try await Self.copy(
                historyCopy(changes, tombstones: tombstones, transaction: number, firstKey: firstChangeKey),
                connection: connection,
                logger: logger
            )
        }
        try await pruneHistoryIfNeeded(after: number, connection: connection, logger: logger)
        return number
    }

    /// Reserves `$1` keys of the change table's sequence and returns the last: the history
    /// lock keeps every other writer of change rows out meanwhile.
    static let reserveChangeKeysSQL =
        #"setval(pg_get_serial_sequence('"Z_HISTORYCHANGE"', 'Z_PK'), nextval(pg_get_serial_sequence('"Z_HISTORYCHANGE"', 'Z_PK')) + $1 - 1)"#

    /// The change table's columns as a save writes them.
    static let historyChangeColumns = ["Z_PK", "ZTRANSACTION", "ZENTITY", "ZOBJECT", "ZLASTOBJECT", "ZTYPE", "ZCOLUMNS", "ZTOMBSTONE"]

    /// Each row's key: from `firstKey` on, a run taking one per object.
    private static func changeKeys(_ rows: [HistoryChanges.Row], firstKey: Int64) -> [Int64] {
        var next = firstKey
        return rows.map { row in
            defer { next += row.objectCount }
            return next
        }
    }

    /// Appends a save's change rows as seven arrays: each row's key as its offset from the
    /// first key, entities, objects, last objects (0 for none), types, changed properties and
    /// tombstones (empty for none).
    private static func appendChangeArrays(_ changes: HistoryChanges, tombstones: [TombstoneKey: String], to bindings: inout PostgresBindings) {
        bindings.append(changeKeys(changes.rows, firstKey: 0))
        bindings.append(changes.rows.map { Int64($0.entity) })
        bindings.append(changes.rows.map(\.key))
        // 0 for none (keys start at 1): NULLIF stores NULL.
        bindings.append(changes.rows.map { $0.lastKey ?? 0 })
        bindings.append(changes.rows.map { Int64($0.type.rawValue) })
        // Empty for none: NULLIF stores NULL.
        bindings.append(changes.rows.map { $0.columns ?? "" })
        bindings.append(changes.rows.map { tombstones[TombstoneKey(entity: $0.entity, key: $0.key)] ?? "" })
    }

    /// The change rows of transaction `number` for COPY: a large save's are streamed rather
    /// than bound as arrays the server must decode and unnest.
    private func historyCopy(_ changes: HistoryChanges, tombstones: [TombstoneKey: String], transaction number: Int64, firstKey: Int64) -> CopyRows {
        var values: [SQLValue] = []
        values.reserveCapacity(changes.rows.count * Self.historyChangeColumns.count)
        for (row, key) in zip(changes.rows, Self.changeKeys(changes.rows, firstKey: firstKey)) {
            values.append(.integer(key))
            values.append(.integer(number))
            values.append(.integer(Int64(row.entity)))
            values.append(.integer(row.key))
            values.append(row.lastKey.map { .integer($0) } ?? .null)
            values.append(.integer(Int64(row.type.rawValue)))
            // NULL for none, as the unnest INSERT's NULLIF writes it.
            values.append(row.columns.flatMap { $0.isEmpty ? nil : SQLValue.text($0) } ?? .null)
            values.append(
                tombstones[TombstoneKey(entity: row.entity, key: row.key)].flatMap { $0.isEmpty ? nil : SQLValue.text($0) } ?? .null
            )
        }
        return CopyRows(table: "Z_HISTORYCHANGE", columns: Self.historyChangeColumns, values: values)
    }

    /// The tombstones of the rows `deleted` (entity code and key), read in the transaction about
    /// to delete them; only entities with attributes preserved on deletion are read.
    func readTombstones(_ deleted: [TombstoneKey], connection: PostgresConnection, logger: Logger) async throws -> [TombstoneKey: String] {
        var tombstones: [TombstoneKey: String] = [:]
        for (code, rows) in Dictionary(grouping: deleted, by: \.entity) {
            guard let name = layout.entity(code: code)?.name, let sql = layout.tombstoneQuery(entityName: name, keyCount: rows.count, model: managedObjectModel) else {
                continue
            }
            let query = PostgresQuery(unsafeSQL: sql, binds: Self.binds([], keys: rows.map(\.key)))
            for try await row in try await connection.query(query, logger: logger) {
                let (key, entity, json) = try row.decode((Int64, Int64, String).self)
                // No value kept: no tombstone, as on SQLite.
                if json != "{}" { tombstones[TombstoneKey(entity: Int(entity), key: key)] = json }
            }
        }
        return tombstones
    }

    package func takeOwnTransactions(among numbers: [Int64], through last: Int64) -> Set<Int64> {
        ownTransactions.take(among: numbers, through: last)
    }

    package var ownTransactionBacklog: Int { ownTransactions.backlog }
}
