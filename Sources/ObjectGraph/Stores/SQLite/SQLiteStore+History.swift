import Foundation
import GRDB

/// The history tables, in the store's file beside the entity tables. `Z_`-prefixed like
/// `Z_METADATA`, so no entity's table (`Z` + its name) can clash with them; migrations leave
/// them alone (they rename and drop only entity and join tables).
enum HistoryTables {
    static let transactions = "Z_HISTORYTRANSACTION"
    static let changes = "Z_HISTORYCHANGE"
    static let tombstones = "Z_HISTORYTOMBSTONE"

    /// AUTOINCREMENT: a transaction's or change's number is never reused, also after history
    /// is deleted, so tokens stay ordered.
    static let creationSQL = [
        """
        CREATE TABLE IF NOT EXISTS \(transactions) (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTIMESTAMP REAL NOT NULL, \
        ZAUTHOR TEXT, ZCONTEXTNAME TEXT, ZBUNDLEID TEXT NOT NULL, ZPROCESSID TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS \(transactions)_ZTIMESTAMP ON \(transactions) (ZTIMESTAMP)",
        """
        CREATE TABLE IF NOT EXISTS \(changes) (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTRANSACTION INTEGER NOT NULL, \
        ZCHANGETYPE INTEGER NOT NULL, ZENTITYNAME TEXT NOT NULL, ZENTITYPK INTEGER NOT NULL, ZCOLUMNS TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS \(changes)_ZTRANSACTION ON \(changes) (ZTRANSACTION)",
        "CREATE TABLE IF NOT EXISTS \(tombstones) (ZCHANGE INTEGER NOT NULL, ZNAME TEXT NOT NULL, ZVALUE)",
        "CREATE INDEX IF NOT EXISTS \(tombstones)_ZCHANGE ON \(tombstones) (ZCHANGE)",
    ]

    /// Who is saving, recorded with each transaction.
    static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let processID = String(ProcessInfo.processInfo.processIdentifier)
}

extension SQLiteStore {
    // MARK: Tracking

    /// Turns history tracking on when `requested`, creating the history tables if missing, or
    /// when the file already has them: a store that once tracked history keeps recording every
    /// save, so readers catching up never miss one (Core Data opens such a store read-only).
    func enableHistoryTracking(requested: Bool, readOnly: Bool) throws {
        if coreDataMetadata != nil {
            guard !requested else {
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "ObjectGraph does not record persistent history into the Core Data store at \(path ?? ":memory:") (Core Data's ATRANSACTION and ACHANGE tables); open it without history tracking",
                    file: path
                )
            }
            return
        }
        let exists = try storeOperation(.read, "look for persistent history tables") {
            try writer.read { db in try db.tableExists(HistoryTables.transactions) && db.tableExists(HistoryTables.changes) }
        }
        if requested && !exists && !readOnly {
            try storeOperation(.write, "create the persistent history tables") {
                try writeTransaction { db in
                    for statement in HistoryTables.creationSQL { try db.execute(sql: statement) }
                }
            }
        }
        tracksHistory = exists || (requested && !readOnly)
    }

    // MARK: Recording

    /// Records one history transaction for `changes` (the engine's rows, one per object),
    /// inside the caller's write transaction `db` — so a write is never kept without its
    /// history, nor history without its write.
    ///
    /// Call it before the write deletes rows: a delete's tombstone is read from its row unless
    /// `tombstones` holds it (a batch delete reads them before its rows go). Every writer of
    /// the store (a context's save, a batch request) records through this function; it records
    /// nothing for empty changes.
    func recordHistory(in db: Database, _ changes: HistoryChanges, tombstones: [ManagedObjectID: [(String, SQLValue)]] = [:]) throws {
        guard tracksHistory, !changes.isEmpty else { return }
        try db.execute(
            sql: "INSERT INTO \(HistoryTables.transactions) (ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZBUNDLEID, ZPROCESSID) VALUES (?, ?, ?, ?, ?)",
            arguments: [Date().timeIntervalSinceReferenceDate, changes.author, changes.contextName, HistoryTables.bundleID, HistoryTables.processID]
        )
        let transaction = db.lastInsertedRowID
        noteOwnHistoryTransaction(transaction, in: db)
        let insertChange = try db.cachedStatement(
            sql: "INSERT INTO \(HistoryTables.changes) (ZTRANSACTION, ZCHANGETYPE, ZENTITYNAME, ZENTITYPK, ZCOLUMNS) VALUES (?, ?, ?, ?, ?)"
        )
        for row in changes.rows {
            guard let entity = plan.entity(code: row.entity) else { continue }
            switch row.type {
            case .insert:
                try insertChange.execute(arguments: [transaction, row.type.rawValue, entity.name, row.key, nil])
            case .update:
                // No names is an empty text, not NULL, as this store has always written it.
                try insertChange.execute(arguments: [transaction, row.type.rawValue, entity.name, row.key, row.columns ?? ""])
            case .delete:
                let id = ids.objectID(code: row.entity, primaryKey: row.key)
                let tombstone = try id.flatMap { tombstones[$0] } ?? tombstoneValues(of: entity, key: row.key, in: db)
                try insertChange.execute(arguments: [transaction, row.type.rawValue, entity.name, row.key, nil])
                guard !tombstone.isEmpty else { continue }
                let change = db.lastInsertedRowID
                let insertValue = try db.cachedStatement(sql: "INSERT INTO \(HistoryTables.tombstones) (ZCHANGE, ZNAME, ZVALUE) VALUES (?, ?, ?)")
                for (name, value) in tombstone { try insertValue.execute(arguments: [change, name, value.databaseValue]) }
            }
        }
        try pruneHistoryIfNeeded(after: transaction, in: db)
    }

    /// The stored values of `id`'s attributes marked `preservesValueInHistoryOnDeletion`, read
    /// from its row before it is deleted; `nil` values are left out.
    func tombstoneValues(of id: ManagedObjectID, in db: Database) throws -> [(String, SQLValue)] {
        guard let entity = plan.entity(named: id.entityName) else { return [] }
        return try tombstoneValues(of: entity, key: id.primaryKey, in: db)
    }

    /// The stored values of the attributes marked `preservesValueInHistoryOnDeletion` of the
    /// row `key` of `stored`, read before the row is deleted; `nil` values are left out.
    private func tombstoneValues(of stored: StorePlan.EntityPlan, key: Int64, in db: Database) throws -> [(String, SQLValue)] {
        guard let entity = managedObjectModel.entity(named: stored.name) else { return [] }
        let mapping = stored.mapping
        let preserved = entity.allProperties.compactMap { property -> (String, String)? in
            guard let attribute = property as? AttributeDescription, attribute.preservesValueInHistoryOnDeletion, !attribute.isTransient,
                let column = mapping.columns[attribute.slot]
            else { return nil }
            return (attribute.name, column)
        }
        guard !preserved.isEmpty else { return [] }
        let columns = preserved.map(\.1).joined(separator: ", ")
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM \(mapping.table) WHERE Z_PK = ?", arguments: [key]) else {
            return []
        }
        return preserved.enumerated().compactMap { index, pair in
            let value: DatabaseValue = row[index]
            return value.isNull ? nil : (pair.0, value.sqlValue)
        }
    }
}
