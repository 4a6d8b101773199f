package import Foundation

/// How much persistent history a store keeps (every store that records history: SQLite, PostgreSQL): transactions older than ``maximumAge`` and all but
/// the newest ``maximumCount`` are deleted as saves go on.
///
/// Set with ``PersistentStore/persistentHistoryMaximumAgeOption`` and
/// ``PersistentStore/persistentHistoryMaximumCountOption``. A reader whose token points into
/// pruned history is told so (``ObjectGraphError/Code/persistentHistoryTokenExpired``) and
/// fetches anew; contexts merging remote changes automatically do that by themselves.
package struct PersistentHistoryRetention: Sendable, Equatable {
    /// The oldest a transaction may be, in seconds; `nil` for no limit.
    package var maximumAge: Double?
    /// How many transactions are kept at most; `nil` for no limit.
    package var maximumCount: Int?

    /// How often (every this many transactions) a save also prunes: pruning is a few indexed
    /// deletes, not worth doing on every save.
    package static let pruningInterval: Int64 = 16

    /// The retention `options` ask for; `nil` when they ask for none.
    /// - Throws: ``ObjectGraphError`` naming the option whose value is not a number above 0.
    package static func requested(in options: [String: Any]?) throws -> PersistentHistoryRetention? {
        func number(_ key: String) throws -> Double? {
            try PersistentStoreCoordinator.number(options?[key], option: key, allowingZero: false)
        }
        let age = try number(PersistentStore.persistentHistoryMaximumAgeOption)
        let count = try number(PersistentStore.persistentHistoryMaximumCountOption).map { Int($0.rounded(.up)) }
        guard age != nil || count != nil else { return nil }
        return PersistentHistoryRetention(maximumAge: age, maximumCount: count)
    }
}

extension PersistentHistoryRetention {
    /// What a store deletes after recording transaction `last`, decided once for every store:
    /// every ``pruningInterval`` transactions (`nil` otherwise), the transactions older than
    /// `olderThan` — never `last` itself, however old it is by now: the current token names it,
    /// and a reader at that token must not be told it expired — and those numbered below
    /// `below` (all but the newest ``maximumCount``).
    package func pruning(after last: Int64) -> (olderThan: Date?, below: Int64?)? {
        guard last % Self.pruningInterval == 0 else { return nil }
        let below = maximumCount.map { last - Int64($0) + 1 }.flatMap { $0 > 1 ? $0 : nil }
        return (maximumAge.map { Date(timeIntervalSinceNow: -$0) }, below)
    }
}

extension PersistentStore {
    /// The option key of how long persistent history is kept, in seconds (a number): older
    /// transactions are deleted as later saves are recorded.
    ///
    /// Core Data leaves pruning to the app (`deleteHistory(before:)`); with several processes
    /// on one store, no single one knows what the others have read, so the store prunes by age:
    /// give every process time to read (minutes, not seconds).
    public static let persistentHistoryMaximumAgeOption = "ObjectGraphPersistentHistoryMaximumAge"

    /// The option key of how many persistent history transactions are kept at most (a number);
    /// older ones are deleted as later saves are recorded.
    public static let persistentHistoryMaximumCountOption = "ObjectGraphPersistentHistoryMaximumCount"
}
