/// A type-erased `Clock<Duration>` measured from the moment it was boxed.
///
/// Lets the client keep one concrete, `Sendable` value for whatever clock its configuration
/// holds (a `ContinuousClock` in production, a ``ManualClock`` in tests).
package struct ClockBox: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.elapsed = { origin.duration(to: clock.now) }
        self.sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
    }

    /// Time elapsed on the clock since it was boxed.
    package var now: Duration { elapsed() }

    /// Suspends until the clock reaches `offset` (measured like ``now``).
    package func sleep(until offset: Duration) async throws {
        try await sleepUntil(offset)
    }

    /// Suspends for `duration` of the clock's time.
    package func sleep(for duration: Duration) async throws {
        try await sleepUntil(now + duration)
    }
}
