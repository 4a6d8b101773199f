import Foundation
import ObjectGraph

extension ModelContext {
    /// The name saves of this context are recorded under in history, as SwiftData's `author`:
    /// readers of ``fetchHistory(_:)`` can skip their own saves with it.
    public var author: String? {
        get { read { managedObjectContext.transactionAuthor } }
        set { read { managedObjectContext.transactionAuthor = newValue } }
    }

    /// The history transactions `descriptor` selects, oldest first unless it sorts them.
    ///
    /// Every save of a container's stores is recorded in history, with the models it inserted,
    /// updated and deleted (ObjectGraph's persistent history, Core Data's). A reader keeps the
    /// token of the last transaction it processed:
    ///
    /// ```swift
    /// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
    /// descriptor.predicate = #Predicate { $0.token > lastToken && $0.author != "server" }
    /// for transaction in try context.fetchHistory(descriptor) {
    ///     for change in transaction.changes { … }
    ///     lastToken = transaction.token
    /// }
    /// ```
    ///
    /// - Throws: ObjectGraph's `persistentHistoryTokenExpired` when the history right after the
    ///   predicate's token was deleted (fetch the models anew then); an error the predicate
    ///   threw; `SwiftDataError.unsupportedPredicate` for a transaction type other than
    ///   ``DefaultHistoryTransaction``.
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        var transactions = try matchingTransactions(descriptor)
        if !descriptor.sortBy.isEmpty { transactions.sort(using: descriptor.sortBy) }
        if let limit = descriptor.fetchLimit { transactions = Array(transactions.prefix(max(limit, 0))) }
        return transactions
    }

    /// Deletes the history transactions `descriptor` selects, and every older one: a store's
    /// history is a log, cut at the newest transaction selected (as Core Data deletes it).
    ///
    /// Readers whose token is older than what is deleted get `persistentHistoryTokenExpired`
    /// from their next ``fetchHistory(_:)``.
    ///
    /// - Throws: a store error, or one the predicate threw.
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        let selected = try matchingTransactions(descriptor).compactMap { ($0 as? DefaultHistoryTransaction)?.token.token }
        guard let newest = selected.max() else { return }
        // Deleting before the next number deletes the newest selected transaction too.
        let bound = PersistentHistoryToken(storeIdentifier: newest.storeIdentifier, transactionNumber: newest.transactionNumber + 1)
        let request = PersistentHistoryChangeRequest.deleteHistory(before: bound)
        _ = try read { try managedObjectContext.execute(request) }
    }

    /// The transactions the descriptor's predicate selects, in the order they were saved.
    private func matchingTransactions<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        guard T.self == DefaultHistoryTransaction.self else {
            throw SwiftDataError.unsupportedPredicate.with("ObjectGraph's stores record history as DefaultHistoryTransaction, not \(T.self)")
        }
        let after = descriptor.predicate.flatMap { HistoryTokenBound.lowerBound(of: $0.expression) }
        let request = PersistentHistoryChangeRequest.fetchHistory(after: after?.token)
        let schema = self.schema
        let fetched = try read { () throws -> [DefaultHistoryTransaction] in
            let result = try managedObjectContext.execute(request) as? PersistentHistoryResult
            let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
            return transactions.map { transaction in
                let changes = (transaction.changes ?? []).compactMap {
                    HistoryConversion.change($0, transaction: transaction.transactionNumber, schema: schema)
                }
                return DefaultHistoryTransaction(transaction, changes: changes)
            }
        }
        var transactions = fetched.map { $0 as! T }
        if let predicate = descriptor.predicate { transactions = try transactions.filter { try predicate.evaluate($0) } }
        return transactions
    }
}

/// Finds `token > constant` among a history predicate's top-level `&&` parts, so that the store
/// reads only the history after it.
enum HistoryTokenBound {
    /// The token the predicate's transactions must come after, if a top-level part says so.
    static func lowerBound(of expression: any PredicateExpression) -> DefaultHistoryToken? {
        if let conjunction = expression as? any SplittableConjunction {
            return conjunction.conjuncts.compactMap(lowerBound(of:)).max()
        }
        return (expression as? any TokenComparison)?.tokenLowerBound
    }
}

/// A comparison of a transaction's token with a constant token.
protocol TokenComparison {
    /// The constant, when the comparison keeps only transactions after it.
    var tokenLowerBound: DefaultHistoryToken? { get }
}

extension PredicateExpressions.Comparison: TokenComparison
where
    LHS == PredicateExpressions.KeyPath<PredicateExpressions.Variable<DefaultHistoryTransaction>, DefaultHistoryToken>,
    RHS == PredicateExpressions.Value<DefaultHistoryToken>
{
    var tokenLowerBound: DefaultHistoryToken? {
        guard lhs.keyPath == \DefaultHistoryTransaction.token else { return nil }
        switch op {
        case .greaterThan: return rhs.value
        // `>=` keeps the token's own transaction: read from the one before.
        case .greaterThanOrEqual:
            let token = rhs.value.token
            return DefaultHistoryToken(PersistentHistoryToken(storeIdentifier: token.storeIdentifier, transactionNumber: token.transactionNumber - 1))
        case .lessThan, .lessThanOrEqual: return nil
        }
    }
}
