import Flickr
import FlickrSandbox
import Foundation
import Testing

/// The API key never shows in descriptions, errors or logs.
@Suite(.timeLimit(.minutes(10))) struct FlickrAPIKeyRedactionTests {
    static let secretKey = "f00dfeed0123456789abcdefcafe4242"

    @Test func keyIsRedactedInEveryDescription() {
        let key = FlickrAPIKey(Self.secretKey)
        var dumped = ""
        dump(key, to: &dumped)
        let configuration = FlickrConfiguration(apiKey: key)
        for text in ["\(key)", String(reflecting: key), dumped, "\(configuration)", String(reflecting: configuration)] {
            #expect(!text.contains(Self.secretKey), "leaked in: \(text)")
        }
        #expect("\(key)" == "FlickrAPIKey(<redacted>)")
        #expect(key.value == Self.secretKey, "the value is still there for requests")
    }

    @Test func keyComesFromTheEnvironment() {
        #expect(FlickrAPIKey(environment: ["FLICKR_API_KEY": "  abc123 \n"])?.value == "abc123")
        #expect(FlickrAPIKey(environment: ["FLICKR_API_KEY": "  "]) == nil)
        #expect(FlickrAPIKey(environment: [:]) == nil)
        #expect(FlickrConfiguration.fromEnvironment([:]) == nil)
        #expect(FlickrConfiguration.fromEnvironment(["FLICKR_API_KEY": "abc123"])?.restEndpoint.host == "api.flickr.com")
    }

    @Test func errorsAndLogsNeverContainTheKey() async throws {
        let capture = LogCapture()
        // The echo body carries the key back; cutting it in half makes it the error's excerpt.
        let behavior = SandboxBehavior(nextFaults: [.http503, .malformedJSON])
        try await SandboxHarness.run(
            behavior: behavior,
            apiKey: FlickrAPIKey(Self.secretKey),
            retryPolicy: FlickrRetryPolicy(maxAttempts: 2),
            logger: capture.logger()
        ) { harness in
            let call = Task { try await harness.client.echo(["padding": String(repeating: "x", count: 40)]) }
            await harness.advanceThroughSleeps(of: call, sleeps: 1)
            let error = try await #require(throws: FlickrError.self) { try await call.value }
            #expect(error.kind == .malformedResponse)
            let excerpt = try #require(error.bodyExcerpt)
            #expect(excerpt.contains(#""api_key":{"_content":"<redacted>"}"#), "the excerpt shows where the key was")
            for text in [error.description, String(reflecting: error), excerpt] {
                #expect(!text.contains(Self.secretKey))
            }
            let lines = capture.all
            #expect(lines.count >= 3, "requests, the retry and the failure were logged")
            #expect(lines.contains { $0.contains("retried") })
            for line in lines {
                #expect(!line.contains(Self.secretKey), "leaked in log: \(line)")
            }
        }
    }

    @Test func wrongKeyErrorDoesNotRepeatTheKey() async throws {
        try await SandboxHarness.run(acceptedAPIKeys: ["another"], apiKey: FlickrAPIKey(Self.secretKey)) { harness in
            let error = try await #require(throws: FlickrError.self) { try await harness.client.photos(.tagged()) }
            #expect(error.flickrCode == 100)
            #expect(!error.description.contains(Self.secretKey))
        }
    }
}
