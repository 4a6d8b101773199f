import Flickr
import FlickrSandbox
import Foundation
import Testing

/// Image downloads from the sandbox: real JPEGs at Flickr's sizes, and every way a download
/// can go wrong. (These need the real postcard renderer: the stub renders no bytes.)
@Suite(.timeLimit(.minutes(10))) struct FlickrClientImageTests {
    func somePhoto(_ harness: SandboxHarness, where predicate: (FlickrPhoto) -> Bool = { _ in true }) async throws -> FlickrPhoto {
        let photos = try await harness.client.allPhotos(.tagged(), perPage: 500)
        let match = photos.first(where: predicate)
        return try #require(match)
    }

    @Test func squaresAndLargeSizesAreJPEGsOfFlickrsPixelSizes() async throws {
        try await SandboxHarness.run { harness in
            let landscape = try await somePhoto(harness) { $0.tags.contains("landscape") }
            let square = try await harness.client.imageData(for: landscape, format: .square75)
            #expect(JPEGInfo.isComplete(square), "a complete JPEG (FFD8…FFD9)")
            #expect(JPEGInfo(square) == JPEGInfo(width: 75, height: 75))
            let large = try await harness.client.imageData(for: landscape, format: .large1024)
            #expect(JPEGInfo(large) == JPEGInfo(width: 1024, height: 768))
            let portrait = try await somePhoto(harness) { $0.tags.contains("portrait") }
            let medium = try await harness.client.imageData(for: portrait, format: .medium640)
            #expect(JPEGInfo(medium) == JPEGInfo(width: 480, height: 640))
            #expect(harness.sandbox.stats.imageRequests(photoID: landscape.id, suffix: "s") == 1)
            #expect(harness.sandbox.stats.imageRequests(photoID: landscape.id, suffix: "b") == 1)
        }
    }

    @Test func everyRequestIsCountedPerPhotoAndSize() async throws {
        try await SandboxHarness.run { harness in
            let photo = try await somePhoto(harness)
            _ = try? await harness.client.imageData(for: photo, format: .square150)
            _ = try? await harness.client.imageData(for: photo, format: .square150)
            #expect(harness.sandbox.stats.imageRequests(photoID: photo.id, suffix: "q") == 2)
            #expect(harness.sandbox.stats.routes["image q"] == 2)
            harness.sandbox.resetStats()
            #expect(harness.sandbox.stats.imageRequests(photoID: photo.id) == 0)
            #expect(harness.sandbox.stats.requests == 0)
        }
    }

    @Test func wrongSecretIs404() async throws {
        try await SandboxHarness.run(retryPolicy: .default) { harness in
            var photo = try await somePhoto(harness)
            photo.secret = "0000000000"
            let error = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: photo, format: .square75)
            }
            #expect(error.kind == .httpStatus)
            #expect(error.httpStatus == 404)
            #expect(error.attempts == 1, "a 404 is not retried")
        }
    }

    @Test func truncatedImageIsDetectedAndRetried() async throws {
        try await SandboxHarness.run { harness in
            let photo = try await somePhoto(harness)
            harness.sandbox.setBehavior(SandboxBehavior(nextFaults: [.truncatedImage]))
            let error = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: photo, format: .small240)
            }
            #expect(error.kind == .truncatedImage)
        }
        try await SandboxHarness.run(behavior: SandboxBehavior(nextFaults: [.truncatedImage]), retryPolicy: .default) { harness in
            let photo = try await somePhoto(harness)
            let download = Task { try await harness.client.imageData(for: photo, format: .small240) }
            await harness.advanceThroughSleeps(of: download, sleeps: 1)
            let bytes = try await download.value
            #expect(JPEGInfo.isComplete(bytes))
            #expect(harness.sandbox.stats.imageRequests(photoID: photo.id, suffix: "m") == 2)
        }
    }

    @Test func imageFaultsMapToTheirErrors() async throws {
        try await SandboxHarness.run { harness in
            let photo = try await somePhoto(harness)
            harness.sandbox.setBehavior(SandboxBehavior(nextFaults: [.http503, .dropConnection]))
            let unavailable = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: photo, format: .square75)
            }
            #expect(unavailable.httpStatus == 503)
            let dropped = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: photo, format: .square75)
            }
            #expect(dropped.kind == .connection)
        }
    }

    @Test func slowImagesWaitOnTheSandboxClock() async throws {
        try await SandboxHarness.run(behavior: SandboxBehavior(imageLatencyMilliseconds: 5_000)) { harness in
            let photo = try await somePhoto(harness)
            let download = Task { try await harness.client.imageData(for: photo, format: .square75) }
            await harness.sandboxClock.waitForSleepers(count: 1)
            #expect(harness.sandboxClock.pendingSleeps == [.seconds(5)])
            harness.sandboxClock.advance(by: .seconds(5))
            #expect(JPEGInfo.isComplete(try await download.value))
        }
    }

    @Test func nonImageContentIsRefused() async throws {
        try await SandboxHarness.run { harness in
            let url = harness.baseURL.appendingPathComponent("__sandbox/stats")
            let error = try await #require(throws: FlickrError.self) { try await harness.client.imageData(at: url) }
            #expect(error.kind == .unexpectedContentType)
            #expect(error.detail?.contains("application/json") == true)
        }
    }

    @Test func oversizedImageIsRefused() async throws {
        try await SandboxHarness.run(maxImageBytes: 200) { harness in
            let photo = try await somePhoto(harness)
            let error = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: photo, format: .large1024)
            }
            #expect(error.kind == .tooLarge)
        }
    }

    @Test func otherHostsAndMissingSecretsAreRefusedWithoutARequest() async throws {
        try await SandboxHarness.run { harness in
            let error = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(at: URL(string: "https://example.com/65535/1_abc_q.jpg")!)
            }
            #expect(error.kind == .hostNotAllowed)
            let hidden = try await somePhoto(harness) { $0.originalSecret == nil }
            let unavailable = try await #require(throws: FlickrError.self) {
                try await harness.client.imageData(for: hidden, format: .original)
            }
            #expect(unavailable.kind == .formatUnavailable)
            #expect(harness.sandbox.stats.routes.keys.allSatisfy { !$0.hasPrefix("image") })
        }
    }
}
