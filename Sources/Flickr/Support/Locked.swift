import Foundation

/// A value guarded by a lock, for state shared by synchronous code on several threads.
///
/// Used where an actor would force `await` on callers that must stay synchronous
/// (a `Clock`'s `now`, a server's counters).
package final class Locked<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
