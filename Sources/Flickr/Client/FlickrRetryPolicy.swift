/// How the client retries calls that may succeed later: exponential backoff with jitter.
///
/// Retried: HTTP 5xx, timeouts, dropped connections, truncated images and Flickr's code 105 (see
/// ``FlickrError/isRetryable``). The delay before retry *n* (1 for the first retry) is
/// `min(maxDelay, initialDelay × multiplier^(n-1))`, reduced by up to `jitter` of itself at
/// random so that clients that failed together do not retry together:
///
/// ```swift
/// // 0.5 s, 1 s, 2 s (each minus up to 50 %), then give up after the 4th attempt
/// let policy = FlickrRetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(500))
/// ```
public struct FlickrRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 means never retry.
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var initialDelay: Duration
    /// The factor by which each further delay grows.
    public var multiplier: Double
    /// The longest delay, before jitter.
    public var maxDelay: Duration
    /// The fraction of each delay that is random, from 0 (none) to 1 ("full jitter").
    public var jitter: Double

    /// Creates a policy; out-of-range values are clamped (at least 1 attempt, jitter in 0...1).
    public init(
        maxAttempts: Int = 4,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(20),
        jitter: Double = 0.5
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(.zero, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(.zero, maxDelay)
        self.jitter = min(1, max(0, jitter))
    }

    /// Four attempts, 0.5 s doubling to at most 20 s, half of each delay random.
    public static var `default`: Self { .init() }

    /// A single attempt: failures are reported at once.
    public static var none: Self { .init(maxAttempts: 1) }

    /// The delay before retry number `retry` (1-based) given a random `unit` in `0..<1`.
    ///
    /// Pure, so tests compute the expected delays with the same seeded generator.
    public func delay(beforeRetry retry: Int, randomUnit unit: Double) -> Duration {
        let exponent = Double(max(0, retry - 1))
        let base = min(maxDelay, initialDelay * pow(multiplier, exponent))
        let factor = 1 - jitter * min(max(unit, 0), 1)
        return base * factor
    }

    /// The delay before retry number `retry`, drawing the jitter from `generator`.
    public func delay(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(beforeRetry: retry, randomUnit: Double.random(in: 0..<1, using: &generator))
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 && result < 1e12 {
            result *= base
            remaining -= 1
        }
        return result
    }
}
