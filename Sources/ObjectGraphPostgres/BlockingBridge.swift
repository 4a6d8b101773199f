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
    /// `timeout` is how long it waits without progress before it asks about the server, not a
    /// bound on the whole operation: a save streaming a hundred thousand rows goes on while the
    /// server keeps taking them (each step it finishes calls ``noteProgress()``). After
    /// `timeout` without progress it calls `liveness`: ``Liveness/working`` (the server
    /// answers and is busy for the store, or waits for the store's own slow client side) keeps
    /// it waiting for another `timeout`; ``Liveness/stuck(_:)`` (the server does not answer a
    /// new connection, or the operation waits for a lock another session holds) gives up with
    /// that reason. Without `liveness`, no progress within `timeout` gives up.
    ///
    /// `meanwhile` runs on the calling thread once `body` calls ``noteUnderway()`` (or has
    /// finished without calling it), then the thread waits on: work of the caller's own that
    /// overlaps the server's rather than waiting for it.
    ///
    /// - Throws: What `body` throws; ``Timeout`` (and cancels `body`) when it made no progress
    ///   for `timeout` and `liveness` says the server is stuck.
    func wait<T: Sendable>(
        timeout: Duration,
        meanwhile: () -> Void = {},
        liveness: (() -> Liveness)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let progress = Progress()
        let task = Task(executorPreference: executor) {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await Self.$progress.withValue(progress) { try await body() }) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            progress.wakeUp.signal()
        }
        // Woken when `body` is under way or done; once more, when done, if it was under way.
        try waitForWakeUp(progress, task: task, timeout: timeout, liveness: liveness)
        meanwhile()
        if progress.isUnderway.load(ordering: .acquiring) { try waitForWakeUp(progress, task: task, timeout: timeout, liveness: liveness) }
        return try result.withLock { $0! }.get()
    }

    /// Waits for `progress`'s next wake-up while `task` makes progress or `liveness` says the
    /// server works; cancels it and throws ``Timeout`` after `timeout` without progress when
    /// the server is stuck.
    private func waitForWakeUp(_ progress: Progress, task: Task<Void, Never>, timeout: Duration, liveness: (() -> Liveness)?) throws {
        var seen = progress.steps.load(ordering: .relaxed)
        while progress.wakeUp.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            let steps = progress.steps.load(ordering: .relaxed)
            if steps == seen {
                switch liveness?() ?? .stuck(nil) {
                case .working:
                    break
                case .stuck(let reason):
                    task.cancel()
                    throw Timeout(duration: timeout, reason: reason)
                }
            }
            seen = progress.steps.load(ordering: .relaxed)
        }
    }

    /// What a wait without progress learnt about the server (see ``wait(timeout:meanwhile:liveness:_:)``).
    enum Liveness: Sendable {
        /// The server answers, and works for the operation or waits for its client side: wait on.
        case working
        /// Give up, for the reason given (`nil`: none known).
        case stuck(String?)
    }

    /// Steps of work a bridged operation finished, counted while it runs.
    final class Progress: Sendable {
        let steps = Atomic<UInt64>(0)
        /// Signalled when the operation is done, and before that once when it is under way
        /// (see ``noteUnderway()``).
        let wakeUp = DispatchSemaphore(value: 0)
        /// Whether the operation said it is under way (and so signalled ``wakeUp`` for it).
        let isUnderway = Atomic<Bool>(false)
    }

    /// The progress of the bridged operation the current task belongs to.
    @TaskLocal static var progress: Progress?

    /// Notes that the current bridged operation moved on (a statement answered, a megabyte of
    /// COPY data taken by the server), so ``wait(timeout:meanwhile:_:)`` keeps waiting for it.
    static func noteProgress() {
        progress?.steps.add(1, ordering: .relaxed)
    }

    /// Notes that the current bridged operation is under way (the server is taking a save's
    /// rows): its caller's `meanwhile` work may run now.
    static func noteUnderway() {
        guard let progress, !progress.isUnderway.exchange(true, ordering: .releasing) else { return }
        progress.wakeUp.signal()
    }

    /// A bridged call that made no progress in time.
    struct Timeout: Error, CustomStringConvertible {
        let duration: Duration
        /// Why it gave up: what the check of the server found.
        var reason: String?
        var description: String { "no answer within \(duration)" + (reason.map { ", and \($0)" } ?? "") }
    }
}

extension Duration {
    /// The duration for Dispatch's waits, in nanoseconds.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
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
