import Foundation
import Hummingbird
import SPoTKit
import ServiceLifecycle

/// `GET /events?list=KEY`: a live list's snapshot and changes, and the refresher's status,
/// as server-sent events. `?list=status` (or none) streams the status alone.
///
/// Events: `snapshot` (first, on every connection: `{"list", "instance", "snapshot":
/// {"version", "sections": [{"name", "indexTitle", "rows": [{"id", "html"}]}], "problem"}}`),
/// `change` (one per change set, in order: the list's `LiveChangeSet` with rows as `{"id",
/// "html"}`), `status` (on connection and on every change of the refresher). A comment line
/// every 20 seconds keeps idle connections open through proxies. The stream ends when the
/// server shuts down; browsers reconnect by themselves and resynchronise from the snapshot.
struct EventRoutes: Sendable {
    let web: SPoTWebApp
    /// The time between keep-alive comments.
    static let keepAliveInterval: Duration = .seconds(20)

    func register(on router: Router<BasicRequestContext>) {
        router.get("/events") { request, _ in
            let raw = request.uri.queryParameters["list"].map(String.init) ?? "status"
            var feedEvents: AsyncStream<String>?
            if raw != "status" {
                guard let id = try Input.listID(request) else { throw WebError(.badRequest, "The list is missing") }
                feedEvents = try await web.hub.feed(id).events()
            }
            return stream(feedEvents, statuses: await web.spot.refresher.statusUpdates())
        }
    }

    private func stream(_ feedEvents: AsyncStream<String>?, statuses: AsyncStream<RefreshStatus>) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
            .xAccelBuffering: "no",
        ]
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                let (events, continuation) = AsyncStream<String>.makeStream()
                continuation.yield("retry: 2000\n\n")
                // Finished once the list's snapshot is on its way: statuses wait for it, so
                // the snapshot is the first event, as documented (statuses are buffered).
                let (snapshotSent, snapshotSentSignal) = AsyncStream<Never>.makeStream()
                let forwarders = [
                    Task {
                        defer { snapshotSentSignal.finish() }
                        guard let feedEvents else { return }
                        for await event in feedEvents {
                            continuation.yield(event)
                            snapshotSentSignal.finish()
                        }
                        continuation.finish()  // the list closed: the server is going away
                    },
                    Task {
                        for await _ in snapshotSent {}
                        for await status in statuses {
                            continuation.yield(Self.message("status", (try? JSONResponse.encode(status)) ?? "{}"))
                        }
                    },
                    Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: Self.keepAliveInterval)
                            continuation.yield(": keep-alive\n\n")
                        }
                    },
                ]
                defer { for task in forwarders { task.cancel() } }
                try await withGracefulShutdownHandler {
                    for await event in events {
                        try await writer.write(ByteBuffer(string: event))
                    }
                } onGracefulShutdown: {
                    continuation.finish()
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
