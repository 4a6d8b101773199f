import Foundation
import GRDB

/// The changes of one write, as persistent history records them: what a context's save or a
/// batch request inserted, updated (with the changed slots) and deleted.
struct HistoryChanges: Sendable {
    var inserted: [ManagedObjectID] = []
    var updated: [(id: ManagedObjectID, slots: [Int])] = []
    var deleted: [ManagedObjectID] = []
    /// Tombstone values read before the rows were deleted (a batch delete records history after
    /// deleting); a deleted row not in here is read when history is recorded.
    var tombstones: [ManagedObjectID: [(String, SQLValue)]] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    init(inserted: [ManagedObjectID] = [], updated: [(id: ManagedObjectID, slots: [Int])] = [], deleted: [ManagedObjectID] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// The changes of a context's save.
    init(_ changes: SaveChanges) {
        inserted = changes.inserts.map(\.id)
        updated = changes.updates.map { ($0.id, $0.changedSlots ?? []) }
        deleted = changes.deletes.map(\.id)
    }
}

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
                try writer.write { db in
                    for statement in HistoryTables.creationSQL { try db.execute(sql: statement) }
                }
            }
        }
        tracksHistory = exists || (requested && !readOnly)
    }

    // MARK: Recording

    /// Records one history transaction for `changes`, inside the caller's write transaction
    /// `db` — so a write is never kept without its history, nor history without its write.
    ///
    /// Call it before the write deletes rows: a delete's tombstone is read from its row. Every
    /// writer of the store (a context's save, a batch request) records through this function;
    /// it records nothing for empty changes.
    func recordHistory(in db: Database, author: String?, contextName: String?, changes: HistoryChanges) throws {
        guard tracksHistory, !changes.isEmpty else { return }
        try db.execute(
            sql: "INSERT INTO \(HistoryTables.transactions) (ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZBUNDLEID, ZPROCESSID) VALUES (?, ?, ?, ?, ?)",
            arguments: [Date().timeIntervalSinceReferenceDate, author, contextName, HistoryTables.bundleID, HistoryTables.processID]
        )
        let transaction = db.lastInsertedRowID
        noteOwnHistoryTransaction(transaction, in: db)
        let insertChange = try db.cachedStatement(
            sql: "INSERT INTO \(HistoryTables.changes) (ZTRANSACTION, ZCHANGETYPE, ZENTITYNAME, ZENTITYPK, ZCOLUMNS) VALUES (?, ?, ?, ?, ?)"
        )
        for id in changes.inserted {
            try insertChange.execute(arguments: [transaction, PersistentHistoryChangeType.insert.rawValue, id.entityName, id.primaryKey, nil])
        }
        for (id, slots) in changes.updated {
            // No names is an empty text, not NULL, as this store has always written it.
            let names = layout.changedPropertyNames(entityName: id.entityName, slots: slots, model: managedObjectModel) ?? ""
            try insertChange.execute(arguments: [transaction, PersistentHistoryChangeType.update.rawValue, id.entityName, id.primaryKey, names])
        }
        for id in changes.deleted {
            let tombstone = try changes.tombstones[id] ?? tombstoneValues(of: id, in: db)
            try insertChange.execute(arguments: [transaction, PersistentHistoryChangeType.delete.rawValue, id.entityName, id.primaryKey, nil])
            guard !tombstone.isEmpty else { continue }
            let change = db.lastInsertedRowID
            let insertValue = try db.cachedStatement(sql: "INSERT INTO \(HistoryTables.tombstones) (ZCHANGE, ZNAME, ZVALUE) VALUES (?, ?, ?)")
            for (name, value) in tombstone { try insertValue.execute(arguments: [change, name, value.databaseValue]) }
        }
        try pruneHistoryIfNeeded(after: transaction, in: db)
    }

    /// The stored values of `id`'s attributes marked `preservesValueInHistoryOnDeletion`, read
    /// from its row before it is deleted; `nil` values are left out.
    func tombstoneValues(of id: ManagedObjectID, in db: Database) throws -> [(String, SQLValue)] {
        guard let entity = managedObjectModel.entity(named: id.entityName), let mapping = schema.mappings[entity.name] else { return [] }
        let preserved = entity.allProperties.compactMap { property -> (String, String)? in
            guard let attribute = property as? AttributeDescription, attribute.preservesValueInHistoryOnDeletion, !attribute.isTransient,
                let column = mapping.columns[attribute.slot]
            else { return nil }
            return (attribute.name, column)
        }
        guard !preserved.isEmpty else { return [] }
        let columns = preserved.map(\.1).joined(separator: ", ")
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM \(mapping.table) WHERE Z_PK = ?", arguments: [id.primaryKey]) else {
            return []
        }
        return preserved.enumerated().compactMap { index, pair in
            let value: DatabaseValue = row[index]
            return value.isNull ? nil : (pair.0, value.sqlValue)
        }
    }
}
