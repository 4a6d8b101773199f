import Foundation
import Hummingbird
import SPoTKit

/// The HTML pages: spots, a spot's photos, recents, photographers, a photographer's photos,
/// search, and the photo viewer.
struct PageRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in try await listPage(.spots) }
        router.get("/tags/:name") { request, context in
            let description = try await describe(.spot(try Input.text(context, "name", what: "spot name")))
            if request.uri.path != description.key.pagePath {
                return Response.redirect(to: description.key.pagePath, type: .permanent)
            }
            return try await listPage(description)
        }
        router.get("/recents") { _, _ in try await listPage(.recents) }
        router.get("/photographers") { _, _ in try await listPage(.photographers) }
        router.get("/photographers/:id") { _, context in
            try await listPage(.photographer(try Input.userID(context)))
        }
        router.get("/search") { request, _ in
            let text = try Input.searchText(request)
            return try await listPage(.search(text), query: text)
        }
        router.get("/photos/:id") { request, context in
            try await photoPage(try Input.photoID(context), list: try Input.listKey(request))
        }
    }

    // MARK: Lists

    /// What a list page shows around the list.
    struct ListDescription {
        /// The list, with a spot named by its canonical address (`tags/HooverTower` is
        /// `tags/hoovertower`), so every page of one list shares one feed.
        var key: ListKey
        var title: String
        var back: BackLink?
        var tab: PageBuilder.Tab?
        var emptyText: String
    }

    struct BackLink {
        let href: String
        let title: String
    }

    private struct ListPaneView {
        let liveURL: String
        let listKey: String
        let version: Int
        let instance: String
        let currentPhoto: String?
        let back: BackLink?
        let title: String
        let collapsible: Bool
        let sectionsHTML: String
        let isEmpty: Bool
        let emptyText: String
        let hasIndex: Bool
        let sectionIndex: [SectionIndexEntry]
    }

    /// Title, back link and tab of list `key`.
    /// - Throws: ``SPoTError`` when the spot or photographer does not exist.
    func describe(_ key: ListKey) async throws -> ListDescription {
        switch key {
        case .spots:
            return ListDescription(key: key, title: "Spots", tab: .spots, emptyText: "No spots yet. Refresh to fetch Stanford's photos.")
        case .spot(let address):
            let spot = try await web.spot.store.spot(address)
            return ListDescription(
                key: .spot(spot.id),
                title: spot.name,
                back: BackLink(href: "/", title: "Spots"),
                tab: .spots,
                emptyText: "No photos in this spot."
            )
        case .recents:
            return ListDescription(key: key, title: "Recents", tab: .recents, emptyText: "Photos you view appear here.")
        case .photographers:
            return ListDescription(key: key, title: "Photographers", tab: .photographers, emptyText: "No photographers yet.")
        case .photographer(let id):
            let photographer = try await web.spot.store.photographer(id)
            return ListDescription(
                key: key,
                title: photographer.name,
                back: BackLink(href: "/photographers", title: "Photographers"),
                tab: .photographers,
                emptyText: "No photos by \(photographer.name)."
            )
        case .search(let text):
            return ListDescription(
                key: key,
                title: text.isEmpty ? "Search" : "“\(text)”",
                back: BackLink(href: "/", title: "Spots"),
                tab: nil,
                emptyText: text.isEmpty ? "Type a spot or a word from a photo's title." : "Nothing matches “\(text)”."
            )
        }
    }

    /// The list pane of `key`, as the list page or the photo page shows it.
    func listPane(_ description: ListDescription, currentPhoto: String? = nil) async throws -> String {
        let key = description.key
        let feed = try await web.hub.feed(key)
        let snapshot = feed.snapshot()
        let index = snapshot.sectionIndex
        // The row of the photo shown beside the list is marked in the (shared, cached) rows.
        let current = currentPhoto.map { key.rowID(ofPhoto: $0) }
        var sectionsHTML = snapshot.sectionsHTML
        // Row ids are validated photo ids (`photo:` in search), which Mustache writes unescaped.
        if let current, let range = sectionsHTML.range(of: #"data-id="\#(current)""#) {
            sectionsHTML.replaceSubrange(range, with: #"data-id="\#(current)" aria-current="true""#)
        }
        return web.renderer.render(
            ListPaneView(
                liveURL: Links.events(key),
                listKey: key.description,
                version: snapshot.version,
                instance: snapshot.instance,
                currentPhoto: current,
                back: description.back,
                title: description.title,
                collapsible: currentPhoto != nil,
                sectionsHTML: sectionsHTML,
                isEmpty: snapshot.rowCount == 0,
                emptyText: description.emptyText,
                hasIndex: !index.isEmpty,
                sectionIndex: index
            ),
            .listPane
        )
    }

    func listPage(_ key: ListKey, query: String = "") async throws -> Response {
        try await listPage(try await describe(key), query: query)
    }

    func listPage(_ description: ListDescription, query: String = "") async throws -> Response {
        let key = description.key
        let pane = try await listPane(description)
        let detail = web.renderer.render(["message": "Choose a photo to see it here."], .emptyDetail)
        return await web.pages.page(
            title: description.title,
            page: pageName(key),
            tab: description.tab,
            body: pane + detail,
            query: query
        )
    }

    private func pageName(_ key: ListKey) -> String {
        switch key {
        case .spots: "spots"
        case .spot: "photos"
        case .recents: "recents"
        case .photographers: "photographers"
        case .photographer: "photographer"
        case .search: "search"
        }
    }

    // MARK: The photo

    private struct PhotoView {
        struct Person {
            let href: String
            let name: String
        }

        struct Uploaded {
            let iso: String
            let text: String
        }

        struct SpotLink {
            let href: String
            let name: String
            let last: Bool
        }

        let id: String
        let title: String
        let subtitle: String
        let back: BackLink
        let previous: String?
        let next: String?
        let largeURL: String
        let originalURL: String
        let photographer: Person?
        let uploaded: Uploaded?
        let hasSpots: Bool
        let spots: [SpotLink]
        let hidden: Bool
        let hideAction: String
        let unhideAction: String
    }

    /// The photo viewer beside the list it was opened from (`list`; "All" when none).
    func photoPage(_ id: String, list: ListKey?) async throws -> Response {
        let store = web.spot.store
        let photo = try await store.photo(id)
        if !photo.isHidden { try await store.markViewed(id) }
        let description = try await describe(list ?? .spot(Tag.allAddress))
        let key = description.key
        let feed = try await web.hub.feed(key)
        let neighbors = feed.neighbors(ofPhoto: id)
        let row = photo.row
        let spots = photo.spots.filter { $0.id != Tag.allAddress }
        let view = PhotoView(
            id: id,
            title: row.title,
            subtitle: row.subtitle,
            back: BackLink(href: key.pagePath, title: description.title),
            previous: neighbors.previous.map { Links.photo($0, in: key) },
            next: neighbors.next.map { Links.photo($0, in: key) },
            largeURL: Links.large(id),
            originalURL: row.hasOriginal ? Links.original(id) : Links.large(id),
            photographer: photo.photographerID.isEmpty
                ? nil : PhotoView.Person(href: ListKey.photographer(photo.photographerID).pagePath, name: row.photographer),
            uploaded: row.uploadDate.map { PhotoView.Uploaded(iso: $0.ISO8601Format(), text: Self.dayFormat.string(from: $0)) },
            hasSpots: !spots.isEmpty,
            spots: spots.enumerated().map { index, spot in
                PhotoView.SpotLink(href: ListKey.spot(spot.id).pagePath, name: spot.name, last: index == spots.count - 1)
            },
            hidden: photo.isHidden,
            hideAction: Links.hide(id),
            unhideAction: Links.unhide(id)
        )
        let pane = try await listPane(description, currentPhoto: id)
        return await web.pages.page(
            title: row.title,
            page: "photo",
            tab: description.tab,
            body: pane + web.renderer.render(view, .photo),
            hasDetail: true
        )
    }

    private static let dayFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMMM yyyy"
        return formatter
    }()
}
