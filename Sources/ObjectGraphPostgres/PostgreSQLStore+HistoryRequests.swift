import Foundation
import Logging
package import ObjectGraph
import PostgresNIO

// Persistent history requests on PostgreSQL, as on SQLite: fetches after a token, after a date
// or of everything, narrowed by a fetch request; deletions before a token or a date. A reader
// whose token points into deleted history is told its token expired.
extension PostgreSQLStore {
    /// The `Z_PRIMARYKEY` row keeping the number of the last history transaction ever recorded,
    /// once history was deleted (numbers are never reused, so tokens stay ordered). Core Data
    /// keeps its history tables' keys in `Z_PRIMARYKEY` too, with codes no entity reaches.
    static let historyKeyEntity = 16_000

    package func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try request.checkToken(storeIdentifier: identifier, store: "the PostgreSQL store at \(serverDescription)", file: serverDescription)
        let (condition, arguments) = request.transactionCondition(layout.dialect)
        guard request.operation == .fetch else { return request.deletionResult(try deleteHistory(where: condition, arguments)) }
        let (transactions, changes) = try fetchHistory(
            where: condition,
            arguments,
            checking: request.token?.transactionNumber,
            withChanges: request.readsChanges,
            changesOnly: request.resultType == .changesOnly
        )
        return try request.fetchResult(transactions, changes)
    }

    package func historyTransactions(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        let after = token?.transactionNumber ?? 0
        return try fetchHistory(where: #""Z_PK" > $1"#, [.integer(after)], checking: token?.transactionNumber, withChanges: true, changesOnly: false)
            .0
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken? {
        let number: Int64? = try run("read the history token") { client in
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL:
                        #"SELECT GREATEST((SELECT MAX("Z_PK") FROM "Z_HISTORYTRANSACTION"), (SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = \#(Self.historyKeyEntity)))"#
                )
            ).collect()
            return try rows.first?.decode(Int64?.self)
        }
        return number.map { PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
    }

    /// The number the next history transaction gets: after the last recorded, deleted ones
    /// included. Run under the history lock (see ``recordHistory(_:connection:logger:)``).
    static let nextHistoryNumberSQL =
        #"SELECT COALESCE(GREATEST((SELECT MAX("Z_PK") FROM "Z_HISTORYTRANSACTION"), (SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = \#(historyKeyEntity))), 0) + 1"#

    // MARK: Fetching

    /// The transactions matching `condition` (on the transactions table), in order, and their
    /// changes when asked: each transaction holds its changes, except with `changesOnly`, where
    /// the changes hold their transactions.
    ///
    /// - Throws: ``ObjectGraphError/Code/persistentHistoryTokenExpired`` when history right
    ///   after the transaction numbered `checking` was deleted.
    private func fetchHistory(
        where condition: String,
        _ arguments: [SQLValue],
        checking token: Int64?,
        withChanges: Bool,
        changesOnly: Bool
    ) throws -> ([PersistentHistoryTransaction], [PersistentHistoryChange]) {
        typealias TransactionRow = (number: Int64, timestamp: Double, author: String?, context: String?, process: String, bundle: String)
        typealias ChangeRow = (
            id: Int64, transaction: Int64, entity: Int64, key: Int64, lastKey: Int64?, type: Int64, columns: String?, tombstone: String?
        )
        let (expired, transactionRows, changeRows): (Bool, [TransactionRow], [ChangeRow]) = try run("read persistent history") { client in
            // One snapshot: the transactions and their changes agree, and with the expiry check.
            try await Self.inTransaction(client, logger: self.logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: self.logger)
                if let token {
                    let rows = try await connection.query(
                        Self.query(
                            #"SELECT (SELECT MIN("Z_PK") FROM "Z_HISTORYTRANSACTION" WHERE "Z_PK" > $1), (SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = \#(Self.historyKeyEntity))"#,
                            [.integer(token)]
                        ),
                        logger: self.logger
                    ).collect()
                    let (next, deletedThrough) = try rows.first?.decode((Int64?, Int64?).self) ?? (nil, nil)
                    if let next, next > token + 1 { return (true, [], []) }
                    if next == nil, let deletedThrough, deletedThrough > token { return (true, [], []) }
                }
                var transactions: [TransactionRow] = []
                let sql =
                    #"SELECT "Z_PK", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID", "ZBUNDLEID" FROM "Z_HISTORYTRANSACTION" WHERE \#(condition) ORDER BY "Z_PK""#
                for try await row in try await connection.query(Self.query(sql, arguments), logger: self.logger) {
                    transactions.append(try row.decode((Int64, Double, String?, String?, String, String).self))
                }
                var changes: [ChangeRow] = []
                if withChanges, !transactions.isEmpty {
                    let changeSQL =
                        #"SELECT "Z_PK", "ZTRANSACTION", "ZENTITY"::bigint, "ZOBJECT", "ZLASTOBJECT", "ZTYPE"::bigint, "ZCOLUMNS", "ZTOMBSTONE" FROM "Z_HISTORYCHANGE" WHERE "ZTRANSACTION" IN (SELECT "Z_PK" FROM "Z_HISTORYTRANSACTION" WHERE \#(condition)) ORDER BY "Z_PK""#
                    for try await row in try await connection.query(Self.query(changeSQL, arguments), logger: self.logger) {
                        changes.append(try row.decode((Int64, Int64, Int64, Int64, Int64?, Int64, String?, String?).self))
                    }
                }
                return (false, transactions, changes)
            }
        }
        if expired, let token {
            throw ObjectGraphError(
                .persistentHistoryTokenExpired,
                "the persistent history after token \(token) in the PostgreSQL store at \(serverDescription) was deleted; fetch the objects anew and continue from the current token",
                file: serverDescription
            )
        }
        var rows = HistoryRows()
        rows.transactions = transactionRows.map { row in
            HistoryRows.Transaction(
                number: row.number,
                timestamp: row.timestamp,
                author: row.author,
                contextName: row.context,
                bundleID: row.bundle,
                processID: row.process
            )
        }
        for row in changeRows {
            guard let entity = layout.entity(code: Int(row.entity)), let type = PersistentHistoryChangeType(rawValue: Int(row.type)) else { continue }
            let tombstone = type == .delete ? row.tombstone.map { layout.decodeTombstone($0, entityName: entity.name, model: managedObjectModel) } : nil
            let updated = type == .update ? layout.changedProperties(row.columns, entityName: entity.name, model: managedObjectModel) : nil
            // A run of inserted objects: one change each, numbered on from the row's key.
            for key in row.key...max(row.key, row.lastKey ?? row.key) {
                rows.changes.append(
                    HistoryRows.Change(
                        id: row.id + (key - row.key),
                        transaction: row.transaction,
                        objectID: storeIDs.objectID(code: entity.code, primaryKey: key) ?? storeIDs.objectID(entityName: entity.name, primaryKey: key),
                        type: type,
                        updatedProperties: updated,
                        tombstone: tombstone
                    )
                )
            }
        }
        return rows.objects(storeIdentifier: identifier, withChanges: withChanges, changesOnly: changesOnly)
    }

    // MARK: Deleting

    /// Deletes the transactions matching `condition` with their changes, in one transaction;
    /// returns how many transactions it deleted.
    private func deleteHistory(where condition: String, _ arguments: [SQLValue]) throws -> Int {
        let logger = logger
        return try run("delete persistent history") { client in
            try await Self.inTransaction(client, logger: logger) { connection in
                try await self.deleteHistory(where: condition, arguments, connection: connection, logger: logger)
            }
        }
    }

    /// Deletes the transactions matching `condition` with their changes, in the transaction
    /// open on `connection`; returns how many transactions it deleted. The last number recorded
    /// is kept first, so numbers are not reused once the newest transactions are gone.
    func deleteHistory(where condition: String, _ arguments: [SQLValue], connection: PostgresConnection, logger: Logger) async throws -> Int {
        // The lock saves record history under: no transaction is numbered meanwhile.
        try await connection.query(
            Self.query("SELECT pg_advisory_xact_lock(hashtext($1))", [.text(Self.historyLockName(schemaName))]),
            logger: logger
        )
        try await connection.query(
            PostgresQuery(
                unsafeSQL: #"""
                    INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") \#
                    VALUES (\#(Self.historyKeyEntity), 'Z_HISTORYTRANSACTION', 0, (\#(Self.nextHistoryNumberSQL)) - 1) \#
                    ON CONFLICT ("Z_ENT") DO UPDATE SET "Z_MAX" = EXCLUDED."Z_MAX"
                    """#
            ),
            logger: logger
        )
        try await connection.query(
            Self.query(
                #"DELETE FROM "Z_HISTORYCHANGE" WHERE "ZTRANSACTION" IN (SELECT "Z_PK" FROM "Z_HISTORYTRANSACTION" WHERE \#(condition))"#,
                arguments
            ),
            logger: logger
        )
        let rows = try await connection.query(
            Self.query(#"DELETE FROM "Z_HISTORYTRANSACTION" WHERE \#(condition) RETURNING "Z_PK""#, arguments),
            logger: logger
        ).collect()
        return rows.count
    }
}
