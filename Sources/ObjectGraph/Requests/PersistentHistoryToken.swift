import Foundation

/// A position in a store's persistent history, as Core Data's `NSPersistentHistoryToken`:
/// fetch what happened after it with ``PersistentHistoryChangeRequest/fetchHistory(after:)-(PersistentHistoryToken?)``.
///
/// Keep the last token you merged (it is `Codable`, so it can be written to a file or to user
/// defaults) and ask for the history after it on the next launch. A token belongs to one store:
/// using it with another store throws. Tokens of one store are ordered by their transaction.
public struct PersistentHistoryToken: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The identifier of the store whose history this token points into.
    public let storeIdentifier: String
    /// The number of the transaction the token points at (numbers only grow, never reused).
    public let transactionNumber: Int64

    package init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    /// Orders tokens by store, then by transaction.
    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "PersistentHistoryToken(\(storeIdentifier): \(transactionNumber))" }
}
