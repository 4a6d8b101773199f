/// A client-side limit on API calls, so one key stays under Flickr's quota.
///
/// Flickr allows 3,600 calls per hour per key. The limiter lets ``burst`` calls through at
/// once, then one call every `interval / (requests - burst)`, which keeps *any* window of
/// length ``interval`` at or under ``requests`` calls. A call over the limit waits (on the
/// client's clock) rather than failing. Image downloads are not API calls and are not limited.
public struct FlickrRateLimit: Sendable, Hashable {
    /// The most calls allowed in any window of ``interval``.
    public var requests: Int
    /// The window.
    public var interval: Duration
    /// How many calls may go at once after a quiet period (at most `requests - 1`).
    public var burst: Int

    /// Creates a limit of `requests` per `interval` with `burst` calls allowed at once.
    public init(requests: Int, per interval: Duration, burst: Int = 1) {
        self.requests = max(1, requests)
        self.interval = max(.nanoseconds(1), interval)
        self.burst = min(max(1, burst), max(1, self.requests - 1))
    }

    /// Flickr's quota: 3,600 calls per hour, up to 60 at once.
    public static var flickr: Self { .init(requests: 3600, per: .seconds(3600), burst: 60) }

    /// The steady spacing between calls once the burst is spent.
    public var spacing: Duration {
        requests > burst ? interval / (requests - burst) : interval
    }
}

/// The rate limit as a pure state machine (the generic cell rate algorithm): given the time a
/// call arrives, when it may start. Reservations are made in arrival order.
package struct RateLimiterState: Sendable {
    package let limit: FlickrRateLimit
    /// The theoretical arrival time of the next call, as elapsed clock time.
    private var nextArrival: Duration = .zero

    package init(limit: FlickrRateLimit) {
        self.limit = limit
    }

    /// Reserves a slot for a call arriving at `now`; returns when it may start (≥ `now`).
    package mutating func reserve(at now: Duration) -> Duration {
        let spacing = limit.spacing
        let tolerance = spacing * (limit.burst - 1)
        let arrival = max(nextArrival, now)
        let start = max(now, arrival - tolerance)
        nextArrival = arrival + spacing
        return start
    }
}

/// Applies a ``FlickrRateLimit`` on a clock: ``acquire()`` returns when a call may start.
package actor RateLimiter {
    private var state: RateLimiterState
    private let clock: ClockBox

    package init(limit: FlickrRateLimit, clock: ClockBox) {
        self.state = RateLimiterState(limit: limit)
        self.clock = clock
    }

    /// Waits until the next call may start.
    /// - Throws: `CancellationError` if cancelled while waiting (the slot is not given back).
    package func acquire() async throws {
        let now = clock.now
        let start = state.reserve(at: now)
        if start > now {
            try await clock.sleep(until: start)
        }
    }
}
