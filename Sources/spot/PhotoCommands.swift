import ArgumentParser
import Foundation
import SPoTKit

/// `spot view ID`
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show a photo's details and make it the most recent."
    )

    @OptionGroup var options: SpotOptions

    @Argument(help: "The photo's Flickr id.")
    var id: String

    func run() async throws {
        try await options.withSPoT { spot in
            try await spot.store.markViewed(id)
            let photo = try await spot.store.photo(id)
            let rows: [[String]] = [
                ["id", photo.id], ["title", photo.row.title], ["description", photo.row.subtitle],
                ["photographer", photo.row.photographer], ["spots", photo.spots.map(\.name).joined(separator: ", ")],
                ["hidden", photo.isHidden ? "yes" : "no"],
            ]
            Terminal.printRows(["FIELD", "VALUE"], rows, table: options.format.isTable, maxWidth: 200)
        }
    }
}

/// `spot hide ID`
struct HideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide a photo from every list and count; refreshes keep it hidden.",
        discussion: "Undo with `spot unhide ID`."
    )

    @OptionGroup var options: SpotOptions

    @Argument(help: "The photo's Flickr id.")
    var id: String

    func run() async throws {
        try await setHidden(true, photo: id, options: options)
    }
}

/// `spot unhide ID`
struct UnhideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide",
        abstract: "Show a hidden photo again."
    )

    @OptionGroup var options: SpotOptions

    @Argument(help: "The photo's Flickr id.")
    var id: String

    func run() async throws {
        try await setHidden(false, photo: id, options: options)
    }
}

/// Hides or unhides photo `id` and says so: `Hid photo ID (title).`
private func setHidden(_ hidden: Bool, photo id: String, options: SpotOptions) async throws {
    try await options.withSPoT { spot in
        if hidden { try await spot.store.hide(id) } else { try await spot.store.unhide(id) }
        let photo = try await spot.store.photo(id)
        print("\(hidden ? "Hid" : "Unhid") photo \(id) (\(photo.row.title)).")
    }
}

/// `spot stats`
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show counts and the sizes of the database and the image cache."
    )

    @OptionGroup var options: SpotOptions

    func run() async throws {
        try await options.withSPoT { spot in
            let stats = try await spot.statistics()
            let counts = stats.counts
            let rows: [[String]] = [
                ["photos", String(counts.photos)], ["hidden photos", String(counts.hiddenPhotos)], ["spots", String(counts.spots)],
                ["photographers", String(counts.photographers)], ["recents", String(counts.recents)],
                ["thumbnails", String(counts.thumbnails)], ["database bytes", String(stats.databaseBytes)],
                ["image cache files", String(stats.imageCacheFiles)], ["image cache bytes", String(stats.imageCacheBytes)],
                ["image cache limit", String(stats.imageCacheLimit)], ["data directory", spot.configuration.dataDirectory.path],
            ]
            Terminal.printRows(["WHAT", "VALUE"], rows, table: options.format.isTable, maxWidth: 200)
        }
    }
}
