/// A count an actor keeps of callers that reached some point (a shared download, a refresh
/// trigger), and the tests waiting for it to reach a number: the way a test knows every
/// concurrent caller is in place, without sleeping.
///
/// The actor owns it and does the waiting (see ``ThumbnailStore/waitForWaitingCallers(_:)``):
///
/// ```swift
/// package func waitForArrivals(_ count: Int) async {
///     let token = arrivals.makeToken()
///     await withTaskCancellationHandler {
///         await withCheckedContinuation { arrivals.wait(token, for: count, $0) }
///     } onCancel: {
///         Task { await self.cancelWait(token) }   // calls arrivals.cancel(token)
///     }
/// }
/// ```
package struct ArrivalCount {
    /// The count now.
    package private(set) var value = 0
    private var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextToken = 0

    package init() {}

    /// A token for one ``wait(_:for:_:)``.
    package mutating func makeToken() -> Int {
        nextToken += 1
        return nextToken
    }

    /// Changes the count by `delta`, resuming every waiter whose number it reached.
    package mutating func add(_ delta: Int = 1) {
        value += delta
        for (token, waiter) in waiters where waiter.count <= value {
            waiters[token] = nil
            waiter.continuation.resume()
        }
    }

    /// Resumes `continuation` once the count is at least `count` (at once if it is).
    package mutating func wait(_ token: Int, for count: Int, _ continuation: CheckedContinuation<Void, Never>) {
        if value >= count || Task.isCancelled {
            continuation.resume()
        } else {
            waiters[token] = (count, continuation)
        }
    }

    /// Resumes the waiter of `token` now, whatever the count (its task was cancelled).
    package mutating func cancel(_ token: Int) {
        waiters.removeValue(forKey: token)?.continuation.resume()
    }
}
