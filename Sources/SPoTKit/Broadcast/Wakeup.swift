import Synchronization

/// A one-slot signal one task waits on and any thread raises: how a reader of one or more
/// ``ChangeLog``s sleeps until something new may be there.
///
/// A signal raised while nobody waits is kept, so the pattern *register, read, wait* never
/// misses a change made between the read and the wait. The continuation is always resumed
/// outside the lock (the runtime takes its own locks on resume, and a cancellation handler
/// that takes this lock runs under them).
///
/// A reader that is not a task (a channel handler on an event loop) makes its wake-up with
/// ``init(onSignal:)`` instead: every signal calls its action, which schedules the read.
public final class Wakeup: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var signalled = false
        var cancelled = false
    }

    private let state = Mutex(State())
    private let action: (@Sendable () -> Void)?

    /// Creates a wake-up with no signal pending.
    public init() {
        action = nil
    }

    /// Creates a wake-up that calls `action` on every signal, on the signalling thread and
    /// under no lock; nothing waits on it with ``wait()``. `action` should only schedule the
    /// reader's work (it runs on the thread that appended to a log) and must not block.
    public init(onSignal action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Wakes the waiting task, or the next call to ``wait()`` when none waits.
    public func signal() {
        if let action {
            action()
            return
        }
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.continuation else {
                state.signalled = true
                return nil
            }
            state.continuation = nil
            return continuation
        }
        waiting?.resume()
    }

    /// Returns at once when a signal is pending (consuming it) or the task is cancelled;
    /// otherwise when the next signal or cancellation comes. One task waits at a time.
    public func wait() async {
        precondition(action == nil, "a wake-up made with init(onSignal:) is not waited on")
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.signalled || state.cancelled {
                        state.signalled = false
                        return true
                    }
                    state.continuation = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume()
        }
    }
}
