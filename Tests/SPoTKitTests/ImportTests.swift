import Flickr
import FlickrSandbox
import Foundation
import ObjectGraph
import Testing

@testable import SPoTKit

@Suite("Importing Flickr's photos into the store")
struct ImportTests {
    @Test func aRefreshImportsEveryPhotoAndASecondCreatesNoDuplicates() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open(perPage: 25)
            let first = await spot.refresher.refresh()
            #expect(first.lastError == nil)
            #expect(first.newPhotos == fixture.catalogue.count)
            #expect(first.pagesDone == (fixture.catalogue.count + 24) / 25)
            let second = await spot.refresher.refresh()
            #expect(second.newPhotos == 0)
            #expect(second.updatedPhotos == 0)
            let counts = try await spot.store.counts()
            #expect(counts.photos == fixture.catalogue.count)
            #expect(counts.spots == fixture.expectedSpotNames().count)
            #expect(counts.photographers == Set(fixture.catalogue.map(\.owner.nsid)).count)

            let spots = try await spot.store.spotList()
            let rows = await spots.snapshot().rows
            await spots.close()
            #expect(rows.first == SpotRow(id: "all", name: "All", photoCount: fixture.catalogue.count))
            #expect(Set(rows.dropFirst().map(\.id)) == fixture.expectedSpotNames())
            for row in rows.dropFirst() {
                let expected = fixture.catalogue.filter { ImportRules().spotNames(of: $0.tags).contains(row.id) }.count
                #expect(row.photoCount == expected, "\(row.id)")
            }
        }
    }

    @Test func photoFieldsFollowTheRules() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let rules = ImportRules()
            for source in fixture.catalogue {
                let detail = try await spot.store.photo(source.id)
                let flickr = FlickrPhoto(
                    id: source.id,
                    owner: "",
                    secret: "",
                    server: "",
                    title: source.title,
                    descriptionHTML: source.descriptionHTML
                )
                #expect(detail.row.title == rules.title(of: flickr))
                #expect(detail.row.subtitle == rules.subtitle(of: flickr))
                #expect(detail.row.sectionTitle == rules.sectionTitle(ofTitle: detail.row.title))
                #expect(detail.spots.first?.id == "all")
                #expect(Set(detail.spots.dropFirst().map(\.id)) == Set(rules.spotNames(of: source.tags)))
                #expect(detail.row.photographer == source.owner.name)
                #expect(detail.row.subtitle.firstMatch(of: /<\/?[a-zA-Z]/) == nil, "\(detail.row.subtitle)")
            }
        }
    }

    @Test func theTimelinesChangesAreApplied() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let before = fixture.catalogue
            let catalogue = SandboxCatalogue.stanford
            fixture.sandbox.setEpoch(catalogue.maxEpoch)
            let status = await spot.refresher.refresh()
            #expect(status.lastError == nil)
            let after = fixture.catalogue
            let added = after.filter { photo in !before.contains { $0.id == photo.id } }
            #expect(status.newPhotos == added.count)
            #expect(status.updatedPhotos == 1)  // the retitled photo
            // The edited title.
            let retitled = try #require(after.first { $0.title == "Memorial Church on Christmas Eve" })
            #expect(try await spot.store.photo(retitled.id).row.title == "Memorial Church on Christmas Eve")
            #expect(try await spot.store.photo(retitled.id).row.sectionTitle == "M")
            // The removed photo is kept.
            let removed = try #require(before.first { photo in !after.contains { $0.id == photo.id } })
            #expect(try await spot.store.photo(removed.id).row.title == removed.title)
            #expect(try await spot.store.counts().photos == before.count + added.count)
            // The new spot.
            #expect(try await spot.store.spot("windhover").photoCount == 1)
            #expect(try await spot.store.spot("WINDHOVER").name == "Windhover")
        }
    }

    @Test func allComesFirstWhateverTheOtherSpotsAreCalledAndAFlickrTagAllIsItsOwnSpot() async throws {
        let store = try SPoTStore(url: nil)
        try await store.importer.importPage([
            FlickrPhoto(id: "1", owner: "u1", secret: "s", server: "1", title: "Abattoir", tags: ["cs193pspot", "abattoir"]),
            FlickrPhoto(id: "2", owner: "u1", secret: "s", server: "1", title: "Everything", tags: ["all", "aardvark"]),
            FlickrPhoto(id: "3", owner: "u2", secret: "s", server: "1", title: "Zed", tags: ["ZZZ", "portrait"]),
        ])
        let list = try await store.spotList()
        let rows = await list.snapshot().rows
        await list.close()
        #expect(rows.map(\.id) == ["all", "aardvark", "abattoir", "tag:all", "zzz"])
        #expect(rows.map(\.name) == ["All", "Aardvark", "Abattoir", "All", "Zzz"])
        #expect(rows.map(\.photoCount) == [3, 1, 1, 1, 1])
        #expect(try await store.spot("all").photoCount == 3)
        #expect(try await store.spot("ALL").photoCount == 3)
        #expect(try await store.spot("tag:all").photoCount == 1)
        let flickrAll = try await store.photoList(spot: "tag:all")
        #expect(await flickrAll.snapshot().rows.map(\.id) == ["2"])
        await flickrAll.close()
        await #expect(throws: SPoTError.self) { try await store.spot("nowhere") }
    }

    @Test func reimportAppliesTagsAddedAndRemovedAndKeepsCountsRight() async throws {
        let store = try SPoTStore(url: nil)
        func page(_ tags: [String], title: String = "Hoover") -> [FlickrPhoto] {
            [FlickrPhoto(id: "7", owner: "u", secret: "s", server: "1", title: title, tags: tags)]
        }
        #expect(try await store.importer.importPage(page(["hoover", "dusk"])) == ImportCounts(new: 1))
        #expect(try await store.importer.importPage(page(["hoover", "dusk"])) == ImportCounts(unchanged: 1))
        #expect(try await store.importer.importPage(page(["hoover", "night"], title: "Hoover at night")) == ImportCounts(updated: 1))
        let detail = try await store.photo("7")
        #expect(detail.row.title == "Hoover at night")
        #expect(detail.spots.map(\.id) == ["all", "hoover", "night"])
        #expect(detail.row.spotTitle == "Hoover")
        #expect(try await store.spot("night").photoCount == 1)
        #expect(try await store.spot("dusk").photoCount == 0)
        let list = try await store.spotList()
        #expect(await list.snapshot().rows.map(\.id) == ["all", "hoover", "night"])
        await list.close()
    }

    @Test func aPageCostsOneQueryPerEntityNotOnePerPhoto() async throws {
        let log = StatementLog()
        try await TemporaryDirectory.with { directory in
            let store = try SPoTStore(url: directory.appending("spot.sqlite"), statementObserver: log.observer)
            func page(_ range: Range<Int>, suffix: String = "") -> [FlickrPhoto] {
                range.map { number in
                    FlickrPhoto(
                        id: "\(number)",
                        owner: "owner\(number % 7)",
                        secret: "s",
                        server: "1",
                        title: "Photo \(number)\(suffix)",
                        ownerName: "Owner \(number % 7)",
                        tags: ["cs193pspot", "spot\(number % 11)", "extra\(number % 3)"]
                    )
                }
            }
            for (photos, expectedCounts) in [
                (page(0..<50), ImportCounts(new: 50)), (page(0..<50), ImportCounts(unchanged: 50)),
                (page(0..<100, suffix: "!"), ImportCounts(new: 50, updated: 50)),
            ] {
                log.reset()
                #expect(try await store.importer.importPage(photos) == expectedCounts)
                let photoQueries = log.selects.filter { $0.contains("FROM ZPHOTO") || $0.contains("FROM \"ZPHOTO\"") }
                // One query finds the page's photos; new photos and photos whose tags did not
                // change never load their spots one by one.
                #expect(photoQueries.count <= 2, "\(photoQueries.joined(separator: "\n"))")
                // One query each for the page's spots, photographers and photos; the rest are
                // key reservations (one per entity per range of keys, never per photo).
                let entityQueries = log.selects.filter { !$0.contains("Z_PRIMARYKEY") }
                #expect(entityQueries.count == 3, "\(entityQueries.count) SELECTs for \(photos.count) photos: \(entityQueries)")
                #expect(log.selects.count <= 8)
            }
        }
    }
}
