import Flickr
import FlickrSandbox
import Testing

/// The client keeps a key under Flickr's 3,600 calls per hour.
@Suite(.timeLimit(.minutes(10))) struct FlickrRateLimitTests {
    @Test func flickrDefaultNeverExceeds3600CallsInAnyHour() {
        var limiter = RateLimiterState(limit: .flickr)
        // A greedy caller asks for 8,000 calls at once; record when each may start.
        let starts = (0..<8000).map { _ in limiter.reserve(at: .zero) }
        #expect(starts.prefix(60).allSatisfy { $0 == .zero }, "a burst of 60 goes at once")
        #expect(starts[60] > .zero)
        // Any 3,601 consecutive starts span at least an hour, so no hour holds more than 3,600.
        for index in 0..<(starts.count - 3600) {
            #expect(starts[index + 3600] - starts[index] >= .seconds(3600))
        }
        // And the limiter is not needlessly slow: 3,599 calls fit in the first hour.
        #expect(starts[3598] < .seconds(3600))
    }

    @Test func aSteadyCallerIsNotDelayed() {
        var limiter = RateLimiterState(limit: .flickr)
        for second in 0..<500 {
            let now = Duration.seconds(second * 2)
            #expect(limiter.reserve(at: now) == now)
        }
    }

    @Test func clientWaitsOnItsClockWhenTheBurstIsSpent() async throws {
        let limit = FlickrRateLimit(requests: 4, per: .seconds(4), burst: 2)
        #expect(limit.spacing == .seconds(2))
        try await SandboxHarness.run(rateLimit: limit) { harness in
            _ = try await harness.client.echo()
            _ = try await harness.client.echo()
            #expect(harness.clientClock.sleepHistory.isEmpty, "the burst went through at once")

            let third = Task { try await harness.client.echo() }
            await harness.clientClock.waitForSleepers(count: 1)
            #expect(harness.clientClock.pendingSleeps == [.seconds(2)])
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 2, "the third call has not been sent")

            harness.clientClock.advance(by: .seconds(2))
            _ = try await third.value
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 3)
        }
    }

    @Test func imageDownloadsAreNotRateLimited() async throws {
        try await SandboxHarness.run(rateLimit: FlickrRateLimit(requests: 2, per: .seconds(3600), burst: 1)) { harness in
            let page = try await harness.client.photos(.tagged(), perPage: 3)
            let photo = try #require(page.photos.first)
            for _ in 0..<3 {
                _ = try? await harness.client.imageData(for: photo, format: .square75)
            }
            #expect(harness.sandbox.stats.imageRequests(photoID: photo.id, suffix: "s") == 3)
            #expect(harness.clientClock.sleepHistory.isEmpty)
        }
    }
}
