import Flickr
import FlickrSandbox
import Testing

/// Transient failures are retried with exponential backoff and jitter, on the client's
/// clock, a bounded number of times.
@Suite(.timeLimit(.minutes(10))) struct FlickrClientRetryTests {
    let policy = FlickrRetryPolicy(maxAttempts: 4, initialDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(30), jitter: 0.5)

    /// The delays the client must sleep, computed with the same seeded generator.
    func expectedDelays(seed: UInt64, count: Int) -> [Duration] {
        var random = SplitMix64(seed: seed)
        return (1...count).map { policy.delay(beforeRetry: $0, using: &random) }
    }

    @Test func transientFailuresAreRetriedUntilSuccessWithComputedBackoff() async throws {
        let faults: [SandboxFault] = [.http503, .serviceUnavailable, .http500]
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: faults), retryPolicy: policy, seed: 42) { harness in
            let call = Task { try await harness.client.photos(.tagged(), perPage: 5) }
            await harness.advanceThroughSleeps(of: call, sleeps: 3)
            let page = try await call.value
            #expect(page.photos.count == 5)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == 4)
            #expect(harness.sandbox.stats.faults == ["http503": 1, "serviceUnavailable": 1, "http500": 1])
            let delays = harness.clientClock.sleepHistory
            #expect(delays == expectedDelays(seed: 42, count: 3))
            for (index, delay) in delays.enumerated() {
                let base = Duration.seconds(1 << index)
                #expect(delay <= base && delay >= base / 2, "retry \(index + 1): \(delay) within the jitter band")
            }
            #expect(delays[2] > delays[0], "backoff grows")
        }
    }

    @Test func retriesAreBoundedByMaxAttempts() async throws {
        let behavior = SandboxBehavior(nextFaults: Array(repeating: .http503, count: 6))
        let bounded = FlickrRetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), jitter: 0.5)
        try await SandboxHarness.run(behavior: behavior, retryPolicy: bounded) { harness in
            let call = Task { try await harness.client.echo() }
            await harness.advanceThroughSleeps(of: call, sleeps: 2)
            let error = try await #require(throws: FlickrError.self) { try await call.value }
            #expect(error.httpStatus == 503)
            #expect(error.attempts == 3)
            #expect(error.description.contains("after 3 attempts"))
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 3)
            #expect(harness.clientClock.sleepHistory.count == 2)
            #expect(harness.sandbox.behavior.nextFaults.count == 3, "three scripted failures never reached")
        }
    }

    @Test func droppedConnectionAndTimeoutAreRetried() async throws {
        // A dropped connection: the second attempt answers.
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.dropConnection]), retryPolicy: policy) { harness in
            let call = Task { try await harness.client.echo() }
            await harness.advanceThroughSleeps(of: call, sleeps: 1)
            let echoed = try await call.value
            #expect(echoed["method"] == "flickr.test.echo")
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 2)
            #expect(harness.sandbox.stats.faults == ["dropConnection": 1])
        }
        // A timeout: the sandbox holds the first answer (its clock never moves for it), the
        // client's clock runs out the 10 s timeout, and the retry gets an answer.
        let held = SandboxBehavior(restLatencyMilliseconds: 60_000)
        try await SandboxHarness.run(behavior: held, retryPolicy: policy, requestTimeout: .seconds(10), seed: 7) { harness in
            let call = Task { try await harness.client.echo() }
            await harness.sandboxClock.waitForSleepers(count: 1)  // the request is held at the sandbox
            await harness.clientClock.waitForSleepers(count: 1)  // the timeout runs on the client's clock
            #expect(harness.clientClock.pendingSleeps == [.seconds(10)])
            harness.sandbox.setBehavior(SandboxBehavior())  // the retry is answered at once
            harness.clientClock.advance(by: .seconds(10))
            // Timed out: the client backs off, then tries again.
            await harness.clientClock.waitForSleepers(count: 1)
            let backoff = try #require(harness.clientClock.pendingSleeps.first, "no backoff after the timeout: not retried")
            #expect(backoff == expectedDelays(seed: 7, count: 1)[0])
            harness.clientClock.advance(by: backoff)
            let echoed = try await call.value
            #expect(echoed["method"] == "flickr.test.echo")
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 2)
            // The timeout, the backoff, and the second attempt's timeout (which never fired).
            #expect(harness.clientClock.sleepHistory == [.seconds(10), backoff, .seconds(10)])
            harness.sandboxClock.advance(by: .seconds(60))  // lets the abandoned first answer go
        }
    }

    @Test func malformedJSONIsNotRetried() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.malformedJSON]), retryPolicy: policy) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.kind == .malformedResponse)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == 1)
            #expect(harness.clientClock.sleepHistory.isEmpty)
        }
    }

    @Test func backoffIsCappedAndJitterStaysInItsBand() {
        let capped = FlickrRetryPolicy(maxAttempts: 20, initialDelay: .milliseconds(500), multiplier: 2, maxDelay: .seconds(8), jitter: 0.25)
        #expect(capped.delay(beforeRetry: 1, randomUnit: 0) == .milliseconds(500))
        #expect(capped.delay(beforeRetry: 2, randomUnit: 0) == .seconds(1))
        #expect(capped.delay(beforeRetry: 10, randomUnit: 0) == .seconds(8))
        #expect(capped.delay(beforeRetry: 10, randomUnit: 0.999_999) > .seconds(6))
        #expect(capped.delay(beforeRetry: 10, randomUnit: 1) == .seconds(6))
        #expect(FlickrRetryPolicy.none.maxAttempts == 1)
    }
}
