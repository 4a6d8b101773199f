import Flickr
import FlickrSandbox
import Testing

/// Paging follows `pages` to the end, one request per page.
@Suite(.timeLimit(.minutes(10))) struct FlickrClientPagingTests {
    @Test func allPhotosFollowsPagesToTheEnd() async throws {
        try await SandboxHarness.run { harness in
            let first = try await harness.client.photos(.tagged(), page: 1, perPage: 10)
            #expect(first.pages == (first.total + 9) / 10)
            #expect(first.pages >= 7)
            harness.sandbox.resetStats()

            let photos = try await harness.client.allPhotos(.tagged(), perPage: 10)
            #expect(photos.count == first.total)
            #expect(Set(photos.map(\.id)).count == photos.count)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == first.pages)
            let dates = photos.compactMap(\.uploadDate)
            #expect(dates == dates.sorted(by: >), "newest first, as Flickr sorts by default")
        }
    }

    @Test func pagesSequenceYieldsEveryPageInOrderAndStops() async throws {
        try await SandboxHarness.run { harness in
            var numbers: [Int] = []
            var count = 0
            var last: FlickrPhotoPage?
            for try await page in harness.client.pages(of: .stanfordSpots(), perPage: 7) {
                numbers.append(page.page)
                count += page.photos.count
                last = page
            }
            let final = try #require(last)
            #expect(numbers == Array(1...final.pages))
            #expect(!final.hasMore)
            #expect(count == final.total)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == final.pages)
        }
    }

    @Test func userSearchReturnsOnlyThatUsersPhotos() async throws {
        try await SandboxHarness.run { harness in
            let mine = try await harness.client.allPhotos(.stanfordSpots())
            let tagged = try await harness.client.allPhotos(.tagged())
            #expect(mine.count >= 20)
            #expect(mine.allSatisfy { $0.owner == FlickrPhotoQuery.stanfordUserID })
            #expect(tagged.contains { $0.owner != FlickrPhotoQuery.stanfordUserID })
            #expect(tagged.allSatisfy { $0.tags.contains { $0.lowercased() == "cs193pspot" } })
            #expect(mine.contains { photo in !photo.tags.contains("cs193pspot") }, "the user searches and the tag search differ")
        }
    }

    @Test func perPageIsClampedToFlickrsMaximum() async throws {
        try await SandboxHarness.run { harness in
            let photos = try await harness.client.allPhotos(.tagged(), perPage: 10_000)
            let page = try await harness.client.photos(.tagged(), perPage: 10_000)
            #expect(page.perPage == 500)
            #expect(photos.count == page.total)
            #expect(harness.sandbox.stats.restCalls("flickr.photos.search") == 2)
        }
    }

    @Test func recentGeoreferencedPhotosAllHaveAPlace() async throws {
        try await SandboxHarness.run { harness in
            let photos = try await harness.client.allPhotos(.recentGeoreferenced(), perPage: 25)
            let everything = try await harness.client.allPhotos(.tagged(), perPage: 500)
            #expect(!photos.isEmpty)
            #expect(photos.allSatisfy { $0.coordinate != nil })
            #expect(Set(everything.filter { $0.coordinate != nil }.map(\.id)).isSubset(of: Set(photos.map(\.id))))
            #expect(everything.contains { $0.coordinate == nil }, "some photos have no place and are left out")
        }
    }
}
