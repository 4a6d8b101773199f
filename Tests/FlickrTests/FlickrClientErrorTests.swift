import Flickr
import FlickrSandbox
import Foundation
import Testing

/// Each way the sandbox misbehaves reaches the caller as the right ``FlickrError``.
@Suite(.timeLimit(.minutes(10))) struct FlickrClientErrorTests {
    @Test func missingKeyIsError100() async throws {
        try await SandboxHarness.run(apiKey: FlickrAPIKey("")) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.echo() }
            #expect(error.kind == .api)
            #expect(error.flickrCode == 100)
            #expect(error.flickrMessage == "Invalid API Key (Key has invalid format)")
        }
    }

    @Test func unknownKeyIsError100AndNotRetried() async throws {
        try await SandboxHarness.run(acceptedAPIKeys: ["the-real-key"], retryPolicy: .default) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.flickrCode == 100)
            #expect(error.flickrMessage == "Invalid API Key (Key not found)")
            #expect(error.attempts == 1)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == 1)
            #expect(harness.clientClock.sleepHistory.isEmpty)
        }
    }

    @Test func unknownMethodIsError112() async throws {
        try await SandboxHarness.run { harness in
            let query = FlickrPhotoQuery(method: "flickr.photos.doesNotExist", parameters: [:])
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(query) }
            #expect(error.kind == .api)
            #expect(error.flickrCode == 112)
            #expect(error.flickrMessage == #"Method "flickr.photos.doesNotExist" not found"#)
            #expect(error.request == "flickr.photos.doesNotExist")
        }
    }

    @Test func parameterlessSearchIsError3() async throws {
        try await SandboxHarness.run { harness in
            let query = FlickrPhotoQuery(method: "flickr.photos.search", parameters: [:])
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(query) }
            #expect(error.flickrCode == 3)
        }
    }

    @Test(arguments: [(SandboxFault.http500, 500), (.http503, 503)])
    func httpErrorsCarryTheStatusAndAnExcerpt(fault: SandboxFault, status: Int) async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [fault])) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.kind == .httpStatus)
            #expect(error.httpStatus == status)
            #expect(error.isRetryable)
            #expect(error.bodyExcerpt?.contains("<h1>\(status)") == true)
        }
    }

    @Test func serviceUnavailableIsError105() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.serviceUnavailable])) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.kind == .api)
            #expect(error.flickrCode == 105)
            #expect(error.flickrMessage == "Service currently unavailable")
            #expect(error.isRetryable)
        }
    }

    @Test func malformedJSONIsReportedWithTheStartOfTheBody() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.malformedJSON])) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.kind == .malformedResponse)
            #expect(error.bodyExcerpt?.hasPrefix(#"{"photos":{"page":1,"#) == true)
            #expect(!error.isRetryable)
        }
    }

    @Test func droppedConnectionIsAConnectionError() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.dropConnection])) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.echo() }
            #expect(error.kind == .connection)
            #expect(error.isRetryable)
            // The next call works on a fresh connection.
            let echoed = try await harness.client.echo()
            #expect(echoed["method"] == "flickr.test.echo")
        }
    }

    @Test func slowAnswerTimesOutOnTheClientsClock() async throws {
        try await SandboxHarness.run(
            behavior: SandboxBehavior(restLatencyMilliseconds: 60_000),
            requestTimeout: .seconds(10)
        ) { harness in
            let call = Task { try await harness.client.echo() }
            await harness.sandboxClock.waitForSleepers(count: 1)  // the request reached the sandbox
            await harness.clientClock.waitForSleepers(count: 1)  // the timeout is armed
            #expect(harness.clientClock.pendingSleeps == [.seconds(10)])
            harness.clientClock.advance(by: .seconds(10))
            let error = try await #require(throws: FlickrError.self) { try await call.value }
            #expect(error.kind == .timeout)
            #expect(error.isRetryable)
            harness.sandboxClock.advance(by: .seconds(60))
        }
    }

    @Test func sandboxLatencyRunsOnItsInjectedClock() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(restLatencyMilliseconds: 250)) { harness in
            let call = Task { try await harness.client.echo() }
            await harness.sandboxClock.waitForSleepers(count: 1)
            #expect(harness.sandboxClock.pendingSleeps == [.milliseconds(250)])
            #expect(harness.sandbox.stats.restCalls("flickr.test.echo") == 1)
            harness.sandboxClock.advance(by: .milliseconds(250))
            let echoed = try await call.value
            #expect(echoed["method"] == "flickr.test.echo")
        }
    }
}
