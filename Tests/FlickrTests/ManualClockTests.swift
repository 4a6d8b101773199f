import Flickr
import Testing

/// The manual clock moves only when told to, so time-based code is tested without sleeping.
@Suite(.timeLimit(.minutes(10))) struct ManualClockTests {
    @Test func sleepersWakeWhenTimeReachesTheirDeadline() async throws {
        let clock = ManualClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let long = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(count: 2)
        #expect(clock.pendingSleeps == [.seconds(1), .seconds(5)])

        clock.advance(by: .seconds(2))
        try await short.value
        #expect(clock.pendingSleeps == [.seconds(3)])
        #expect(clock.now.offset == .seconds(2))

        clock.advance(by: .seconds(3))
        try await long.value
        #expect(clock.pendingSleeps.isEmpty)
        #expect(clock.sleepHistory == [.seconds(1), .seconds(5)] || clock.sleepHistory == [.seconds(5), .seconds(1)])
    }

    @Test func pastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3)))
        #expect(clock.pendingSleeps.isEmpty)
    }

    @Test func cancelledSleeperThrowsAndLeaves() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingSleeps.isEmpty)
    }
}
