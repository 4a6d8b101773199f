public import Foundation

/// What a ``PersistentHistoryChangeRequest`` returns in ``PersistentHistoryResult/result``, as
/// Core Data's `NSPersistentHistoryResultType`.
public enum PersistentHistoryResultType: Int, Sendable, Hashable {
    /// `true` once the request ran.
    case statusOnly = 0
    /// The IDs of the objects the fetched changes touched, `[ManagedObjectID]`, each once, in
    /// the order of their first change.
    case objectIDs = 1
    /// How many transactions the request fetched or deleted, an `Int`.
    case count = 2
    /// The fetched transactions, `[PersistentHistoryTransaction]`, without their changes.
    case transactionsOnly = 3
    /// The fetched changes, `[PersistentHistoryChange]`, in order.
    case changesOnly = 4
    /// The fetched transactions, `[PersistentHistoryTransaction]`, each with its changes (the
    /// default).
    case transactionsAndChanges = 5
}

/// Fetches or deletes a store's persistent history, as Core Data's
/// `NSPersistentHistoryChangeRequest`. Run it with ``ManagedObjectContext/execute(_:)``.
///
/// The store must track history: add it with ``PersistentStore/persistentHistoryTrackingOption``
/// set to `true`. Catching up with what other processes or coordinators saved:
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as? PersistentHistoryResult
/// for transaction in result?.result as? [PersistentHistoryTransaction] ?? [] {
///     context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
///
/// - Throws (from `execute`): ``ObjectGraphError/Code/invalidRequest`` when the store does not
///   track history or a token belongs to another store;
///   ``ObjectGraphError/Code/persistentHistoryTokenExpired`` when history after the token was
///   deleted, so the changes in between cannot be fetched (fetch everything anew).
public final class PersistentHistoryChangeRequest: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then handed to a context (as its base).

    /// Where the request starts (fetch) or ends (delete).
    package enum Bound {
        /// Every transaction.
        case all
        /// Transactions after (fetch) or before (delete) the token's.
        case token(PersistentHistoryToken)
        /// Transactions saved after (fetch) or before (delete) the date.
        case date(Date)
    }

    /// Whether the request fetches or deletes.
    package enum Operation {
        case fetch, delete
    }

    package let operation: Operation
    package let bound: Bound

    /// What the request returns; ``PersistentHistoryResultType/transactionsAndChanges`` by
    /// default. A delete returns the number of deleted transactions for
    /// ``PersistentHistoryResultType/count``, and `true` for every other type.
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges

    /// Narrows a fetch, as Core Data's `fetchRequest`: a request on
    /// ``PersistentHistoryTransaction/fetchRequest`` keeps the transactions its predicate
    /// matches (author, contextName, timestamp, …), one on ``PersistentHistoryChange/fetchRequest``
    /// keeps the changes it matches (changeType, changedEntity, changedObjectID, …) and the
    /// transactions that still hold one. Its `fetchLimit` and `fetchOffset` apply to what it
    /// selects, in order; sort descriptors are not used (history comes in the order it was
    /// saved).
    ///
    /// ```swift
    /// let others = PersistentHistoryTransaction.fetchRequest!
    /// others.predicate = FetchPredicate(format: "author != %@", "app")
    /// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
    /// request.fetchRequest = others
    /// ```
    public var fetchRequest: FetchRequest<any FetchRequestResult>?

    /// The token the request starts after (fetch) or ends before (delete), if it has one.
    public var token: PersistentHistoryToken? {
        if case .token(let token) = bound { return token }
        return nil
    }

    init(operation: Operation, bound: Bound) {
        self.operation = operation
        self.bound = bound
    }

    /// A request for the transactions saved after `token`'s (all of them for `nil`).
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(operation: .fetch, bound: token.map { .token($0) } ?? .all)
    }

    /// A request for the transactions saved after `date`.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(operation: .fetch, bound: .date(date))
    }

    /// A request for the transactions saved after `transaction` (all of them for `nil`).
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// A request for every transaction `fetchRequest` selects (see ``fetchRequest``).
    public static func fetchHistory(withFetch fetchRequest: FetchRequest<any FetchRequestResult>) -> PersistentHistoryChangeRequest {
        let request = fetchHistory(after: nil as PersistentHistoryToken?)
        request.fetchRequest = fetchRequest
        return request
    }

    /// A request that deletes the transactions saved before `token`'s (the token's own
    /// transaction stays, so fetching after the token keeps working); every transaction for
    /// `nil`.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(operation: .delete, bound: token.map { .token($0) } ?? .all)
    }

    /// A request that deletes the transactions saved before `date`.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(operation: .delete, bound: .date(date))
    }

    /// A request that deletes the transactions saved before `transaction` (it stays); every
    /// transaction for `nil`.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        deleteHistory(before: transaction?.token)
    }

    override func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        guard let store = context.persistentStoreCoordinator?.store else {
            throw ObjectGraphError(.noPersistentStore, "cannot run a persistent history request: the context has no persistent store")
        }
        return try store.execute(self)
    }
}

/// What a ``PersistentHistoryChangeRequest`` returns, as Core Data's
/// `NSPersistentHistoryResult`.
public final class PersistentHistoryResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable; holds Sendable transactions, changes and IDs.

    /// The kind of ``result``, as the request asked.
    public let resultType: PersistentHistoryResultType
    /// The result: see ``PersistentHistoryResultType`` for its type.
    public let result: Any?
    /// The fetched transactions, which keep the changes' weak
    /// ``PersistentHistoryChange/transaction`` references alive.
    private let transactions: [PersistentHistoryTransaction]

    package init(resultType: PersistentHistoryResultType, result: Any?, transactions: [PersistentHistoryTransaction] = []) {
        self.resultType = resultType
        self.result = result
        self.transactions = transactions
    }
}

extension ObjectGraphError.Code {
    /// A persistent history request asked for changes after a token whose following history
    /// was deleted, as Core Data's `NSPersistentHistoryTokenExpiredError`: fetch the objects
    /// anew, then continue from the current token.
    public static let persistentHistoryTokenExpired = ObjectGraphError.Code("persistentHistoryTokenExpired", 134301)
}
