import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

/// The `spot` executable, run as a user runs it, its output asserted exactly.
@Suite("The spot command", .serialized)
struct SpotCommandTests {
    let catalogue = SandboxCatalogue.stanford.spotPhotos(atEpoch: 0)
    let rules = ImportRules()

    /// The spots' rows as `spot tags` prints them piped: name, count, address; "All" first.
    var expectedTags: [String] {
        var counts: [String: Int] = [:]
        for photo in catalogue { for name in rules.spotNames(of: photo.tags) { counts[name, default: 0] += 1 } }
        let spots = counts.keys.sorted {
            let order = rules.displayName(ofSpot: $0).localizedCaseInsensitiveCompare(rules.displayName(ofSpot: $1))
            return order == .orderedSame ? $0 < $1 : order == .orderedAscending
        }
        return ["All\t\(catalogue.count)\tall"] + spots.map { "\(rules.displayName(ofSpot: $0))\t\(counts[$0]!)\t\($0)" }
    }

    func spot(_ arguments: String..., in directory: TemporaryDirectory) throws -> SpotCommand.Output {
        try SpotCommand.run(arguments + ["--data-dir", directory.url.path])
    }

    @Test func refreshThenTagsPhotosAndPhotographers() async throws {
        try await TemporaryDirectory.with { directory in
            let refresh = try spot("refresh", "--format", "tsv", in: directory)
            #expect(refresh.status == 0, "\(refresh.stderr)")
            let spots = expectedTags.count - 1
            let photographers = Set(catalogue.map(\.owner.nsid)).count
            #expect(
                refresh.lines == [
                    "page 1 of 1: \(catalogue.count) new, 0 updated",
                    "Refreshed: \(catalogue.count) new, 0 updated. \(catalogue.count) photos in \(spots) spots by \(photographers) photographers.",
                ]
            )
            #expect(refresh.stderr == "")

            let tags = try spot("tags", "--format", "tsv", in: directory)
            #expect(tags.status == 0)
            #expect(tags.lines == expectedTags)
            #expect(tags.lines.first == "All\t63\tall")

            let again = try spot("refresh", "--format", "tsv", in: directory)
            #expect(again.lines.last == "Refreshed: 0 new, 0 updated. \(catalogue.count) photos in \(spots) spots by \(photographers) photographers.")

            // Name or display name, any case.
            let hoover = catalogue.filter { $0.hasTag("hoovertower") }
            for name in ["hoovertower", "HooverTower", "Hoovertower"] {
                let photos = try spot("photos", "--tag", name, "--format", "tsv", in: directory)
                #expect(photos.status == 0)
                #expect(photos.lines.count == hoover.count)
                #expect(Set(photos.lines.map { $0.split(separator: "\t")[1] }) == Set(hoover.map { Substring($0.id) }))
            }
            let photos = try spot("photos", "--tag", "hoovertower", "--format", "tsv", in: directory)
            let expected = try await expectedPhotoLines(hoover)
            #expect(photos.lines == expected)

            let all = try spot("photos", "--tag", "all", "--format", "tsv", in: directory)
            #expect(all.lines.count == catalogue.count)

            let people = try spot("photographers", "--format", "tsv", in: directory)
            let owners = Dictionary(grouping: catalogue, by: \.owner.nsid)
            let expectedPeople = owners.map { ($0.value[0].owner.name, $0.value.count, $0.key) }
                .sorted { $0.0.localizedCaseInsensitiveCompare($1.0) == .orderedAscending }
                .map { "\($0.0)\t\($0.1)\t\($0.2)" }
            #expect(people.lines == expectedPeople)

            let table = try spot("tags", "--format", "table", in: directory)
            #expect(table.lines.first?.hasPrefix("SPOT") == true)
            #expect(table.lines.first?.hasSuffix("PHOTOS  TAG") == true)
            #expect(table.lines.count == expectedTags.count + 1)
            // Columns line up: every row's count starts where the header's PHOTOS does.
            let column = try #require(table.lines[0].range(of: "PHOTOS")).lowerBound.utf16Offset(in: table.lines[0])
            #expect(table.lines[1].hasPrefix("All "))
            #expect(table.lines[1].dropFirst(column).hasPrefix("\(catalogue.count)"))
        }
    }

    /// `section\tid\ttitle\tphotographer\tdescription`, sections and titles as SPoT sorts them.
    func expectedPhotoLines(_ photos: [SandboxPhoto]) async throws -> [String] {
        let store = try SPoTStore(url: nil)
        let flickr = photos.map {
            FlickrPhotoFixture.flickrPhoto($0)
        }
        try await store.importer.importPage(flickr)
        let list = try await store.photoList(spot: "hoovertower")
        let snapshot = await list.snapshot()
        await list.close()
        // The list's order is what the command must print; check it against the rules too.
        for section in snapshot.sections {
            #expect(section.rows.map(\.title) == section.rows.map(\.title).sorted { $0.localizedStandardCompare($1) != .orderedDescending })
        }
        return snapshot.sections.flatMap { section in
            section.rows.map { "\(section.name)\t\($0.id)\t\($0.title)\t\($0.photographer)\t\($0.subtitle)" }
        }
    }

    @Test func viewRecentsHideUnhideSearchAndStats() async throws {
        try await TemporaryDirectory.with { directory in
            _ = try spot("refresh", "--format", "tsv", in: directory)
            let photo = try #require(catalogue.first { $0.hasTag("dish") })
            let title = rules.title(of: FlickrPhotoFixture.flickrPhoto(photo))

            let view = try spot("view", photo.id, "--format", "tsv", in: directory)
            #expect(view.status == 0)
            #expect(view.lines.first == "id\t\(photo.id)")
            #expect(view.lines[1] == "title\t\(title)")
            #expect(view.lines.last == "hidden\tno")

            let recents = try spot("recents", "--format", "tsv", in: directory)
            #expect(recents.lines.count == 1)
            let fields = recents.lines[0].split(separator: "\t").map(String.init)
            #expect(fields.count == 3)
            #expect(fields[1...] == [photo.id, title])
            #expect(ISO8601DateFormatter().date(from: fields[0]) != nil)

            let hide = try spot("hide", photo.id, in: directory)
            #expect(hide.lines == ["Hid photo \(photo.id) (\(title))."])
            let hiddenTags = try spot("tags", "--format", "tsv", in: directory)
            #expect(hiddenTags.lines.first == "All\t\(catalogue.count - 1)\tall")
            #expect(try spot("recents", "--format", "tsv", in: directory).lines == [])
            let stats = try spot("stats", "--format", "tsv", in: directory)
            #expect(
                stats.lines.prefix(6) == [
                    "photos\t\(catalogue.count)", "hidden photos\t1", "spots\t\(expectedTags.count - 1 - lonelySpots(of: photo))",
                    "photographers\t\(Set(catalogue.map(\.owner.nsid)).count)", "recents\t1", "thumbnails\t0",
                ]
            )
            #expect(stats.lines.contains("data directory\t\(directory.url.path)"))
            #expect(stats.lines.contains { $0.hasPrefix("database bytes\t") && Int($0.split(separator: "\t")[1])! > 0 })
            #expect(stats.lines.contains("image cache limit\t\(ImageFileCache.defaultSizeLimit)"))

            let unhide = try spot("unhide", photo.id, in: directory)
            #expect(unhide.lines == ["Unhid photo \(photo.id) (\(title))."])
            #expect(try spot("tags", "--format", "tsv", in: directory).lines == expectedTags)

            let search = try spot("search", "DISH", "--format", "tsv", in: directory)
            #expect(search.status == 0)
            #expect(search.lines.first == "spot\tdish\tDish\t\(catalogue.filter { $0.hasTag("dish") }.count) photos")
            #expect(search.lines.dropFirst().allSatisfy { $0.hasPrefix("photo\t") })
            #expect(search.lines.contains { $0.hasPrefix("photo\t\(photo.id)\t") })
        }
    }

    /// How many of `photo`'s spots have no other photo (hiding it removes them).
    func lonelySpots(of photo: SandboxPhoto) -> Int {
        rules.spotNames(of: photo.tags).filter { name in catalogue.filter { rules.spotNames(of: $0.tags).contains(name) }.count == 1 }.count
    }

    @Test func badInputIsRefusedWithAReasonAndAFailingStatus() async throws {
        try await TemporaryDirectory.with { directory in
            let unknownFlag = try spot("tags", "--bogus", in: directory)
            #expect(unknownFlag.status == 64)
            #expect(unknownFlag.stderr.contains("--bogus"))

            let badFormat = try spot("tags", "--format", "xml", in: directory)
            #expect(badFormat.status == 64)
            #expect(badFormat.stderr.contains("--format"))

            let emptySearch = try spot("search", "  ", in: directory)
            #expect(emptySearch.status == 64)

            _ = try spot("refresh", "--format", "tsv", in: directory)
            let unknownSpot = try spot("photos", "--tag", "nowhere", in: directory)
            #expect(unknownSpot.status == 1)
            #expect(unknownSpot.stderr == "spot: No spot is called \"nowhere\"\n")
            let unknownPhoto = try spot("hide", "999", in: directory)
            #expect(unknownPhoto.status == 1)
            #expect(unknownPhoto.stderr == "spot: No photo has the id \"999\"\n")
        }
    }

    @Test(arguments: ["not a database at all, just text", "SQLite format 3\u{0}garbage garbage garbage"])
    func aCorruptDatabaseIsReportedByNameAndLeftUntouched(content: String) async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appending(SPoTStore.fileName)
            try Data(content.utf8).write(to: file)
            let result = try spot("tags", in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("spot: Could not open the database \(file.path)"), "\(result.stderr)")
            #expect(try Data(contentsOf: file) == Data(content.utf8))
        }
    }

    @Test func refreshDrawsAProgressBarAsATable() async throws {
        try await TemporaryDirectory.with { directory in
            let refresh = try spot("refresh", "--format", "table", "--sandbox-epoch", "1", in: directory)
            #expect(refresh.status == 0)
            let count = SandboxCatalogue.stanford.spotPhotos(atEpoch: 1).count
            let spots = Set(SandboxCatalogue.stanford.spotPhotos(atEpoch: 1).flatMap { rules.spotNames(of: $0.tags) }).count
            #expect(
                refresh.stdout == """
                    \r[####################]  1/1 pages  \(count) new  0 updated
                    Refreshed: \(count) new, 0 updated. \(count) photos in \(spots) spots by 8 photographers.

                    """
            )
        }
    }

    @Test func helpReadsWell() throws {
        let help = try SpotCommand.run(["--help"])
        #expect(help.status == 0)
        for command in ["refresh", "tags", "photos", "recents", "photographers", "search", "view", "hide", "unhide", "stats", "sandbox"] {
            #expect(help.stdout.contains("  \(command) "), "\(command)")
        }
        let photos = try SpotCommand.run(["help", "photos"])
        #expect(photos.stdout.contains("--tag <name>"))
        #expect(photos.stdout.contains("--data-dir <path>"))
        #expect(photos.stdout.contains("--flickr-api-key <key>"))
    }
}
