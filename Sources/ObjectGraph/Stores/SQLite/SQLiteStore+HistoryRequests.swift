import Foundation
import GRDB

extension SQLiteStore {
    /// Runs a persistent history request: fetches or deletes transactions in one SQLite
    /// transaction.
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        guard tracksHistory else {
            throw ObjectGraphError(
                .invalidRequest,
                "the store at \(path ?? ":memory:") does not track persistent history; add it with the option PersistentStore.persistentHistoryTrackingOption (\(PersistentStore.persistentHistoryTrackingOption)) set to true",
                file: path
            )
        }
        try request.checkToken(storeIdentifier: identifier, store: "the store at \(path ?? ":memory:")", file: path)
        switch request.operation {
        case .fetch:
            let (transactions, changes) = try storeOperation(.read, "fetch persistent history") {
                try writer.read { db in try fetchTransactions(request, in: db) }
            }
            return try request.fetchResult(transactions, changes)
        case .delete:
            let deleted = try storeOperation(.write, "delete persistent history") {
                try writeTransaction { db in try deleteTransactions(request, in: db) }
            }
            return request.deletionResult(deleted)
        }
    }

    /// The token of the last transaction recorded in this store; `nil` when it tracks no
    /// history or has recorded none.
    func currentHistoryToken() throws -> PersistentHistoryToken? {
        guard tracksHistory else { return nil }
        let last = try storeOperation(.read, "read the current persistent history token") {
            try writer.read { db in try lastTransactionNumber(in: db) }
        }
        return last > 0 ? PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: last) : nil
    }

    // MARK: Fetching

    /// The transactions `request` selects and their changes (none when it asks for
    /// transactions only or a count), read as rows the engine turns into objects
    /// (``HistoryRows``).
    private func fetchTransactions(
        _ request: PersistentHistoryChangeRequest,
        in db: Database
    ) throws -> ([PersistentHistoryTransaction], [PersistentHistoryChange]) {
        if let token = request.token { try checkNotExpired(token, in: db) }
        let (condition, arguments) = transactionCondition(request)
        var rows = HistoryRows()
        rows.transactions = try Row.fetchAll(
            db,
            sql: """
                SELECT Z_PK, ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZBUNDLEID, ZPROCESSID FROM \(HistoryTables.transactions) \
                WHERE \(condition) ORDER BY Z_PK
                """,
            arguments: arguments
        ).map { row in
            HistoryRows.Transaction(number: row[0], timestamp: row[1], author: row[2], contextName: row[3], bundleID: row[4], processID: row[5])
        }
        let withChanges = !rows.transactions.isEmpty && request.readsChanges
        if withChanges {
            let selected = "SELECT Z_PK FROM \(HistoryTables.transactions) WHERE \(condition)"
            let tombstones = try tombstones(inTransactions: selected, arguments: arguments, in: db)
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT Z_PK, ZTRANSACTION, ZCHANGETYPE, ZENTITYNAME, ZENTITYPK, ZCOLUMNS FROM \(HistoryTables.changes) \
                    WHERE ZTRANSACTION IN (\(selected)) ORDER BY Z_PK
                    """,
                arguments: arguments
            )
            while let row = try cursor.next() {
                guard let type = PersistentHistoryChangeType(rawValue: row[2]) else { continue }
                let changeID: Int64 = row[0]
                let entityName: String = row[3]
                let entity = managedObjectModel.entity(named: entityName)
                let updated = type == .update ? layout.changedProperties(row[5], entityName: entityName, model: managedObjectModel) : nil
                rows.changes.append(
                    HistoryRows.Change(
                        id: changeID,
                        transaction: row[1],
                        objectID: ManagedObjectID(storeIdentifier: identifier, entityName: entityName, primaryKey: row[4]),
                        type: type,
                        updatedProperties: updated,
                        tombstone: type == .delete ? tombstones[changeID].map { decodeTombstone($0, entity: entity) } : nil
                    )
                )
            }
        }
        return rows.objects(storeIdentifier: identifier, withChanges: withChanges, changesOnly: request.resultType == .changesOnly)
    }

    /// The stored tombstone values of the delete changes of the selected transactions, by change.
    private func tombstones(
        inTransactions selected: String,
        arguments: StatementArguments,
        in db: Database
    ) throws -> [Int64: [(String, DatabaseValue)]] {
        var result: [Int64: [(String, DatabaseValue)]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT ZCHANGE, ZNAME, ZVALUE FROM \(HistoryTables.tombstones) WHERE ZCHANGE IN \
                (SELECT Z_PK FROM \(HistoryTables.changes) WHERE ZTRANSACTION IN (\(selected)))
                """,
            arguments: arguments
        )
        while let row = try rows.next() {
            result[row[0], default: []].append((row[1], row[2]))
        }
        return result
    }

    /// Tombstone values as the entity's attributes type them (raw SQLite values for an
    /// attribute the model no longer has).
    private func decodeTombstone(_ values: [(String, DatabaseValue)], entity: EntityDescription?) -> [String: Any] {
        let attributes = entity?.attributesByName ?? [:]
        var result: [String: Any] = [:]
        for (name, stored) in values {
            if let attribute = attributes[name] {
                if let value = attribute.publicValue(from: Value(stored, type: attribute.attributeType)) { result[name] = value }
            } else {
                switch stored.storage {
                case .null: break
                case .int64(let int): result[name] = int
                case .double(let double): result[name] = double
                case .string(let string): result[name] = string
                case .blob(let data): result[name] = data
                }
            }
        }
        return result
    }

    /// Throws when history right after `token` was deleted: the changes between the token and
    /// the oldest remaining transaction are lost to its reader.
    private func checkNotExpired(_ token: PersistentHistoryToken, in db: Database) throws {
        let number = token.transactionNumber
        let next = try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM \(HistoryTables.transactions) WHERE Z_PK > ?", arguments: [number])
        let expired: Bool
        if let next { expired = next > number + 1 } else { expired = try lastTransactionNumber(in: db) > number }
        if expired {
            throw ObjectGraphError(
                .persistentHistoryTokenExpired,
                "the persistent history after token \(number) in the store at \(path ?? ":memory:") was deleted; fetch the objects anew and continue from the current token",
                file: path
            )
        }
    }

    /// The number of the last transaction ever recorded (0 for none), also when it was deleted.
    private func lastTransactionNumber(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [HistoryTables.transactions]) ?? 0
    }

    /// The WHERE clause on the transactions table selecting what `request` fetches or deletes
    /// (the engine's, in SQLite's dialect).
    private func transactionCondition(_ request: PersistentHistoryChangeRequest) -> (String, StatementArguments) {
        let (condition, arguments) = request.transactionCondition(SQLiteDialect())
        return (condition, StatementArguments(arguments.databaseValues))
    }

    // MARK: Deleting

    /// Deletes the transactions `request` selects with their changes and tombstones; returns
    /// how many transactions it deleted.
    func deleteTransactions(_ request: PersistentHistoryChangeRequest, in db: Database) throws -> Int {
        let (condition, arguments) = transactionCondition(request)
        let selected = "SELECT Z_PK FROM \(HistoryTables.transactions) WHERE \(condition)"
        try db.execute(
            sql: """
                DELETE FROM \(HistoryTables.tombstones) WHERE ZCHANGE IN \
                (SELECT Z_PK FROM \(HistoryTables.changes) WHERE ZTRANSACTION IN (\(selected)))
                """,
            arguments: arguments
        )
        try db.execute(sql: "DELETE FROM \(HistoryTables.changes) WHERE ZTRANSACTION IN (\(selected))", arguments: arguments)
        try db.execute(sql: "DELETE FROM \(HistoryTables.transactions) WHERE \(condition)", arguments: arguments)
        return db.changesCount
    }
}
