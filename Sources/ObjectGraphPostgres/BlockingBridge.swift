import Dispatch
import Synchronization

/// Runs postgres-nio's `async` work for the store's synchronous interface, and waits for it.
///
/// Contexts call their store synchronously, on their own queue — which may be a thread of
/// Swift's cooperative pool (a `performAndWait` from an `async` test or request handler). So
/// the waiting thread must never be the one the work needs: every task the bridge starts,
/// and every child task it makes (the connection pool's own, started by `PostgresClient.run()`
/// through the bridge too), prefers ``executor``, whose jobs run on threads of a concurrent
/// Dispatch queue, never on the cooperative pool. Blocking a cooperative thread then costs one
/// thread for the length of a query, and can never starve the work it waits for.
final class BlockingBridge: Sendable {
    /// Where the bridge's tasks run.
    let executor = DispatchTaskExecutor(label: "ObjectGraphPostgres.bridge")

    /// Starts `body` as a task on ``executor`` without waiting (the client's `run()`, a
    /// `LISTEN` loop).
    @discardableResult
    func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor) { await body() }
    }

    /// Runs `body` on ``executor`` and blocks the calling thread until it finishes.
    ///
    /// - Throws: What `body` throws; ``Timeout`` (and cancels `body`) when it has not finished
    ///   after `timeout` — a server that went away is not waited for without end.
    func wait<T: Sendable>(timeout: Duration, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<T, any Error>?>(nil)
        let task = Task(executorPreference: executor) {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        if done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
            task.cancel()
            throw Timeout(duration: timeout)
        }
        return try result.withLock { $0! }.get()
    }

    /// A bridged call that did not finish in time.
    struct Timeout: Error, CustomStringConvertible {
        let duration: Duration
        var description: String { "no answer within \(duration)" }
    }
}

/// A `TaskExecutor` running each job on a concurrent Dispatch queue, off Swift's cooperative
/// pool (see ``BlockingBridge``).
final class DispatchTaskExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
