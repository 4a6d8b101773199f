import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SPoTWeb

@Suite("List pages: rendered once per list version, 304 while unchanged")
struct ListPageCacheTests {
    @Test func anUnchangedListAnswers304AndAChangedOneItsNewContent() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let first = try await client.get("/tags/hoovertower")
                #expect(first.status == .ok)
                let etag = try #require(first.headers[.eTag])
                #expect(first.body.contains(#"<p class="list-status" role="status" hidden>"#), "no problem to report")

                let again = try await client.get("/tags/hoovertower", headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                #expect(again.body.isEmpty)
                #expect(again.headers[.eTag] == etag)
                let unconditional = try await client.get("/tags/hoovertower")
                #expect(unconditional.body == first.body, "the same version renders the same page")

                let ids = photoIDs(first.body)
                let hidden = try #require(ids.first)
                try await fixture.spot.store.hide(hidden)
                let changed = try await client.get("/tags/hoovertower", headers: [.ifNoneMatch: etag])
                #expect(changed.status == .ok)
                #expect(changed.headers[.eTag] != etag)
                #expect(photoIDs(changed.body) == Array(ids.dropFirst()))

                // Another list's tag never matches.
                #expect(try await client.get("/recents", headers: [.ifNoneMatch: etag]).status == .ok)
            }
        }
    }

    @Test func aRefreshThatChangesTheStatusChangesThePage() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let first = try await client.get("/")
                let etag = try #require(first.headers[.eTag])
                fixture.sandbox.setEpoch(1)
                await fixture.spot.refresher.refresh()
                let after = try await client.get("/", headers: [.ifNoneMatch: etag])
                #expect(after.status == .ok, "new spots or counts, and a new refresh count")
                #expect(after.headers[.eTag] != etag)
            }
        }
    }
}
