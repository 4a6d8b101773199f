import Foundation

/// A value guarded by a lock, for state shared by synchronous code on several threads: the
/// compiler then sees that every access to the value goes through the lock.
final class Locked<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
