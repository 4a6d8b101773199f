import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

/// The `spot` executable, run as a user runs it, its output asserted exactly.
@Suite("The spot command", .serialized)
struct SpotCommandTests {
    let catalogue = SandboxCatalogue.stanford.spotPhotos(atEpoch: 0)
    let rules = ImportRules()

    /// `spot tags` piped, for the sandbox's catalogue at epoch 0, written out by hand from the
    /// catalogue (SandboxCatalogue+*.swift): name, visible photos, address; "All" first, then
    /// by name ignoring case (other scripts after Latin).
    var expectedTags: [String] { Self.tagLines }

    static let tagLines = [
        "All\t63\tall",
        "Activitiesfair\t1\tactivitiesfair",
        "Agave\t1\tagave",
        "Angelofgrief\t4\tangelofgrief",
        "Architecture\t2\tarchitecture",
        "Arizonacactusgarden\t4\tarizonacactusgarden",
        "Band\t1\tband",
        "Biggame\t1\tbiggame",
        "Bingconcerthall\t4\tbingconcerthall",
        "Boathouse\t1\tboathouse",
        "Books\t1\tbooks",
        "Bronze\t1\tbronze",
        "Cactus\t1\tcactus",
        "Cantorartscenter\t5\tcantorartscenter",
        "Carillon\t1\tcarillon",
        "Christmas\t1\tchristmas",
        "Commencement\t1\tcommencement",
        "Concert\t1\tconcert",
        "Concierto\t1\tconcierto",
        "Dish\t4\tdish",
        "Drought\t1\tdrought",
        "Dusk\t1\tdusk",
        "Dvorak\t1\tdvorak",
        "Finals\t1\tfinals",
        "Fog\t1\tfog",
        "Football\t1\tfootball",
        "Foothills\t1\tfoothills",
        "Fountain\t2\tfountain",
        "Frostamphitheater\t4\tfrostamphitheater",
        "Frostfest\t1\tfrostfest",
        "Goldenhour\t1\tgoldenhour",
        "Graduation\t1\tgraduation",
        "Greenlibrary\t3\tgreenlibrary",
        "Halloween\t1\thalloween",
        "Hiking\t1\thiking",
        "Hoovertower\t4\thoovertower",
        "Lakelagunita\t4\tlakelagunita",
        "Lawn\t1\tlawn",
        "Library\t1\tlibrary",
        "Mainquad\t5\tmainquad",
        "Marble\t1\tmarble",
        "Memorialchurch\t4\tmemorialchurch",
        "Minimal\t1\tminimal",
        "Morning\t1\tmorning",
        "Mosaic\t1\tmosaic",
        "Museum\t2\tmuseum",
        "Music\t2\tmusic",
        "Night\t2\tnight",
        "Organ\t1\torgan",
        "Oval\t4\toval",
        "Palmdrive\t1\tpalmdrive",
        "Papuanewguineasculpturegarden\t4\tpapuanewguineasculpturegarden",
        "Picnic\t1\tpicnic",
        "Radiotelescope\t1\tradiotelescope",
        "Rain\t1\train",
        "Reflections\t1\treflections",
        "Rodin\t2\trodin",
        "Rodinsculpturegarden\t4\trodinsculpturegarden",
        "Running\t1\trunning",
        "Sandstone\t1\tsandstone",
        "Sculpture\t1\tsculpture",
        "Spring\t1\tspring",
        "Stanford\t1\tstanford",
        "Stanfordstadium\t4\tstanfordstadium",
        "Statue\t1\tstatue",
        "Studying\t1\tstudying",
        "Succulents\t1\tsucculents",
        "Sunset\t1\tsunset",
        "Symphony\t1\tsymphony",
        "Theclaw\t4\ttheclaw",
        "View\t1\tview",
        "Whiteplaza\t1\twhiteplaza",
        "Wood\t1\twood",
        "झील\t1\tझील",
        "天使\t1\t天使",
        "展望台\t1\t展望台",
        "彫刻\t2\t彫刻",
        "教堂\t1\t教堂",
    ]

    func spot(_ arguments: String..., in directory: TemporaryDirectory) async throws -> SpotCommand.Output {
        try await SpotCommand.run(arguments + ["--data-dir", directory.url.path])
    }

    @Test func refreshThenTagsPhotosAndPhotographers() async throws {
        try await TemporaryDirectory.with { directory in
            let refresh = try await spot("refresh", "--format", "tsv", in: directory)
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

            let tags = try await spot("tags", "--format", "tsv", in: directory)
            #expect(tags.status == 0)
            #expect(tags.lines == expectedTags)
            #expect(tags.lines.first == "All\t63\tall")

            let again = try await spot("refresh", "--format", "tsv", in: directory)
            #expect(again.lines.last == "Refreshed: 0 new, 0 updated. \(catalogue.count) photos in \(spots) spots by \(photographers) photographers.")

            // Name or display name, any case.
            let hoover = catalogue.filter { $0.hasTag("hoovertower") }
            for name in ["hoovertower", "HooverTower", "Hoovertower"] {
                let photos = try await spot("photos", "--tag", name, "--format", "tsv", in: directory)
                #expect(photos.status == 0)
                #expect(photos.lines.count == hoover.count)
                #expect(Set(photos.lines.map { $0.split(separator: "\t")[1] }) == Set(hoover.map { Substring($0.id) }))
            }
            let photos = try await spot("photos", "--tag", "hoovertower", "--format", "tsv", in: directory)
            // Sections by the title's first letter ("#" for anything not a Latin letter), titles
            // in Finder order within a section; the description as plain text.
            #expect(
                photos.lines == [
                    "#\t40829387803\t<script>alert(\"spot\")</script> Hoover Tower from the Quad\tCS193p Stanford\t"
                        + "Someone thought a title was a good place for a script tag. It is not.",
                    "#\t42291359504\tフーバータワーの展望台から\t田中 恵子\t展望台からの眺め。晴れた日にはサンフランシスコ湾まで見えます。🌉",
                    "H\t41474189382\tHoover at dusk\tAna Lucía Ortega\t"
                        + "Carillon bells at 6pm — 48 of them. Observation deck is $5 for visitors, free with a student ID.",
                    "H\t40443591281\tHoover Tower\tCS193p Stanford\tThe 285-foot tower of the Hoover Institution, seen from the east.",
                ]
            )

            let all = try await spot("photos", "--tag", "all", "--format", "tsv", in: directory)
            #expect(all.lines.count == catalogue.count)

            let people = try await spot("photographers", "--format", "tsv", in: directory)
            #expect(
                people.lines == [
                    "Ana Lucía Ortega\t6\t91327614@N02", "CS193p Stanford\t31\t48247111@N07", "jonas.becker\t4\t66218337@N00",
                    "Priya Raman\t6\t127040123@N05", "Sam O'Neill\t4\t23509847@N08", "Wei Chen 陈伟\t4\t35468159237@N01",
                    "Маша Ковалёва\t4\t8120449@N04", "田中 恵子\t4\t142889301@N03",
                ]
            )

            let table = try await spot("tags", "--format", "table", in: directory)
            #expect(table.lines.first?.hasPrefix("SPOT") == true)
            #expect(table.lines.first?.hasSuffix("PHOTOS  TAG") == true)
            #expect(table.lines.count == expectedTags.count + 1)
            // Columns line up: every row's count starts where the header's PHOTOS does.
            let column = try #require(table.lines[0].range(of: "PHOTOS")).lowerBound.utf16Offset(in: table.lines[0])
            #expect(table.lines[1].hasPrefix("All "))
            #expect(table.lines[1].dropFirst(column).hasPrefix("\(catalogue.count)"))
        }
    }

    @Test func tablesLineUpByDisplayWidth() async throws {
        try await TemporaryDirectory.with { directory in
            _ = try await spot("refresh", "--format", "tsv", in: directory)
            // Japanese takes two columns a character, the accented names one: the columns after
            // them start in the same terminal column on every line. Long cells end in "…".
            let angels = try await spot("photos", "--tag", "angelofgrief", "--format", "table", in: directory)
            #expect(angels.status == 0)
            #expect(
                angels.lines == [
                    "SECTION  ID           TITLE                      PHOTOGRAPHER      DESCRIPTION",
                    "#        42241612062  嘆きの天使                 田中 恵子         静かな森の中の白い大理石の天使。",
                    "A        42770205104  Ángel del dolor            Ana Lucía Ortega",
                    "A        40504393181  Angel of Grief             CS193p Stanford   A 1901 copy of William Wetmore Story's …",
                    "A        41317008403  Angel of Grief, Halloween  CS193p Stanford   Fog rolling in. Spooky & beautiful. Nea…",
                ]
            )
            let people = try await spot("photographers", "--format", "table", in: directory)
            #expect(
                people.lines == [
                    "PHOTOGRAPHER      PHOTOS  ID",
                    "Ana Lucía Ortega  6       91327614@N02",
                    "CS193p Stanford   31      48247111@N07",
                    "jonas.becker      4       66218337@N00",
                    "Priya Raman       6       127040123@N05",
                    "Sam O'Neill       4       23509847@N08",
                    "Wei Chen 陈伟     4       35468159237@N01",
                    "Маша Ковалёва     4       8120449@N04",
                    "田中 恵子         4       142889301@N03",
                ]
            )
        }
    }

    @Test func viewRecentsHideUnhideSearchAndStats() async throws {
        try await TemporaryDirectory.with { directory in
            _ = try await spot("refresh", "--format", "tsv", in: directory)
            let photo = try #require(catalogue.first { $0.hasTag("dish") })
            let title = rules.title(of: FlickrPhotoFixture.flickrPhoto(photo))

            let view = try await spot("view", photo.id, "--format", "tsv", in: directory)
            #expect(view.status == 0)
            #expect(view.lines.first == "id\t\(photo.id)")
            #expect(view.lines[1] == "title\t\(title)")
            #expect(view.lines.prefix(2) == ["id\t40457584353", "title\tThe Dish"])
            #expect(view.lines.last == "hidden\tno")

            let recents = try await spot("recents", "--format", "tsv", in: directory)
            #expect(recents.lines.count == 1)
            let fields = recents.lines[0].split(separator: "\t").map(String.init)
            #expect(fields.count == 3)
            #expect(fields[1...] == [photo.id, title])
            #expect(ISO8601DateFormatter().date(from: fields[0]) != nil)

            let hide = try await spot("hide", photo.id, in: directory)
            #expect(hide.lines == ["Hid photo \(photo.id) (\(title))."])
            let hiddenTags = try await spot("tags", "--format", "tsv", in: directory)
            #expect(hiddenTags.lines.first == "All\t\(catalogue.count - 1)\tall")
            #expect(try await spot("recents", "--format", "tsv", in: directory).lines == [])
            let stats = try await spot("stats", "--format", "tsv", in: directory)
            #expect(
                stats.lines.prefix(6) == [
                    "photos\t\(catalogue.count)", "hidden photos\t1", "spots\t\(expectedTags.count - 1 - lonelySpots(of: photo))",
                    "photographers\t\(Set(catalogue.map(\.owner.nsid)).count)", "recents\t1", "thumbnails\t0",
                ]
            )
            #expect(stats.lines.contains("data directory\t\(directory.url.path)"))
            #expect(stats.lines.contains { $0.hasPrefix("database bytes\t") && Int($0.split(separator: "\t")[1])! > 0 })
            #expect(stats.lines.contains("image cache limit\t\(ImageFileCache.defaultSizeLimit)"))

            let unhide = try await spot("unhide", photo.id, in: directory)
            #expect(unhide.lines == ["Unhid photo \(photo.id) (\(title))."])
            #expect(try await spot("tags", "--format", "tsv", in: directory).lines == expectedTags)

            let search = try await spot("search", "DISH", "--format", "tsv", in: directory)
            #expect(search.status == 0)
            #expect(
                search.lines == [
                    "spot\tdish\tDish\t4 photos",
                    "photo\t41017659395\tDish trail, golden hills\tCS193p Stanford",
                    "photo\t41388332134\tMorning hike to the Dish\tAna Lucía Ortega",
                    "photo\t40457584353\tThe Dish\tCS193p Stanford",
                    "photo\t43608662016\t달리는 사람들 — The Dish loop\tWei Chen 陈伟",
                ]
            )
        }
    }

    /// How many of `photo`'s spots have no other photo (hiding it removes them).
    func lonelySpots(of photo: SandboxPhoto) -> Int {
        rules.spotNames(of: photo.tags).filter { name in catalogue.filter { rules.spotNames(of: $0.tags).contains(name) }.count == 1 }.count
    }

    @Test func badInputIsRefusedWithAReasonAndAFailingStatus() async throws {
        try await TemporaryDirectory.with { directory in
            let unknownFlag = try await spot("tags", "--bogus", in: directory)
            #expect(unknownFlag.status == 64)
            #expect(unknownFlag.stderr.contains("--bogus"))

            let badFormat = try await spot("tags", "--format", "xml", in: directory)
            #expect(badFormat.status == 64)
            #expect(badFormat.stderr.contains("--format"))

            let emptySearch = try await spot("search", "  ", in: directory)
            #expect(emptySearch.status == 64)

            _ = try await spot("refresh", "--format", "tsv", in: directory)
            let unknownSpot = try await spot("photos", "--tag", "nowhere", in: directory)
            #expect(unknownSpot.status == 1)
            #expect(unknownSpot.stderr == "spot: No spot is called \"nowhere\"\n")
            let unknownPhoto = try await spot("hide", "999", in: directory)
            #expect(unknownPhoto.status == 1)
            #expect(unknownPhoto.stderr == "spot: No photo has the id \"999\"\n")
        }
    }

    @Test(arguments: ["not a database at all, just text", "SQLite format 3\u{0}garbage garbage garbage"])
    func aCorruptDatabaseIsReportedByNameAndLeftUntouched(content: String) async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appending(SPoTStore.fileName)
            try Data(content.utf8).write(to: file)
            let result = try await spot("tags", in: directory)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("spot: Could not open the database \(file.path)"), "\(result.stderr)")
            #expect(try Data(contentsOf: file) == Data(content.utf8))
        }
    }

    @Test func refreshDrawsAProgressBarAsATable() async throws {
        try await TemporaryDirectory.with { directory in
            let refresh = try await spot("refresh", "--format", "table", "--sandbox-epoch", "1", in: directory)
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

    @Test func helpReadsWell() async throws {
        let help = try await SpotCommand.run(["--help"])
        #expect(help.status == 0)
        for command in ["refresh", "tags", "photos", "recents", "photographers", "search", "view", "hide", "unhide", "stats", "sandbox"] {
            #expect(help.stdout.contains("  \(command) "), "\(command)")
        }
        let photos = try await SpotCommand.run(["help", "photos"])
        #expect(photos.stdout.contains("--tag <name>"))
        #expect(photos.stdout.contains("--data-dir <path>"))
        #expect(photos.stdout.contains("--flickr-api-key <key>"))
    }
}
