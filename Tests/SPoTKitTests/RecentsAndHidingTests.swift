import Flickr
import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

@Suite("Recents and hiding")
struct RecentsAndHidingTests {
    @Test func recentsKeepTwentyMostRecentFirstAcrossARestart() async throws {
        try await SPoTFixture.run { fixture in
            var spot: SPoT? = try fixture.open()
            await spot!.refresher.refresh()
            let ids = fixture.catalogue.prefix(25).map(\.id)
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            for (offset, id) in ids.enumerated() {
                try await spot!.store.markViewed(id, at: start.addingTimeInterval(Double(offset)))
            }
            // Viewing again moves a photo to the top without duplicating it.
            try await spot!.store.markViewed(ids[10], at: start.addingTimeInterval(100))
            spot = nil
            let reopened = try fixture.open()
            let list = try await reopened.store.recentList()
            let rows = await list.snapshot().rows
            await list.close()
            let expected = [ids[10]] + ids[5..<25].reversed().filter { $0 != ids[10] }
            #expect(rows.map(\.id) == Array(expected.prefix(20)))
            #expect(rows.count == 20)
            #expect(try await reopened.store.counts().recents == 20)
        }
    }

    @Test func concurrentHidesKeepEveryCountRight() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let before = try await spot.store.counts()
            let hidden = Array(fixture.catalogue.prefix(24).map(\.id))
            // 24 writers at once, sharing spots and photographers: each reads a count and writes
            // it back. A conflict starts a writer over, so no decrement is lost.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in hidden { group.addTask { try await spot.store.hide(id) } }
                try await group.waitForAll()
            }
            let spots = try await spot.store.spotList()
            let rows = await spots.snapshot().rows
            await spots.close()
            #expect(rows.first?.photoCount == fixture.catalogue.count - hidden.count, "All")
            let rules = ImportRules()
            for row in rows.dropFirst() {
                let visible = fixture.catalogue.filter { !hidden.contains($0.id) && rules.spotNames(of: $0.tags).contains(row.id) }
                #expect(row.photoCount == visible.count, "spot \(row.id)")
            }
            #expect(try await spot.store.counts().photos == before.photos)
        }
    }

    @Test func hidingRemovesAPhotoFromEveryListAndCountAndARefreshKeepsItHidden() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            // A spot with a single photo: hiding that photo makes the spot disappear.
            let rules = ImportRules()
            let spotNames = fixture.catalogue.flatMap { rules.spotNames(of: $0.tags) }
            let lonely = try #require(fixture.expectedSpotNames().sorted().first { name in spotNames.filter { $0 == name }.count == 1 })
            let photo = try #require(fixture.catalogue.first { rules.spotNames(of: $0.tags).contains(lonely) })
            try await spot.store.markViewed(photo.id)

            let spots = try await spot.store.spotList()
            let all = try await spot.store.photoList(spot: "all")
            let recents = try await spot.store.recentList()
            let photographer = try await spot.store.photographer(photo.owner.nsid)
            try await spot.store.hide(photo.id)

            #expect(await spots.snapshot().rows.first?.photoCount == fixture.catalogue.count - 1)
            #expect(await !spots.snapshot().rows.contains { $0.id == lonely })
            #expect(await !all.snapshot().rows.contains { $0.id == photo.id })
            #expect(await recents.snapshot().rows.isEmpty)
            #expect(try await spot.store.photographer(photo.owner.nsid).photoCount == photographer.photoCount - 1)
            let search = try await spot.store.searchList(try await spot.store.photo(photo.id).row.title)
            #expect(await !search.snapshot().rows.contains { $0.id == "photo:" + photo.id })
            await search.close()

            let status = await spot.refresher.refresh()
            #expect(status.lastError == nil)
            #expect(try await spot.store.photo(photo.id).isHidden)
            #expect(await !all.snapshot().rows.contains { $0.id == photo.id })
            #expect(try await spot.store.counts().hiddenPhotos == 1)

            try await spot.store.unhide(photo.id)
            #expect(await all.snapshot().rows.contains { $0.id == photo.id })
            #expect(await spots.snapshot().rows.contains { $0.id == lonely && $0.photoCount == 1 })
            #expect(await spots.snapshot().rows.first?.photoCount == fixture.catalogue.count)
            #expect(await recents.snapshot().rows.map(\.id) == [photo.id])
            for list in [spots] { await list.close() }
            await all.close()
            await recents.close()
        }
    }

    @Test func hidingAnUnknownPhotoSaysSo() async throws {
        let store = try SPoTStore(url: nil)
        await #expect {
            try await store.hide("12345")
        } throws: { error in
            (error as? SPoTError)?.kind == .photoNotFound && "\(error)".contains("12345")
        }
    }
}
