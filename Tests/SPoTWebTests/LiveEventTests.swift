import AsyncHTTPClient
import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import SPoTKit
import Testing

@testable import SPoTWeb

@Suite("Live updates over server-sent events, on a real server")
struct LiveEventTests {
    @Test(.timeLimit(.minutes(10)))
    func aRefreshThatAddsPhotosReachesAnOpenStreamAsInserts() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.live) { client in
                let port = try #require(client.port)
                var events = try await EventStreamReader.connect("http://127.0.0.1:\(port)/events?list=tags%2Fhoovertower")
                let event = try await events.next(named: "snapshot").object()
                #expect(event["list"] as? String == "tags/hoovertower")
                let snapshot = try #require(event["snapshot"] as? [String: Any])
                let version = try #require(snapshot["version"] as? Int)
                let sections = try #require(snapshot["sections"] as? [[String: Any]])
                let before = sections.flatMap { $0["rows"] as? [[String: Any]] ?? [] }
                #expect(before.count == fixture.catalogue.filter { $0.hasTag("hoovertower") }.count)
                #expect(try await events.next(named: "status").object()["isRunning"] as? Bool == false)

                fixture.sandbox.setEpoch(1)  // new photos, one of them at Hoover Tower
                await fixture.spot.refresher.refresh()
                let change = try await events.next(named: "change").object()
                #expect(change["version"] as? Int == version + 1)
                let inserted = try #require(change["insertedRows"] as? [[String: Any]])
                #expect(inserted.count == 1)
                let row = try #require(inserted.first?["row"] as? [String: Any])
                let id = try #require(row["id"] as? String)
                #expect(fixture.catalogue.contains { $0.id == id && $0.hasTag("hoovertower") })
                let html = try #require(row["html"] as? String)
                #expect(html.hasPrefix(#"<li class="row row-photo" data-id="\#(id)""#))
                let position = try #require(inserted.first?["position"] as? [String: Any])
                #expect(position["section"] is Int && position["row"] is Int)
                #expect(change["reload"] == nil, "a change, not a reload")
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func theSnapshotIsTheFirstEventOfEveryConnection() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.live) { client in
                let port = try #require(client.port)
                // The status and the list's snapshot come from two sources; the snapshot must
                // still come first every time (a page resynchronises from it).
                for _ in 0..<20 {
                    var events = try await EventStreamReader.connect("http://127.0.0.1:\(port)/events?list=tags%2Fhoovertower")
                    let first = try #require(try await events.next())
                    #expect(first.name == "snapshot")
                    #expect(try await events.next()?.name == "status")
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func statusEventsFollowARefresh() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.live) { client in
                let port = try #require(client.port)
                var events = try await EventStreamReader.connect("http://127.0.0.1:\(port)/events?list=status")
                #expect(try await events.next(named: "status").object()["completedRefreshes"] as? Int == 1)
                let refresh = try await client.execute(uri: "/api/refresh", method: .post, headers: [.origin: "http://localhost"]) {
                    $0.status
                }
                #expect(refresh == .accepted)
                var sawRunning = false
                while true {
                    let status = try await events.next(named: "status").object()
                    if status["isRunning"] as? Bool == true { sawRunning = true }
                    if status["completedRefreshes"] as? Int == 2 { break }
                }
                #expect(sawRunning)
            }
        }
    }
}

@Suite("Event streams beneath the router, on a real server")
struct EventStreamHandlerTests {
    /// One connection for every request, so a stream follows a page on the same connection.
    static func singleConnectionClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    @Test(.timeLimit(.minutes(10)))
    func aStreamAfterAPageOnOneConnectionCarriesTheSecurityHeadersAndTheSnapshot() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.live) { client in
                let port = try #require(client.port)
                let http = Self.singleConnectionClient()
                do {
                    let page = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/"), timeout: .seconds(30))
                    #expect(page.status == .ok)
                    _ = try await page.body.collect(upTo: 1 << 24)
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/events?list=tags%2Fhoovertower")
                    request.headers.add(name: "Accept", value: "text/event-stream")
                    let response = try await http.execute(request, timeout: .seconds(30))
                    #expect(response.status == .ok)
                    #expect(response.headers.first(name: "Content-Type") == "text/event-stream; charset=utf-8")
                    #expect(response.headers.first(name: "Cache-Control") == "no-cache")
                    #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
                    #expect(response.headers.first(name: "Content-Security-Policy")?.contains("default-src 'self'") == true)
                    var events = EventStreamReader(response)
                    let snapshot = try #require(try await events.next())
                    #expect(snapshot.name == "snapshot")
                    #expect(try snapshot.object()["list"] as? String == "tags/hoovertower")
                    // The page before did not leave the connection unusable: a second stream on
                    // another connection sees the same version.
                    var other = try await EventStreamReader.connect("http://127.0.0.1:\(port)/events?list=tags%2Fhoovertower")
                    let version = (try snapshot.object()["snapshot"] as? [String: Any])?["version"] as? Int
                    #expect(((try await other.next(named: "snapshot").object())["snapshot"] as? [String: Any])?["version"] as? Int == version)
                } catch {
                    try? await http.shutdown()
                    throw error
                }
                try await http.shutdown()
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func streamsThatCannotOpenAnswerWithTheRoutersErrors() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.live) { client in
                let cases: [(String, HTTPResponse.Status, String)] = [
                    ("/events?list=tags%2Fnosuchspot", .notFound, "nosuchspot"),
                    ("/events?list=bogus", .badRequest, "is not a list"),
                    ("/events?list=", .badRequest, "The list is missing"),
                ]
                for (uri, status, reason) in cases {
                    let (answer, body) = try await client.execute(uri: uri, method: .get) { ($0.status, String(buffer: $0.body)) }
                    #expect(answer == status, "\(uri)")
                    #expect(body.contains(reason), "\(uri): \(body.prefix(300))")
                }
                // The test client's one connection, refused its streams, still serves pages.
                #expect(try await client.execute(uri: "/", method: .get) { $0.status } == .ok)
            }
        }
    }
}
