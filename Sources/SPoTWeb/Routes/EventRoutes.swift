import Foundation
import Hummingbird
import SPoTKit
import ServiceLifecycle
import Synchronization

/// `GET /events?list=KEY`: a live list's snapshot and changes, and the refresher's status,
/// as server-sent events. `?list=status` (or none) streams the status alone.
///
/// Events: `snapshot` (first, on every connection: `{"list", "instance", "snapshot":
/// {"version", "sections": [{"name", "indexTitle", "rows": [{"id", "html"}]}], "problem"}}`),
/// `change` (one per change set, in order: the list's `LiveChangeSet` with rows as `{"id",
/// "html"}`), `status` (on connection and on every change of the refresher). A comment line
/// every 20 seconds keeps idle connections open through proxies. The stream ends when the
/// server shuts down; browsers reconnect by themselves and resynchronise from the snapshot.
///
/// A running server serves the streams it can open beneath the router, on each connection's
/// event loop (``EventStreamHandler``); this route answers the rest (a list that cannot be
/// opened gets its error page here) and every `/events` of an in-memory router.
struct EventRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        router.get("/events") { request, _ in
            let raw = request.uri.queryParameters["list"].map(String.init) ?? "status"
            let wakeup = Wakeup()
            var feed: (any ListFeed)?
            if raw != "status" {
                guard let id = try Input.listID(request) else { throw WebError(.badRequest, "The list is missing") }
                // Registered as the list's reader from the start, so the list stays open.
                feed = try await web.hub.feed(id, reader: wakeup)
            }
            let connection = EventConnection(feed: feed, wakeup: wakeup, statuses: web.live.statuses, keepAlives: web.live.keepAlives)
            return stream(connection, request: request)
        }
    }

    /// An event stream's response headers (the security headers included: the stream may be
    /// written beneath the middleware, by ``EventStreamHandler``).
    static let headers: HTTPFields = {
        var headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
            .xAccelBuffering: "no",
        ]
        SecurityHeaders.add(to: &headers)
        return headers
    }()

    private func stream(_ connection: EventConnection, request: Request) -> Response {
        // A HEAD gets the stream's headers and no body. Running the stream only to have its
        // first write refused consumed the request body for nothing, and under the in-memory
        // router that body's source could be freed unfinished, which traps inside NIO.
        // The connection's deinit unregisters its reader.
        if request.method == .head { return Response(status: .ok, headers: Self.headers) }
        return Response(
            status: .ok,
            headers: Self.headers,
            body: ResponseBody { writer in
                web.live.opened()
                defer { web.live.closed() }
                try await withGracefulShutdownHandler {
                    // The browser closing its side ends the stream at once, not at the next
                    // write; this is the connection's one task besides the response's own.
                    try await request.body.consumeWithInboundCloseHandler { _ in
                        try await connection.run(&writer)
                    } onInboundClosed: {
                        connection.stop()
                    }
                } onGracefulShutdown: {
                    connection.stop()
                }
                try await writer.finish(nil)
            }
        )
    }

    /// One event; JSON holds no raw newline, so `data` is one line.
    static func message(_ name: String, _ json: String) -> String {
        "event: \(name)\ndata: \(json)\n\n"
    }
}
