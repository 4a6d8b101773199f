import Synchronization

/// Runs `operation` in a task of its own and returns its outcome, or throws `late()`'s error
/// once `limit` has passed without one and `late` says to give up.
///
/// Each time `limit` passes without an outcome, `late` decides: an error ends the wait with
/// it; `nil` (the database answers, it is only busy — a loaded machine, a long save ahead in
/// line) waits another `limit`. So the deadline is about the database's health, not about
/// how long the work takes. A store call cannot be interrupted (a context's queue is blocked
/// in it until the store gives up), so a late operation goes on and its outcome is dropped;
/// the caller is answered on time. Cancelling the caller throws `CancellationError` at once.
func withDeadline<T: Sendable>(
    _ limit: Duration,
    late: @escaping @Sendable () async -> (any Error)?,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
        if race.claim() { race.deliver(outcome) }
    }
    let timer = Task {
        while true {
            do { try await Task.sleep(for: limit) } catch { return }
            guard !race.isClaimed, let error = await late() else { continue }
            if race.claim() { race.deliver(.failure(error)) }
            return
        }
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { race.wait($0) }
    } onCancel: {
        if race.claim() { race.deliver(.failure(CancellationError())) }
    }
}

/// The one outcome of a ``withDeadline(_:late:_:)`` race, handed to its waiter. The lock is
/// never held while the waiter is resumed.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var claimed = false
        var outcome: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    /// Whether an outcome was claimed already.
    var isClaimed: Bool { state.withLock { $0.claimed } }

    /// Whether the caller is the first to finish (only the first delivers).
    func claim() -> Bool {
        state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed
        }
    }

    func deliver(_ outcome: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.outcome = outcome
            return nil
        }
        waiter?.resume(with: outcome)
    }

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        let outcome = state.withLock { state -> Result<T, any Error>? in
            if let outcome = state.outcome { return outcome }
            state.waiter = continuation
            return nil
        }
        if let outcome { continuation.resume(with: outcome) }
    }
}

/// Where a store call raced by a deadline stands, so that a call the caller gave up on before
/// it started never starts, and one that finished late can undo what only the caller would
/// have undone (a lease released).
final class CallTicket: Sendable {
    private static let pending = 0, running = 1, finished = 2, abandonedBeforeStart = 3, abandonedWhileRunning = 4
    private let state = Atomic<Int>(CallTicket.pending)

    /// Marks the call started: `false` when it was given up on already (it must not run).
    func start() -> Bool {
        state.compareExchange(expected: Self.pending, desired: Self.running, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the call finished: `false` when the caller gave up on it meanwhile.
    func finish() -> Bool {
        let (exchanged, original) = state.compareExchange(expected: Self.running, desired: Self.finished, ordering: .acquiringAndReleasing)
        return exchanged || original == Self.finished
    }

    /// Gives the call up: `true` when it had not started (and now never will).
    @discardableResult
    func abandon() -> Bool {
        if state.compareExchange(expected: Self.pending, desired: Self.abandonedBeforeStart, ordering: .acquiringAndReleasing).exchanged { return true }
        _ = state.compareExchange(expected: Self.running, desired: Self.abandonedWhileRunning, ordering: .acquiringAndReleasing)
        return false
    }
}
