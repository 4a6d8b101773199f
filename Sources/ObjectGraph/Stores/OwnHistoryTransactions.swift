import Synchronization

/// The persistent history transactions a store wrote that the remote-change monitor has not
/// read past yet, for every store that records history: the monitor skips them (a
/// coordinator's own saves reach its contexts through
/// ``PersistentStoreCoordinator/contextDidSave(_:_:)``), so no context merges a save twice.
///
/// A number is noted before its transaction commits — a reader may see the transaction the
/// moment it does — and forgotten if the transaction rolls back, as the number may then be
/// handed out again.
package final class OwnHistoryTransactions: Sendable {
    private let numbers = Mutex<Set<Int64>>([])

    /// None yet.
    package init() {}

    /// Notes transaction `number` as the store's own.
    package func note(_ number: Int64) {
        numbers.withLock { _ = $0.insert(number) }
    }

    /// Forgets transaction `number` (its transaction rolled back).
    package func forget(_ number: Int64) {
        numbers.withLock { _ = $0.remove(number) }
    }

    /// Removes and returns which of `numbers` the store wrote; forgets every number up to
    /// `last`, which the caller has read past.
    package func take(among candidates: [Int64], through last: Int64) -> Set<Int64> {
        numbers.withLock { own in
            let mine = Set(candidates.filter { own.contains($0) })
            own = own.filter { $0 > last }
            return mine
        }
    }

    /// How many of the store's transactions the monitor has not read past yet.
    package var backlog: Int { numbers.withLock { $0.count } }
}
