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
            // The hub knows a spot's list by any of its names once it is open: no lookup in
            // the database (which may not answer) for a list held in memory.
            try await list(.spot(try Input.text(context, "name", what: "spot name")))
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
            try web.refuseWhileOffline("refresh from Flickr into")
            web.startRefresh()
            return try JSONResponse.make(["status": await web.spot.refresher.status], status: .accepted)
        }
        api.post("photos/:id/hide") { _, context in try await setHidden(true, context) }
        api.post("photos/:id/unhide") { _, context in try await setHidden(false, context) }
        router.get("health") { _, _ in try await health() }
    }

    private struct Health: Encodable {
        let status: String
        let photos: Int
    }

    private struct Unhealthy: Encodable {
        let status = "unavailable"
        let database: String
        let error: String
        let offlineSince: Date?
    }

    /// `ok` and the photo count, or 503 naming the database and why it does not answer: at once
    /// while the monitor knows it is away, else after the monitor's probe (which also asks for
    /// an SQLite file's write lock; given ``healthDeadline``) — as soon as the probe finds the
    /// database away — or a count beside it (given ``countDeadline``). A probe slower than its
    /// deadline is answered with what the monitor knows, and its own outcome (at most two
    /// seconds) is what the next check reports.
    private func health() async throws -> Response {
        let store = web.spot.store
        let monitor = store.monitor
        // Not a child task: a database found not answering is reported at once, without
        // waiting for the count's own deadline (a count stuck on a dead server cannot be
        // cancelled; it ends by itself within that deadline).
        let counting = Task { try await store.counts(deadline: Self.countDeadline) }
        let database = await monitor.check(within: Self.healthDeadline)
        guard database.isOnline else {
            counting.cancel()
            return try unhealthy(monitor, database, "")
        }
        let counts: StoreCounts
        do {
            counts = try await counting.value
        } catch let error as SPoTError where error.kind == .unavailable || error.kind == .store {
            return try unhealthy(monitor, monitor.status, error.description)
        }
        return try JSONResponse.make(Health(status: "ok", photos: counts.photos))
    }

    private func unhealthy(_ monitor: DatabaseMonitor, _ database: DatabaseStatus, _ fallback: String) throws -> Response {
        try JSONResponse.make(
            Unhealthy(database: monitor.databaseName, error: database.reason ?? fallback, offlineSince: database.offlineSince),
            status: .serviceUnavailable
        )
    }

    /// How long `/health` waits for the database before answering that it does not answer.
    static let healthDeadline: Duration = .milliseconds(900)
    /// How long `/health` waits for its count: past it, 503 at once (a loaded machine takes
    /// longer than the probe's second to count, a database gone away never answers).
    static let countDeadline: Duration = .milliseconds(1_500)

    private struct HiddenAnswer: Encodable {
        let id: String
        let hidden: Bool
    }

    /// List `id` as JSON, from the live list's snapshot (the database is not asked); while
    /// the database does not answer, with `"offline": {"since", "reason"}`.
    private func list(_ id: ListID) async throws -> Response {
        let feed = try await web.hub.feed(id)
        let snapshot = try feed.encodedSnapshot()
        var body = ByteBuffer()
        let database = web.spot.store.monitor.status
        if !database.isOnline, snapshot.first == UInt8(ascii: "{") {
            // The snapshot's bytes are shared by every request for its version: the marker is
            // written in front of them rather than encoded into them.
            let offline = Offline(since: database.offlineSince ?? Date(), reason: database.reason ?? "")
            body.writeString("{\"offline\":")
            body.writeBytes(try JSONResponse.data(offline))
            body.writeString(snapshot.count > 2 ? "," : "")
            body.writeBytes(snapshot.dropFirst())
        } else {
            body.writeBytes(snapshot)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: body)
        )
    }

    private struct Offline: Encodable {
        let since: Date
        let reason: String
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
