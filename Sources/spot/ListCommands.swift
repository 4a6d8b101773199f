import ArgumentParser
import Foundation
import SPoTKit

/// Refreshes first when the database has no photos yet, so a first `spot tags` shows spots.
func ensurePhotos(_ spot: SPoT) async throws {
    guard try await spot.store.counts().photos == 0 else { return }
    let status = await spot.refresher.refresh()
    if let error = status.lastError { throw SPoTError(.flickr, "the database is empty and the refresh failed: \(error)") }
}

/// The list's content now; the list stops tracking (a command prints once).
func currentContent<Row>(_ list: LiveList<Row>) async -> LiveSnapshot<Row> {
    let snapshot = await list.snapshot()
    await list.close()
    return snapshot
}

/// The columns a photo row prints.
func photoCells(_ section: String, _ photo: PhotoRow) -> [String] {
    [section, photo.id, photo.title, photo.photographer, photo.subtitle]
}

/// `spot tags`
struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List the spots with their photo counts, \"All\" first.",
        discussion: "Columns: spot, photos, and the name to pass to `spot photos --tag`."
    )

    @OptionGroup var options: SpotOptions
    @OptionGroup var follow: FollowOption

    func run() async throws {
        try await options.withSPoT { spot in
            try await ensurePhotos(spot)
            let list = try await spot.store.spotList()
            await printList(list, header: ["SPOT", "PHOTOS", "TAG"], format: options.format, follow: follow.follow) { _, row in
                [row.name, String(row.photoCount), row.id]
            }
        }
    }
}

/// `spot photos --tag NAME`
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List a spot's photos, in sections.",
        discussion: """
            A spot's photos are in alphabetical sections; "All" (--tag all) is sectioned by spot, each photo \
            under its first spot. Columns: section, id, title, photographer, description.
            """
    )

    @OptionGroup var options: SpotOptions
    @OptionGroup var follow: FollowOption

    @Option(name: .customLong("tag"), help: ArgumentHelp("The spot: its name or display name, any case; `all` is \"All\".", valueName: "name"))
    var tag: String = "all"

    @Option(name: .customLong("photographer"), help: ArgumentHelp("List this photographer's photos instead (their Flickr id).", valueName: "id"))
    var photographer: String?

    func run() async throws {
        try await options.withSPoT { spot in
            try await ensurePhotos(spot)
            let list: LiveList<PhotoRow>
            if let photographer {
                list = try await spot.store.photoList(photographer: photographer)
            } else {
                list = try await spot.store.photoList(spot: tag)
            }
            await printList(
                list,
                header: ["SECTION", "ID", "TITLE", "PHOTOGRAPHER", "DESCRIPTION"],
                format: options.format,
                maxWidth: 40,
                follow: follow.follow,
                cells: photoCells
            )
        }
    }
}

/// `spot recents`
struct RecentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recents",
        abstract: "List recently viewed photos, most recent first (up to 20)."
    )

    @OptionGroup var options: SpotOptions
    @OptionGroup var follow: FollowOption

    func run() async throws {
        try await options.withSPoT { spot in
            let list = try await spot.store.recentList()
            await printList(list, header: ["VIEWED", "ID", "TITLE"], format: options.format, follow: follow.follow) { _, row in
                [row.lastViewed.ISO8601Format(), row.photo.id, row.photo.title]
            }
        }
    }
}

/// `spot photographers`
struct PhotographersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photographers",
        abstract: "List photographers with their photo counts.",
        discussion: "See one photographer's photos with `spot photos --photographer ID`."
    )

    @OptionGroup var options: SpotOptions
    @OptionGroup var follow: FollowOption

    func run() async throws {
        try await options.withSPoT { spot in
            try await ensurePhotos(spot)
            let list = try await spot.store.photographerList()
            await printList(list, header: ["PHOTOGRAPHER", "PHOTOS", "ID"], format: options.format, follow: follow.follow) { _, row in
                [row.name, String(row.photoCount), row.id]
            }
        }
    }
}

/// `spot search TEXT`
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find spots by name and photos by title or description.",
        discussion: "Case and accents are ignored: `cafe` finds \"Café\"."
    )

    @OptionGroup var options: SpotOptions

    @Argument(help: "The text to look for.")
    var text: String

    func validate() throws {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("TEXT must not be empty") }
    }

    func run() async throws {
        try await options.withSPoT { spot in
            try await ensurePhotos(spot)
            let list = try await spot.store.searchList(text)
            let rows = await currentContent(list).rows
            let cells = rows.map { row -> [String] in
                switch row {
                case .spot(let spot): ["spot", spot.id, spot.name, spot.photoCountText]
                case .photo(let photo): ["photo", photo.id, photo.title, photo.photographer]
                }
            }
            Terminal.printRows(["KIND", "ID", "NAME", "DETAIL"], cells, table: options.format.isTable)
        }
    }
}
