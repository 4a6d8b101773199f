import Synchronization

/// Tests' fault injection for a ``SQLiteStore``: an error the injection returns before a read
/// or write is thrown as SQLite's own would be.
///
/// Checked before every store operation, so while no injection is set it costs one relaxed
/// atomic load, never a lock.
final class StoreFailureInjection: Sendable {
    /// The error to throw before an operation of a kind, or `nil` to let it run.
    typealias Injection = @Sendable (SQLiteStore.StoreAccess) -> (any Error)?

    private let isSet = Atomic<Bool>(false)
    private let injection = Mutex<Injection?>(nil)

    /// Sets (or, with `nil`, removes) the injection.
    func set(_ injection: Injection?) {
        self.injection.withLock { $0 = injection }
        isSet.store(injection != nil, ordering: .releasing)
    }

    /// Throws what the injection returns for `access`, if one is set.
    func check(_ access: SQLiteStore.StoreAccess) throws {
        guard isSet.load(ordering: .acquiring), let error = injection.withLock({ $0 })?(access) else { return }
        throw error
    }
}
