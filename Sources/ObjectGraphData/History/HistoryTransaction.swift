public import Foundation
import ObjectGraph

/// A position in a store's history, as SwiftData's `HistoryToken`: keep the last one you
/// processed and fetch the transactions after it next time.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// The token's value as the store keeps it.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The identifier of the store whose history the token points into.
    var storeIdentifier: String { get }
    /// The token's value as the store keeps it.
    var tokenValue: TokenType? { get }
}

/// The token of ObjectGraph's stores, as SwiftData's `DefaultHistoryToken`: `Codable`, so it
/// can be saved (to a file, to user defaults) and used after a restart.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken }
/// let transactions = try context.fetchHistory(descriptor)
/// lastToken = transactions.last?.token ?? lastToken
/// ```
///
/// Tokens of one store are ordered by their transaction.
public struct DefaultHistoryToken: HistoryToken {
    /// The transaction number by store identifier.
    public typealias TokenType = [String: Int]

    /// ObjectGraph's token underneath.
    let token: PersistentHistoryToken

    init(_ token: PersistentHistoryToken) { self.token = token }

    /// The identifier of the store whose history the token points into.
    public var storeIdentifier: String { token.storeIdentifier }

    /// `[storeIdentifier: transactionNumber]`.
    public var tokenValue: [String: Int]? { [token.storeIdentifier: Int(token.transactionNumber)] }

    /// The transaction number the token points at.
    public var id: Int { Int(token.transactionNumber) }

    /// Orders tokens by store, then by transaction.
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool { lhs.token < rhs.token }
}

/// One save recorded in a store's history, as SwiftData's `HistoryTransaction`.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The transaction's token type.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The transaction identifier's type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The saving context's ``ModelContext/author``.
    var author: String? { get }
    /// The changes of the save, in the order they were recorded.
    var changes: [HistoryChange] { get }
    /// The identifier of the store the save was written to.
    var storeIdentifier: String { get }
    /// When the save was written.
    var timestamp: Date { get }
    /// The position right after this transaction: fetch after it for what was saved later.
    var token: TokenType { get }
    /// The transaction's number in its store; later saves have larger ones.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// A save recorded in the history of ObjectGraph's stores, as SwiftData's
/// `DefaultHistoryTransaction`. Fetch them with ``ModelContext/fetchHistory(_:)``.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The saving context's ``ModelContext/author``.
    public let author: String?
    /// The changes of the save, in the order they were recorded.
    public let changes: [HistoryChange]
    /// The identifier of the store the save was written to.
    public let storeIdentifier: String
    /// The saving process's bundle identifier (its process name where it has none).
    public let bundleIdentifier: String
    /// The saving process's identifier.
    public let processIdentifier: String
    /// When the save was written.
    public let timestamp: Date
    /// The position right after this transaction.
    public let token: DefaultHistoryToken
    /// The transaction's number in its store.
    public var transactionIdentifier: Int64 { token.token.transactionNumber }
    /// The transaction's number in its store.
    public var id: Int64 { transactionIdentifier }

    init(_ transaction: PersistentHistoryTransaction, changes: [HistoryChange]) {
        author = transaction.author
        self.changes = changes
        storeIdentifier = transaction.storeID
        bundleIdentifier = transaction.bundleID
        processIdentifier = transaction.processID
        timestamp = transaction.timestamp
        token = DefaultHistoryToken(transaction.token)
    }

    /// Transactions are equal when they are the same save of the same store.
    public static func == (lhs: DefaultHistoryTransaction, rhs: DefaultHistoryTransaction) -> Bool { lhs.token == rhs.token }

    /// Hashes the store and transaction number.
    public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}

/// Which history transactions to fetch or delete, as SwiftData's `HistoryDescriptor`.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken && $0.author != "server" }
/// ```
///
/// A `token >` (or `>=`) comparison among the predicate's top-level `&&` parts is handed to
/// the store, which reads only the history after that token; the whole predicate is then
/// evaluated on the transactions read.
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// The transactions to keep; all without one.
    public var predicate: Predicate<TransactionType>?
    /// The order of the results; the order of the saves without one.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The most transactions to return; all without one.
    public var fetchLimit: Int?

    /// A descriptor of the transactions matching `predicate`.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.init(predicate: predicate, sortBy: [])
    }

    /// A descriptor of the transactions matching `predicate`, in `sortBy`'s order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>]) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
