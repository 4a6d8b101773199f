import Foundation
import Logging
package import ObjectGraph
import PostgresNIO
import Synchronization

/// One save's changes as persistent history records them.
struct PostgreSQLHistoryChanges: Sendable {
    /// `(entity code, primary key, change type)` per changed object.
    let rows: [(entity: Int, key: Int64, type: PersistentHistoryChangeType)]
    let author: String?
    let contextName: String?
}

extension PostgreSQLStore {
    /// The history tables: one row per saved transaction (numbered in commit order), one per
    /// changed object.
    static let historyTableSQL = [
        #"CREATE TABLE IF NOT EXISTS "Z_HISTORYTRANSACTION" ("Z_PK" BIGINT PRIMARY KEY, "ZTIMESTAMP" DOUBLE PRECISION NOT NULL, "ZAUTHOR" TEXT, "ZCONTEXTNAME" TEXT, "ZPROCESSID" TEXT NOT NULL, "ZBUNDLEID" TEXT NOT NULL)"#,
        #"CREATE TABLE IF NOT EXISTS "Z_HISTORYCHANGE" ("Z_PK" BIGSERIAL PRIMARY KEY, "ZTRANSACTION" BIGINT NOT NULL, "ZENTITY" INTEGER NOT NULL, "ZOBJECT" BIGINT NOT NULL, "ZTYPE" INTEGER NOT NULL)"#,
        #"CREATE INDEX IF NOT EXISTS "Z_HISTORYCHANGE_TRANSACTION" ON "Z_HISTORYCHANGE" ("ZTRANSACTION")"#,
    ]

    /// The channel every save of this store announces itself on: the schema's, so stores of
    /// other schemas in the database stay quiet.
    var notificationChannel: String { "objectgraph." + schemaName }

    /// Whether saves record persistent history: always, as other instances read it to follow.
    package var tracksHistory: Bool { true }

    /// The history rows of a save.
    func historyStatements(_ changes: SaveChanges) -> PostgreSQLHistoryChanges {
        var rows: [(entity: Int, key: Int64, type: PersistentHistoryChangeType)] = []
        for write in changes.inserts { rows.append((write.entity, write.id.primaryKey, .insert)) }
        for write in changes.updates { rows.append((write.entity, write.id.primaryKey, .update)) }
        for delete in changes.deletes { rows.append((delete.entity, delete.id.primaryKey, .delete)) }
        // Objects whose to-many relationships alone changed are updated too.
        let written = Set(rows.map(\.key))
        for change in changes.relationshipChanges where !written.contains(change.source.primaryKey) {
            if let entity = layout.entity(named: change.source.entityName) {
                rows.append((entity.code, change.source.primaryKey, .update))
            }
        }
        return PostgreSQLHistoryChanges(rows: rows, author: changes.transactionAuthor, contextName: changes.contextName)
    }

    /// Records a save's history at the end of its transaction. The transaction's number is
    /// taken under a transaction-scoped advisory lock held until commit, so numbers grow in
    /// commit order and a reader past number *n* never misses a later commit numbered below it.
    ///
    /// - Returns: The transaction's number, `nil` when there was nothing to record.
    func recordHistory(_ changes: PostgreSQLHistoryChanges, connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        guard !changes.rows.isEmpty else { return nil }
        try await connection.query(
            Self.query("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("ObjectGraph.history.\(schemaName)")]),
            logger: logger
        )
        let rows = try await connection.query(
            Self.query(#"SELECT COALESCE(MAX("Z_PK"), 0) + 1 FROM "Z_HISTORYTRANSACTION""#),
            logger: logger
        ).collect()
        let number = try rows.first?.decode(Int64.self) ?? 1
        let process = ProcessInfo.processInfo
        try await connection.query(
            Self.query(
                #"INSERT INTO "Z_HISTORYTRANSACTION" ("Z_PK", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID", "ZBUNDLEID") VALUES ($1, $2, $3, $4, $5, $6)"#,
                [
                    .integer(number), .real(Date().timeIntervalSinceReferenceDate), changes.author.map { .text($0) } ?? .null,
                    changes.contextName.map { .text($0) } ?? .null, .text(String(process.processIdentifier)), .text(process.processName),
                ]
            ),
            logger: logger
        )
        var bindings = PostgresBindings()
        bindings.append(number)
        bindings.append(changes.rows.map { Int64($0.entity) })
        bindings.append(changes.rows.map(\.key))
        bindings.append(changes.rows.map { Int64($0.type.rawValue) })
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    #"INSERT INTO "Z_HISTORYCHANGE" ("ZTRANSACTION", "ZENTITY", "ZOBJECT", "ZTYPE") SELECT $1, e, o, t FROM unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS c(e, o, t)"#,
                binds: bindings
            ),
            logger: logger
        )
        return number
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken? {
        let number: Int64? = try run("read the history token") { client in
            let rows = try await client.query(PostgresQuery(unsafeSQL: #"SELECT MAX("Z_PK") FROM "Z_HISTORYTRANSACTION""#)).collect()
            return try rows.first?.decode(Int64?.self)
        }
        return number.map { PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: $0) }
    }

    package func historyTransactions(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        let after = token?.transactionNumber ?? 0
        typealias TransactionRow = (number: Int64, timestamp: Double, author: String?, context: String?, process: String, bundle: String)
        typealias ChangeRow = (id: Int64, transaction: Int64, entity: Int64, key: Int64, type: Int64)
        let (transactionRows, changeRows): ([TransactionRow], [ChangeRow]) = try run("read persistent history") { client in
            var transactions: [TransactionRow] = []
            let sql =
                #"SELECT "Z_PK", "ZTIMESTAMP", "ZAUTHOR", "ZCONTEXTNAME", "ZPROCESSID", "ZBUNDLEID" FROM "Z_HISTORYTRANSACTION" WHERE "Z_PK" > $1 ORDER BY "Z_PK""#
            for try await row in try await client.query(Self.query(sql, [.integer(after)])) {
                transactions.append(try row.decode((Int64, Double, String?, String?, String, String).self))
            }
            var changes: [ChangeRow] = []
            let changeSQL =
                #"SELECT "Z_PK", "ZTRANSACTION", "ZENTITY"::bigint, "ZOBJECT", "ZTYPE"::bigint FROM "Z_HISTORYCHANGE" WHERE "ZTRANSACTION" > $1 ORDER BY "Z_PK""#
            for try await row in try await client.query(Self.query(changeSQL, [.integer(after)])) {
                changes.append(try row.decode((Int64, Int64, Int64, Int64, Int64).self))
            }
            return (transactions, changes)
        }
        var byNumber: [Int64: PersistentHistoryTransaction] = [:]
        let transactions = transactionRows.map { row in
            let transaction = PersistentHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: row.timestamp),
                author: row.author,
                bundleID: row.bundle,
                processID: row.process,
                contextName: row.context,
                storeID: identifier,
                transactionNumber: row.number
            )
            transaction.changes = []
            byNumber[row.number] = transaction
            return transaction
        }
        for row in changeRows {
            guard let transaction = byNumber[row.transaction], let entity = layout.entity(code: Int(row.entity)),
                let type = PersistentHistoryChangeType(rawValue: Int(row.type))
            else { continue }
            let change = PersistentHistoryChange(
                changeID: row.id,
                changedObjectID: ManagedObjectID(storeIdentifier: identifier, entityName: entity.name, primaryKey: row.key),
                changeType: type,
                tombstone: nil,
                updatedProperties: nil,
                transaction: transaction,
                holdsTransaction: false
            )
            transaction.changes?.append(change)
        }
        return transactions
    }

    package func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        guard request.operation == .fetch, request.fetchRequest == nil else {
            throw ObjectGraphError(
                .invalidRequest,
                "the PostgreSQL store at \(serverDescription) runs history fetches after a token only; deleting history and filtered history fetches are not supported yet"
            )
        }
        let token: PersistentHistoryToken?
        switch request.bound {
        case .all: token = nil
        case .token(let given): token = given
        case .date:
            throw ObjectGraphError(.invalidRequest, "the PostgreSQL store at \(serverDescription) does not fetch history by date yet")
        }
        let transactions = try historyTransactions(after: token)
        let changes = transactions.flatMap { $0.changes ?? [] }
        switch request.resultType {
        case .statusOnly: return PersistentHistoryResult(resultType: request.resultType, result: true)
        case .objectIDs: return PersistentHistoryResult(resultType: request.resultType, result: changes.map(\.changedObjectID))
        case .count: return PersistentHistoryResult(resultType: request.resultType, result: transactions.count)
        case .changesOnly: return PersistentHistoryResult(resultType: request.resultType, result: changes, transactions: transactions)
        case .transactionsOnly, .transactionsAndChanges:
            return PersistentHistoryResult(resultType: request.resultType, result: transactions, transactions: transactions)
        }
    }

    package func takeOwnTransactions(among numbers: [Int64], through last: Int64) -> Set<Int64> {
        ownTransactions.withLock { own in
            let mine = Set(numbers.filter { own.contains($0) })
            own = own.filter { $0 > last }
            return mine
        }
    }

    package var ownTransactionBacklog: Int { ownTransactions.withLock { $0.count } }
}
