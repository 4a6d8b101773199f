import Flickr
import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

@Suite("Thumbnails: from the database, or downloaded once", .timeLimit(.minutes(10)))
struct ThumbnailStoreTests {
    @Test func tenConcurrentRequestsAndAReopenDownloadOnce() async throws {
        try await SPoTFixture.run { fixture in
            let photoID = try #require(fixture.catalogue.first?.id)
            var spot: SPoT? = try fixture.open()
            await spot!.refresher.refresh()
            // Nothing downloads a thumbnail nobody asked to see: a refresh fetches none.
            #expect(fixture.sandbox.stats.imageRequests(photoID: photoID) == 0)
            let thumbnails = spot!.thumbnails
            // Every image answer waits for the sandbox's clock: the first download cannot end
            // before all ten callers are waiting, so they overlap for sure.
            fixture.sandbox.setBehavior(SandboxBehavior(imageLatencyMilliseconds: 1000))
            let results = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<10 { group.addTask { try await thumbnails.thumbnail(for: photoID) } }
                await thumbnails.waitForWaitingCallers(10)
                // Each download under way is held at the sandbox; let them all go at once.
                await fixture.sandboxClock.waitForSleepers(count: await thumbnails.downloadsStarted)
                fixture.sandboxClock.advance(by: .seconds(1))
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(await thumbnails.downloadsStarted == 1)
            #expect(results.count == 10)
            #expect(Set(results).count == 1)
            let bytes = try #require(results.first)
            #expect(bytes.starts(with: [0xFF, 0xD8]))
            #expect(fixture.sandbox.stats.imageRequests(photoID: photoID, suffix: "q") == 1)
            #expect(fixture.sandbox.stats.routes.keys.filter { $0.hasPrefix("image") }.count == 1)

            spot = nil
            let reopened = try fixture.open()
            #expect(try await reopened.thumbnails.thumbnail(for: photoID) == bytes)
            #expect(try await reopened.thumbnails.storedThumbnail(for: photoID) == bytes)
            #expect(fixture.sandbox.stats.imageRequests(photoID: photoID, suffix: "q") == 1)
            #expect(try await reopened.store.counts().thumbnails == 1)
        }
    }

    @Test(arguments: SandboxFault.allCases.filter(\.appliesToImages))
    func aFailedDownloadIsRetriedByTheNextRequest(fault: SandboxFault) async throws {
        try await SPoTFixture.run { fixture in
            let photoID = try #require(fixture.catalogue.first?.id)
            let spot = try fixture.open()
            await spot.refresher.refresh()
            fixture.sandbox.setBehavior(SandboxBehavior(nextFaults: [fault]))
            await #expect(throws: SPoTError.self) { try await spot.thumbnails.thumbnail(for: photoID) }
            #expect(try await spot.thumbnails.storedThumbnail(for: photoID) == nil)
            let data = try await spot.thumbnails.thumbnail(for: photoID)
            #expect(data.starts(with: [0xFF, 0xD8]))
            #expect(fixture.sandbox.stats.imageRequests(photoID: photoID, suffix: "q") == 2)
        }
    }

    @Test func anUnknownPhotoIsNotFound() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await #expect {
                try await spot.thumbnails.thumbnail(for: "../../etc/passwd")
            } throws: { error in
                (error as? SPoTError)?.kind == .photoNotFound
            }
            #expect(fixture.sandbox.stats.requests == 0)
        }
    }
}

@Suite("Large images through the file cache")
struct LargeImageTests {
    @Test func aLargeImageIsDownloadedOnceAndAnAbsentOriginalFallsBackToLarge() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let photo = try #require(fixture.catalogue.first { $0.originalSecret != nil })
            let first = try await spot.image(for: photo.id, format: .original)
            let second = try await spot.image(for: photo.id, format: .original)
            #expect(first == second)
            #expect(first.starts(with: [0xFF, 0xD8]))
            #expect(fixture.sandbox.stats.imageRequests(photoID: photo.id, suffix: "o") == 1)

            let noOriginal = try #require(fixture.catalogue.first { $0.originalSecret == nil })
            let fallback = try await spot.image(for: noOriginal.id, format: .original)
            #expect(fallback.starts(with: [0xFF, 0xD8]))
            #expect(fixture.sandbox.stats.imageRequests(photoID: noOriginal.id, suffix: "b") == 1)
            #expect(fixture.sandbox.stats.imageRequests(photoID: noOriginal.id, suffix: "o") == 0)
            #expect(try await spot.statistics().imageCacheFiles == 2)
            await #expect(throws: SPoTError.self) { try await spot.image(for: "nope", format: .large1024) }
        }
    }
}
