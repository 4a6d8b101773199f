import Synchronization

/// A clock whose time moves only when told to: the test and demo clock.
///
/// `sleep(until:)` suspends until ``advance(by:)`` (or ``advance(to:)``) moves time to or past
/// the deadline. Tests use it to run backoff, rate limiting and the sandbox's latency without
/// ever really sleeping: they await ``waitForSleepers(count:)`` (an event), check
/// ``pendingSleeps``, then advance.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(2)) }
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .seconds(2))   // `task` finishes now
/// ```
///
/// A cancelled sleeper throws `CancellationError` at once, as `ContinuousClock` does.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time elapsed since the clock was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by time.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, e.g. `+2.5 seconds`.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        var id: Int
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeRegistering: Set<Int> = []
        var waiters: [Waiter] = []
        var history: [Duration] = []

        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let ready = waiters.filter { $0.count <= count }
            waiters.removeAll { $0.count <= count }
            return ready.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// Creates a clock at ``Instant/offset`` zero with nobody sleeping.
    public init() {}

    /// The current time, which changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step of this clock: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the clock has been advanced to `deadline`; returns at once if it already has.
    ///
    /// Every call is recorded in ``sleepHistory``.
    /// - Throws: `CancellationError` if the calling task is cancelled while sleeping.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.history.append(state.now.duration(to: deadline))
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome {
                    case sleeping([CheckedContinuation<Void, Never>])
                    case done, cancelled
                }
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelledBeforeRegistering.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .done }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .sleeping(state.readyWaiters())
                }
                switch outcome {
                case .sleeping(let waiters):
                    for waiter in waiters { waiter.resume() }
                case .done: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelledBeforeRegistering.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time to `instant` (never backwards), waking every sleeper whose deadline has come.
    public func advance(to instant: Instant) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            if instant > state.now { state.now = instant }
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.sorted { $0.value.deadline < $1.value.deadline }.map(\.value.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// How long each current sleeper still has to sleep, shortest first.
    public var pendingSleeps: [Duration] {
        state.withLock { state in
            state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted()
        }
    }

    /// Every duration asked of ``sleep(until:tolerance:)`` so far, in call order, measured
    /// from the time of the call (a deadline already past is recorded as zero or less).
    public var sleepHistory: [Duration] { state.withLock { $0.history } }

    /// Suspends until at least `count` tasks are sleeping on this clock.
    ///
    /// The way for a test to know that the code under test has reached a sleep. Returns early,
    /// without error, if the waiting task is cancelled (so a test's time limit can end it).
    public func waitForSleepers(count: Int = 1) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || state.cancelledBeforeRegistering.remove(id) != nil { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) { return state.waiters.remove(at: index) }
                state.cancelledBeforeRegistering.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
    }
}
