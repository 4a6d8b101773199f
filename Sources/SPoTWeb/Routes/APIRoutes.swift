import Foundation
import Hummingbird
import SPoTKit

/// The JSON API, mirroring the pages: lists as snapshots (version and sections of typed
/// rows), search results as spots and photos, a photo's details, the refresher's status, and
/// the actions. `GET /api/openapi.json` describes it all (OpenAPI 3.1).
struct APIRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api")
        api.get("tags") { _, _ in try await list(.spots) }
        api.get("tags/:name/photos") { _, context in
            let spot = try await web.spot.store.spot(try Input.text(context, "name", what: "spot name"))
            return try await list(.spot(spot.id))
        }
        api.get("photos/:id") { _, context in
            try JSONResponse.make(try await web.spot.store.photo(try Input.photoID(context)))
        }
        api.get("recents") { _, _ in try await list(.recents) }
        api.get("photographers") { _, _ in try await list(.photographers) }
        api.get("photographers/:id/photos") { _, context in try await list(.photographer(try Input.userID(context))) }
        api.get("search") { request, _ in
            let query = try Input.searchText(request)
            let feed = try await web.hub.feed(.search(query))
            guard let snapshot = feed.snapshot(of: SearchResultRow.self) else {
                throw WebError(.internalServerError, "The search list of \"\(query)\" does not hold search results")
            }
            return try JSONResponse.make(SearchAnswer(query: query, snapshot: snapshot))
        }
        api.get("openapi.json") { request, _ in web.openAPI.response(to: request) }
        api.get("status") { _, _ in try JSONResponse.make(await web.spot.refresher.status) }
        api.post("refresh") { _, _ in
            web.startRefresh()
            return try JSONResponse.make(["status": await web.spot.refresher.status], status: .accepted)
        }
        api.post("photos/:id/hide") { _, context in try await setHidden(true, context) }
        api.post("photos/:id/unhide") { _, context in try await setHidden(false, context) }
        router.get("health") { _, _ in
            let counts = try await web.spot.store.counts()
            return try JSONResponse.make(Health(status: "ok", photos: counts.photos))
        }
    }

    private struct Health: Encodable {
        let status: String
        let photos: Int
    }

    private struct HiddenAnswer: Encodable {
        let id: String
        let hidden: Bool
    }

    private func list(_ id: ListID) async throws -> Response {
        let feed = try await web.hub.feed(id)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try feed.encodedSnapshot()))
        )
    }

    private func setHidden(_ hidden: Bool, _ context: BasicRequestContext) async throws -> Response {
        let id = try Input.photoID(context)
        if hidden {
            try await web.spot.store.hide(id)
        } else {
            try await web.spot.store.unhide(id)
        }
        return try JSONResponse.make(HiddenAnswer(id: id, hidden: hidden))
    }
}
