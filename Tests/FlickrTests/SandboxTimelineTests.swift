import AsyncHTTPClient
import Flickr
import FlickrSandbox
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Stepping the sandbox's timeline changes what the client sees: new photos, an edited
/// title, a deleted photo, a new spot.
@Suite(.timeLimit(.minutes(10))) struct SandboxTimelineTests {
    @Test func eachEpochChangesWhatSearchesReturn() async throws {
        try await SandboxHarness.run { harness in
            let client = harness.client
            let start = try await client.allPhotos(.tagged(), perPage: 500)
            let startIDs = Set(start.map(\.id))
            let renamed = try #require(start.first { $0.title == "IMG_4021" })
            let doomed = try #require(start.first { $0.title == "Stadium from the top row" })
            #expect(start.count >= 60)

            #expect(harness.sandbox.advanceEpoch() == 1)
            let afterUploads = try await client.allPhotos(.tagged(), perPage: 500)
            let added = afterUploads.filter { !startIDs.contains($0.id) }
            #expect(Set(added.map(\.title)) == ["Hoover Tower, new year", "Dish at dawn", "Lagunita is full!"])
            #expect(afterUploads.prefix(3).map(\.id) == added.map(\.id), "new uploads come first, newest first")

            harness.sandbox.advanceEpoch()
            let afterEdit = try await client.allPhotos(.tagged(), perPage: 500)
            #expect(afterEdit.first { $0.id == renamed.id }?.title == "Memorial Church on Christmas Eve")

            harness.sandbox.advanceEpoch()
            let afterDelete = try await client.allPhotos(.tagged(), perPage: 500)
            #expect(!afterDelete.contains { $0.id == doomed.id })
            #expect(afterDelete.count == afterEdit.count - 1)
            let gone = try await #require(throws: FlickrError.self) {
                try await client.imageData(for: doomed, format: .square75)
            }
            #expect(gone.httpStatus == 404, "a deleted photo's images are gone too")

            #expect(harness.sandbox.advanceEpoch() == harness.sandbox.maxEpoch)
            let newSpot = try await client.allPhotos(.tagged("windhover"))
            #expect(newSpot.map(\.title) == ["Windhover"])
            #expect(harness.sandbox.advanceEpoch() == harness.sandbox.maxEpoch, "the timeline stops at its end")
        }
    }

    @Test func adminEndpointAdvancesAndResetsTheTimeline() async throws {
        try await SandboxHarness.run { harness in
            let before = try await harness.client.photos(.tagged(), perPage: 1).total
            var request = HTTPClientRequest(url: harness.baseURL.absoluteString + "/__sandbox/timeline/advance")
            request.method = .POST
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 200)
            let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
            #expect(body.contains(#""epoch":1"#))
            #expect(try await harness.client.photos(.tagged(), perPage: 1).total == before + 3)

            request = HTTPClientRequest(url: harness.baseURL.absoluteString + "/__sandbox/timeline/reset")
            request.method = .POST
            _ = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(harness.sandbox.epoch == 0)
            #expect(try await harness.client.photos(.tagged(), perPage: 1).total == before)
        }
    }
}
