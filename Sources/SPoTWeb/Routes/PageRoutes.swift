import Foundation
import Hummingbird
import Logging
import SPoTKit

/// The HTML pages: spots, a spot's photos, recents, photographers, a photographer's photos,
/// search, and the photo viewer.
struct PageRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try await listPage(.spots, request) }
        router.get("/tags/:name") { request, context in
            try await listPage(.spot(try Input.text(context, "name", what: "spot name")), request)
        }
        router.get("/recents") { request, _ in try await listPage(.recents, request) }
        router.get("/photographers") { request, _ in try await listPage(.photographers, request) }
        router.get("/photographers/:id") { request, context in
            try await listPage(.photographer(try Input.userID(context)), request)
        }
        router.get("/search") { request, _ in
            try await listPage(.search(try Input.searchText(request)), request)
        }
        router.get("/photos/:id") { request, context in
            // Only a GET views the photo: HEAD (a health check, `curl -I`) leaves recents alone.
            try await photoPage(try Input.photoID(context), list: try Input.listID(request), viewing: request.method == .get)
        }
    }

    // MARK: Lists

    private struct BackLink {
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
        let problem: String?
        let sectionsHTML: String
        let isEmpty: Bool
        let emptyText: String
        let hasIndex: Bool
        let sectionIndex: [SectionIndexEntry]
    }

    /// The list pane of `feed` showing `pane`, as the list page or the photo page shows it.
    private func listPane(_ feed: any ListFeed, _ pane: ListPaneContent, currentPhoto: String? = nil) -> String {
        let info = feed.info
        return web.renderer.render(
            ListPaneView(
                liveURL: Links.events(info.id),
                listKey: info.id.address,
                version: pane.version,
                instance: feed.instance,
                currentPhoto: currentPhoto.map { info.id.rowID(ofPhoto: $0) },
                back: info.back.map { BackLink(href: $0.pagePath, title: $0.tabTitle ?? "") },
                title: info.title,
                collapsible: currentPhoto != nil,
                problem: pane.problem,
                sectionsHTML: pane.sectionsHTML,
                isEmpty: pane.isEmpty,
                emptyText: info.emptyText,
                hasIndex: !pane.sectionIndex.isEmpty,
                sectionIndex: pane.sectionIndex
            ),
            .listPane
        )
    }

    /// The page of list `id`: rendered once per list version and refresh status, and answered
    /// with 304 Not Modified when the browser has it (`If-None-Match`).
    private func listPage(_ id: ListID, _ request: Request) async throws -> Response {
        let feed = try await web.hub.feed(id)
        let info = feed.info
        if case .spot = id, info.id != id {
            return Response.redirect(to: info.id.pagePath, type: .permanent)
        }
        let refresh = await web.spot.refresher.status
        let pane = feed.pane(currentPhoto: nil)
        let key = "\(pane.version) \(PageBuilder.signature(refresh))"
        let etag = "\"\(feed.instance)-\(pane.version)-\(String(UInt(bitPattern: key.hashValue), radix: 36))\""
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache", .eTag: etag]
        if request.headers[values: .ifNoneMatch].contains(where: { $0 == etag || $0 == "*" }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        let body = feed.page(key) {
            let detail = web.renderer.render(["message": "Choose a photo to see it here."], .emptyDetail)
            let query = if case .search(let text) = info.id { text } else { "" }
            return web.pages.html(
                title: info.title,
                page: info.id.kind,
                tab: info.id.tab,
                body: listPane(feed, pane) + detail,
                hasDetail: false,
                query: query,
                refresh: refresh
            )
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
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

    /// The photo viewer beside the list it was opened from (`list`; "All" when none); when
    /// `viewing` (a GET), the photo becomes the most recent.
    func photoPage(_ id: String, list: ListID?, viewing: Bool) async throws -> Response {
        let store = web.spot.store
        let photo = try await store.photo(id)
        if viewing && !photo.isHidden {
            do {
                try await store.markViewed(id)
            } catch let error as SPoTError where error.kind == .unavailable {
                // The photo was read; only its place in Recents could not be saved.
                web.logger.warning("could not mark a photo viewed", metadata: ["photo": "\(id)", "error": "\(error)"])
            }
        }
        let feed = try await web.hub.feed(list ?? .spot(Tag.allAddress))
        let info = feed.info
        let key = info.id
        let neighbors = feed.neighbors(ofPhoto: id)
        let row = photo.row
        let spots = photo.spots.filter { $0.id != Tag.allAddress }
        let view = PhotoView(
            id: id,
            title: row.title,
            subtitle: row.subtitle,
            back: BackLink(href: key.pagePath, title: info.title),
            previous: neighbors.previous.map { Links.photo($0, in: key) },
            next: neighbors.next.map { Links.photo($0, in: key) },
            largeURL: Links.large(id),
            originalURL: row.hasOriginal ? Links.original(id) : Links.large(id),
            photographer: photo.photographerID.isEmpty
                ? nil : PhotoView.Person(href: ListID.photographer(photo.photographerID).pagePath, name: row.photographer),
            uploaded: row.uploadDate.map { PhotoView.Uploaded(iso: $0.ISO8601Format(), text: Self.dayFormat.string(from: $0)) },
            hasSpots: !spots.isEmpty,
            spots: spots.enumerated().map { index, spot in
                PhotoView.SpotLink(href: ListID.spot(spot.id).pagePath, name: spot.name, last: index == spots.count - 1)
            },
            hidden: photo.isHidden,
            hideAction: Links.hide(id),
            unhideAction: Links.unhide(id)
        )
        let pane = listPane(feed, feed.pane(currentPhoto: id), currentPhoto: id)
        return await web.pages.page(
            title: row.title,
            page: "photo",
            tab: key.tab,
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
