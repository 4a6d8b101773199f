import Synchronization

/// A probe's call to the database as seen where it runs (a context's queue): when it reached
/// the database and what it answered, known to the monitor even while the task awaiting the
/// call waits for a thread, so a busy scheduler is not taken for a database that does not
/// answer, and a call's time unanswered counts from when it began.
final class ProbeCall: Sendable {
    private let state = Mutex<(started: ContinuousClock.Instant?, outcome: Result<Void, any Error>?)>((nil, nil))

    /// When the call reached the database; `nil` before.
    var started: ContinuousClock.Instant? { state.withLock { $0.started } }
    /// What the call answered; `nil` while it runs.
    var outcome: Result<Void, any Error>? { state.withLock { $0.outcome } }

    /// Runs `body`, the probe's questions to the database, noting its start and its outcome.
    func run(_ body: () throws -> Void) throws {
        state.withLock { $0.started = ContinuousClock.now }
        do {
            try body()
            state.withLock { $0.outcome = .success(()) }
        } catch {
            state.withLock { $0.outcome = .failure(error) }
            throw error
        }
    }
}
