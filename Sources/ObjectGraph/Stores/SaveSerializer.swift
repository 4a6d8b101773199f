import Foundation
import Synchronization

/// A store's save lock and its count of saves written, the same for every store.
///
/// The lock is held by a context while it saves, from its first attempt to its last: another
/// context of the process cannot save between a conflict and its resolution (as Core Data's
/// coordinator lock), so resolving never starves. It is the one lock held across store I/O,
/// an `NSLock` because it is held across a whole save (see ARCHITECTURE.md, "The lock rule").
///
/// The count tells contexts whether rows fetched before a save may be stale (see
/// ``ObjectStore/snapshotGeneration``). Batch requests and other processes' writes leave it
/// alone, as they leave Core Data's row cache snapshots: a context merges them to see them.
package final class SaveSerializer: @unchecked Sendable {
    // @unchecked Sendable: NSLock and Atomic are thread-safe; nothing else is stored.
    private let lock = NSLock()
    private let written = Atomic<UInt64>(0)

    /// No save running or written yet.
    package init() {}

    /// Runs `body` while no other save of the store runs.
    package func serializing<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// How many contexts' saves the store has written.
    package var generation: UInt64 { written.load(ordering: .acquiring) }

    /// Counts a context's save as written.
    package func noteSaveWritten() {
        written.add(1, ordering: .releasing)
    }
}
