import Foundation

/// Runs long, blocking test work on a thread of its own.
///
/// Swift Testing runs every test at once on Swift's cooperative pool, which has one thread per
/// core — two on the CI machine. A test that computes for a minute, or blocks on a child
/// process or a server, there holds a thread every other test needs, and their time limits
/// and event waits run out behind it. On a thread of its own the work shares the cores the way
/// the system shares them, and the pool stays free.
///
/// Record issues after it returns, in the test's task: `#expect` needs the test's task-local
/// context, which the thread does not have.
public enum OwnThread {
    /// Runs `body` on a new thread and returns what it returns (or throws what it throws).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 16 << 20
            thread.start()
        }
    }
}
