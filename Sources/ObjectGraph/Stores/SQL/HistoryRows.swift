import Foundation

/// Persistent history as a store read it from its tables, before it becomes objects: what
/// every SQL store hands the engine, which builds the transactions and changes a history
/// request returns (``objects(storeIdentifier:withChanges:changesOnly:)``). A store only reads
/// rows — in its own tables, with its own encodings of tombstones and runs of changes.
package struct HistoryRows {
    /// One recorded transaction.
    package struct Transaction {
        /// The transaction's number, the history token's.
        package let number: Int64
        /// Seconds since 2001-01-01.
        package let timestamp: Double
        /// The saving context's `transactionAuthor`.
        package let author: String?
        /// The saving context's name.
        package let contextName: String?
        /// The bundle and process that saved.
        package let bundleID: String
        package let processID: String

        /// A transaction as the store read it.
        package init(number: Int64, timestamp: Double, author: String?, contextName: String?, bundleID: String, processID: String) {
            self.number = number
            self.timestamp = timestamp
            self.author = author
            self.contextName = contextName
            self.bundleID = bundleID
            self.processID = processID
        }
    }

    /// One change of one object, in the transaction numbered `transaction`.
    package struct Change {
        /// The change's number (its ``PersistentHistoryChange/changeID``).
        package let id: Int64
        /// The number of its transaction.
        package let transaction: Int64
        /// The object changed.
        package let objectID: ManagedObjectID
        /// Insert, update or delete.
        package let type: PersistentHistoryChangeType
        /// For an update: the properties it changed.
        package let updatedProperties: Set<PropertyDescription>?
        /// For a delete: the preserved values, typed as the entity's attributes type them.
        package let tombstone: [String: Any]?

        /// A change as the store read it.
        package init(
            id: Int64,
            transaction: Int64,
            objectID: ManagedObjectID,
            type: PersistentHistoryChangeType,
            updatedProperties: Set<PropertyDescription>?,
            tombstone: [String: Any]?
        ) {
            self.id = id
            self.transaction = transaction
            self.objectID = objectID
            self.type = type
            self.updatedProperties = updatedProperties
            self.tombstone = tombstone
        }
    }

    /// In transaction order.
    package var transactions: [Transaction] = []
    /// In change order; changes of transactions not in ``transactions`` are left out.
    package var changes: [Change] = []

    /// No rows yet.
    package init() {}

    /// The transactions and changes of the rows: with `withChanges`, each transaction holds
    /// its changes, except with `changesOnly`, where the changes hold their transactions (a
    /// change returned alone keeps its transaction, which then does not hold it: no cycle).
    package func objects(
        storeIdentifier: String,
        withChanges: Bool,
        changesOnly: Bool
    ) -> ([PersistentHistoryTransaction], [PersistentHistoryChange]) {
        var byNumber: [Int64: PersistentHistoryTransaction] = [:]
        let built = transactions.map { row in
            let transaction = PersistentHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: row.timestamp),
                author: row.author,
                bundleID: row.bundleID,
                processID: row.processID,
                contextName: row.contextName,
                storeID: storeIdentifier,
                transactionNumber: row.number
            )
            byNumber[row.number] = transaction
            return transaction
        }
        guard withChanges else { return (built, []) }
        var changesByTransaction: [Int64: [PersistentHistoryChange]] = [:]
        var all: [PersistentHistoryChange] = []
        for row in changes {
            guard let transaction = byNumber[row.transaction] else { continue }
            let change = PersistentHistoryChange(
                changeID: row.id,
                changedObjectID: row.objectID,
                changeType: row.type,
                tombstone: row.tombstone,
                updatedProperties: row.updatedProperties,
                transaction: transaction,
                holdsTransaction: changesOnly
            )
            changesByTransaction[row.transaction, default: []].append(change)
            all.append(change)
        }
        if !changesOnly {
            for transaction in built { transaction.changes = changesByTransaction[transaction.transactionNumber] ?? [] }
        }
        return (built, all)
    }
}

extension PersistentHistoryChangeRequest {
    /// Throws unless the request's token (if any) is one of the store `storeIdentifier`'s;
    /// `store` names the store ("the store at …").
    package func checkToken(storeIdentifier: String, store: String, file: String?) throws {
        if let token, token.storeIdentifier != storeIdentifier {
            throw ObjectGraphError(
                .invalidRequest,
                "the history token \(token.transactionNumber) belongs to the store \(token.storeIdentifier), not to \(store) (\(storeIdentifier))",
                file: file
            )
        }
    }

    /// The WHERE condition on the transactions table (`Z_PK`, `ZTIMESTAMP`) selecting what the
    /// request fetches (after its bound) or deletes (before it), in `dialect`, with its
    /// arguments.
    package func transactionCondition(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        let comparison = operation == .fetch ? ">" : "<"
        switch bound {
        case .all: return (dialect.trueLiteral, [])
        case .token(let token): return ("\(dialect.quoted("Z_PK")) \(comparison) \(dialect.placeholder(1))", [.integer(token.transactionNumber)])
        case .date(let date):
            return ("\(dialect.quoted("ZTIMESTAMP")) \(comparison) \(dialect.placeholder(1))", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// Whether a fetch reads changes: every result type but transactions only and a count,
    /// and those too when the request's fetch request narrows changes.
    package var readsChanges: Bool {
        !(resultType == .transactionsOnly || resultType == .count) || narrowsChanges
    }

    /// The result of a fetch of `transactions` and `changes` (as the store read them):
    /// narrowed by the fetch request, shaped as the result type asks.
    package func fetchResult(_ transactions: [PersistentHistoryTransaction], _ changes: [PersistentHistoryChange]) throws -> PersistentHistoryResult {
        let (narrowedTransactions, narrowedChanges) = try narrowed(transactions, changes, changesOnly: resultType == .changesOnly)
        return result(narrowedTransactions, narrowedChanges)
    }

    /// The result of a delete of `deleted` transactions.
    package func deletionResult(_ deleted: Int) -> PersistentHistoryResult {
        PersistentHistoryResult(resultType: resultType, result: resultType == .count ? deleted : true)
    }
}
