import Flickr
import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

@Suite("Live lists: sections, rows and change sets")
struct LiveListTests {
    @Test func aBackgroundRefreshInsertsRowsIntoAnOpenList() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let list = try await spot.store.photoList(spot: "hoovertower")
            var follower = await ChangeFollower(list)
            let snapshot = follower.snapshot
            let before = snapshot.rows.count
            #expect(before > 0)
            #expect(snapshot.sections.map(\.name) == snapshot.sections.map(\.name).sorted())

            fixture.sandbox.setEpoch(1)  // three new photos, one of them at Hoover Tower
            let refresh = Task { await spot.refresher.refresh() }
            let (change, after) = try await follower.next()
            #expect(change.version == snapshot.version + 1)
            #expect(change.reload == nil)
            #expect(change.insertedRows.count == 1)
            #expect(change.deletedRows.isEmpty)
            // Spot counts changed in the same save; the photo rows did not.
            #expect(change.updatedRows.isEmpty, "\(change.updatedRows.map(\.row.title))")
            let inserted = try #require(change.insertedRows.first)
            #expect(fixture.catalogue.contains { $0.id == inserted.row.id && $0.hasTag("hoovertower") })
            #expect(after.flatMap(\.rows).count == before + 1)
            _ = await refresh.value
            await list.close()
        }
    }

    @Test func aRetitledPhotoMovesBetweenSectionsAndHidingDeletesItsRow() async throws {
        try await SPoTFixture.run(epoch: 1) { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let list = try await spot.store.photoList(spot: "memorialchurch")
            var follower = await ChangeFollower(list)
            let retitled = try #require(fixture.catalogue.first { $0.title == "IMG_4021" })
            #expect(follower.snapshot.sections.first { $0.rows.contains { $0.id == retitled.id } }?.name == "I")

            fixture.sandbox.setEpoch(2)  // "IMG_4021" becomes "Memorial Church on Christmas Eve"
            await spot.refresher.refresh()
            var sections = follower.snapshot.sections
            var seen = false
            while !seen {
                let (change, applied) = try await follower.next()
                sections = applied
                seen =
                    change.movedRows.contains { $0.row.id == retitled.id }
                    || change.insertedRows.contains { $0.row.id == retitled.id }
            }
            #expect(sections.first { $0.rows.contains { $0.id == retitled.id } }?.name == "M")

            try await spot.store.hide(retitled.id)
            var change: LiveChangeSet<PhotoRow>
            var applied: [LiveSection<PhotoRow>]
            repeat {
                (change, applied) = try await follower.next()
            } while change.deletedRows.isEmpty
            #expect(change.deletedRows.count == 1)
            #expect(!applied.flatMap(\.rows).contains { $0.id == retitled.id })
            await list.close()
            #expect(await follower.iterator.next() == nil)
        }
    }

    @Test func aRecentRowIsUpdatedWhenItsPhotoIsRetitled() async throws {
        try await SPoTFixture.run(epoch: 1) { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let retitled = try #require(fixture.catalogue.first { $0.title == "IMG_4021" })
            let other = try #require(fixture.catalogue.first { $0.id != retitled.id })
            try await spot.store.markViewed(other.id, at: Date(timeIntervalSince1970: 1))
            try await spot.store.markViewed(retitled.id, at: Date(timeIntervalSince1970: 2))
            let list = try await spot.store.recentList()
            var follower = await ChangeFollower(list)
            #expect(follower.snapshot.rows.map(\.id) == [retitled.id, other.id])
            fixture.sandbox.setEpoch(2)
            await spot.refresher.refresh()
            let (change, after) = try await follower.next()
            #expect(change.updatedRows.map(\.row.id) == [retitled.id])
            #expect(change.updatedRows.first?.row.photo.title == "Memorial Church on Christmas Eve")
            #expect(after[0].rows.map(\.photo.title).first == "Memorial Church on Christmas Eve")
            await list.close()
        }
    }

    @Test func allIsSectionedByEachPhotosFirstSpot() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let list = try await spot.store.photoList(spot: "ALL")
            let snapshot = await list.snapshot()
            await list.close()
            #expect(snapshot.rows.count == fixture.catalogue.count)
            #expect(Set(snapshot.rows.map(\.id)).count == fixture.catalogue.count)
            let rules = ImportRules()
            for section in snapshot.sections {
                for row in section.rows {
                    let source = try #require(fixture.catalogue.first { $0.id == row.id })
                    #expect(section.name == rules.displayName(ofSpot: try #require(rules.spotNames(of: source.tags).first)))
                }
            }
            #expect(snapshot.sections.map(\.name) == snapshot.sections.map(\.name).sorted())
        }
    }

    @Test func spotsPhotographersAndSearchGiveTheirRows() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let photographers = try await spot.store.photographerList()
            let people = await photographers.snapshot().rows
            await photographers.close()
            let owners = Dictionary(grouping: fixture.catalogue, by: \.owner.nsid)
            #expect(Set(people.map(\.id)) == Set(owners.keys))
            for person in people { #expect(person.photoCount == owners[person.id]?.count) }
            #expect(people.map { $0.name.lowercased() } == people.map { $0.name.lowercased() }.sorted())

            let someone = try #require(people.first)
            let theirs = try await spot.store.photoList(photographer: someone.id)
            #expect(await theirs.snapshot().rows.count == someone.photoCount)
            await theirs.close()

            // Case- and diacritic-insensitive: "HOOVER" finds the spot and titles; "fuente" finds "Fuënte"-like text.
            let search = try await spot.store.searchList("HOOVER")
            let found = await search.snapshot()
            await search.close()
            #expect(found.sections.map(\.name) == ["Spots", "Photos"])
            #expect(found.sections[0].rows.contains(.spot(try await spot.store.spot("hoovertower"))))
            let titles = found.sections[1].rows.compactMap { row -> String? in if case .photo(let photo) = row { photo.title } else { nil } }
            let subtitles = found.sections[1].rows.compactMap { row -> String? in if case .photo(let photo) = row { photo.subtitle } else { nil } }
            #expect(!titles.isEmpty)
            for (title, subtitle) in zip(titles, subtitles) {
                #expect(title.localizedCaseInsensitiveContains("hoover") || subtitle.localizedCaseInsensitiveContains("hoover"))
            }
            let accented = try await spot.store.searchList("cafe")
            let plain = try await spot.store.searchList("CAFÉ")
            #expect(await accented.snapshot().rows == plain.snapshot().rows)
            await accented.close()
            await plain.close()
            let empty = try await spot.store.searchList("   ")
            #expect(await empty.snapshot().rows.isEmpty)
            await empty.close()
        }
    }

    @Test func changeSetsApplyLikeATableView() throws {
        let row = { (id: String) in SpotRow(id: id, name: id.uppercased(), photoCount: 1) }
        let sections = [
            LiveSection(name: "A", indexTitle: "A", rows: [row("a1"), row("a2")]),
            LiveSection(name: "B", indexTitle: "B", rows: [row("b1")]),
        ]
        var change = LiveChangeSet<SpotRow>(version: 2)
        change.deletedSections = [1]
        change.deletedRows = [RowPosition(section: 0, row: 0)]
        change.insertedSections = [.init(index: 1, name: "C", indexTitle: "C")]
        change.insertedRows = [.init(position: RowPosition(section: 1, row: 0), newPosition: nil, row: row("c1"))]
        change.movedRows = [.init(from: RowPosition(section: 1, row: 0), to: RowPosition(section: 0, row: 0), row: row("b1"))]
        change.updatedRows = [
            .init(
                position: RowPosition(section: 0, row: 1),
                newPosition: RowPosition(section: 0, row: 1),
                row: SpotRow(id: "a2", name: "new", photoCount: 5)
            )
        ]
        let applied = try change.apply(to: sections)
        #expect(applied.map(\.name) == ["A", "C"])
        #expect(applied[0].rows.map(\.id) == ["b1", "a2"])
        #expect(applied[0].rows[1].name == "new")
        #expect(applied[1].rows.map(\.id) == ["c1"])
        var wrong = LiveChangeSet<SpotRow>(version: 3)
        wrong.deletedRows = [RowPosition(section: 4, row: 0)]
        #expect(throws: LiveListError.self) { try wrong.apply(to: sections) }
    }
}

/// Follows a live list's change sets the way a browser does, applying each to the content it
/// has; each time it hands out a change set it also catches up with the list's latest version
/// and checks that the change sets applied so far reproduce the list's own content there.
struct ChangeFollower<Row: LiveRow> {
    let list: LiveList<Row>
    /// The content when following began.
    let snapshot: LiveSnapshot<Row>
    var iterator: LiveChanges<Row>.Iterator
    private var version: Int
    private var sections: [LiveSection<Row>]
    private var unread: [(LiveChangeSet<Row>, [LiveSection<Row>])] = []

    init(_ list: LiveList<Row>) async {
        self.list = list
        let (snapshot, changes) = await list.subscribe()
        self.snapshot = snapshot
        iterator = changes.makeAsyncIterator()
        version = snapshot.version
        sections = snapshot.sections
    }

    /// The next change set and the content once it is applied, after checking the content
    /// the change sets give at the list's latest version.
    mutating func next(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (LiveChangeSet<Row>, [LiveSection<Row>]) {
        if unread.isEmpty { try await read(sourceLocation) }
        let latest = await list.snapshot()
        while version < latest.version { try await read(sourceLocation) }
        #expect(version == latest.version, sourceLocation: sourceLocation)
        #expect(sections == latest.sections, "the change sets up to version \(version) do not reproduce the list", sourceLocation: sourceLocation)
        return unread.removeFirst()
    }

    private mutating func read(_ sourceLocation: SourceLocation) async throws {
        let change = try #require(await iterator.next(), "the list closed", sourceLocation: sourceLocation)
        #expect(change.version == version + 1, sourceLocation: sourceLocation)
        sections = try change.apply(to: sections)
        version = change.version
        unread.append((change, sections))
    }
}
