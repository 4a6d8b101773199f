import Flickr
import FlickrSandbox
import Foundation
import Logging
import SPoTKit

/// The list pages measured: name, path, and the file name its same-size static copy is served as.
let listPages = [
    (name: "Spots page", path: "/", file: "spots.html"),
    (name: "All", path: "/tags/all", file: "all.html"),
    (name: "500-photo spot page", path: "/tags/benchspot", file: "benchspot.html"),
]
/// The pages measured idle and during an import: the Spots page and the 500-photo spot's.
let latencyPages = [listPages[0], listPages[2]]

/// Photos shaped like the sandbox's, with unique ids; `tags` replaces their tags when given.
///
/// Each title ends with the photo's index, zero-padded to six digits, so that PostgreSQL's
/// order for `localizedStandardCompare` (`lower(title) COLLATE "und-x-icu"`, digit by digit)
/// and the live lists' own (numeric: "… 58" before "… 409") agree. Unpadded, they disagree,
/// and a list merging a save of such photos on PostgreSQL stops at ObjectGraph's
/// "… is not where the controller filed it" precondition.
func photos(_ range: Range<Int>, tags: [String]?) -> [FlickrPhoto] {
    let catalogue = SandboxCatalogue.stanford.photos(atEpoch: SandboxCatalogue.stanford.maxEpoch)
    return range.map { index in
        let source = catalogue[index % catalogue.count]
        return FlickrPhoto(
            id: String(80_000_000_000 + index),
            owner: source.owner.nsid,
            secret: source.secret,
            server: source.server,
            farm: source.farm,
            title: "\(source.title) \(String(format: "%06d", index))",
            descriptionHTML: source.descriptionHTML,
            ownerName: source.owner.name,
            tags: tags ?? source.tags,
            uploadDate: Date(timeIntervalSince1970: Double(source.uploaded + index)),
            coordinate: source.latitude.map { FlickrCoordinate(latitude: $0, longitude: source.longitude ?? 0) },
            originalSecret: source.originalSecret,
            originalFormat: source.originalFormat
        )
    }
}

/// SPoT over an in-process Flickr sandbox, its database holding the benchmark's photos.
struct BenchSPoT {
    /// Photos in the database once opened: a 500-photo spot, plus the catalogue's spots.
    static let seededPhotos = 2_000

    let spot: SPoT
    let sandbox: FlickrSandbox
    /// The id of the next new photo ``whileImporting(_:)`` saves.
    private(set) var nextPhoto = seededPhotos

    /// Opens SPoT with its data in `directory` (and its photos in `database` when given, else
    /// in SQLite there) and imports ``seededPhotos`` photos.
    init(directory: URL, database: URL?, logger: Logger) async throws {
        sandbox = FlickrSandbox(configuration: SandboxConfiguration(logger: logger))
        var configuration = SPoTConfiguration(dataDirectory: directory, flickr: .sandbox(baseURL: try await sandbox.start()))
        configuration.refreshInterval = .zero
        configuration.database = database
        spot = try SPoT(configuration: configuration, logger: logger)
        _ = try await spot.store.importer.importPage(photos(0..<500, tags: ["cs193pspot", "benchspot"]))
        for start in stride(from: 500, to: Self.seededPhotos, by: 100) {
            _ = try await spot.store.importer.importPage(photos(start..<(start + 100), tags: nil))
        }
    }

    /// Runs `body` while the importer saves pages of 100 new photos one after another (what a
    /// refresh does: one save per page, merged into every live list).
    /// - Returns: `body`'s result, and how many photos were saved meanwhile.
    mutating func whileImporting<T>(_ body: () async throws -> T) async throws -> (T, imported: Int) {
        let importer = spot.store.importer
        let start = nextPhoto
        let importing = Task {
            var page = start
            while !Task.isCancelled {
                _ = try await importer.importPage(photos(page..<(page + 100), tags: nil))
                page += 100
            }
            return page
        }
        let result: T
        do {
            result = try await body()
        } catch {
            importing.cancel()
            _ = await importing.result
            throw error
        }
        importing.cancel()
        nextPhoto = (try? await importing.value) ?? (start + 10_000)
        return (result, nextPhoto - start)
    }

    func close() async {
        await spot.close()
        await sandbox.stop()
    }
}
