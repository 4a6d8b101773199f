import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing

import SPoTKit
@testable import SPoTWeb

@Suite("HEAD answers as GET does, without a body")
struct HeadRouteTests {
    /// Every kind of GET route: pages, the API, health, assets, images, events, errors.
    func paths(_ fixture: WebFixture) -> [String] {
        let id = fixture.catalogue[0].id
        return [
            "/", "/health", "/api/tags", "/api/tags/hoovertower/photos", "/api/recents", "/api/photographers",
            "/api/search?q=hoover", "/api/status", "/api/openapi.json", "/api/photos/\(id)", "/tags/hoovertower",
            "/recents", "/photographers", "/search?q=tower", "/photos/\(id)", "/static/app.css", "/static/viewer.js",
            "/favicon.ico", "/thumbnails/\(id).jpg", "/images/\(id)/large.jpg", "/debug/entities",
            "/no/such/page", "/api/photos/nope!", "/api/nothing", "/events?list=bogus",
        ]
    }

    /// The paths of ``paths(_:)`` that answer with a client error; every other one answers 200.
    static let errorPaths: Set<String> = ["/no/such/page", "/api/photos/nope!", "/api/nothing", "/events?list=bogus"]

    @Test func everyGETRouteAnswersHEADInMemory() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                for path in paths(fixture) {
                    let (get, head) = try await Self.pair(path, client: client, monitor: fixture.spot.store.monitor)
                    #expect(head.status == get.status, "\(path)")
                    // On its own, not through GET: a route that answered neither GET nor HEAD
                    // (both 404) would pass the comparison above.
                    if Self.errorPaths.contains(path) {
                        #expect((400..<500).contains(head.status.code), "\(path): \(head.status)")
                    } else {
                        #expect(head.status == .ok, "\(path): \(head.status)")
                    }
                    #expect(head.body.readableBytes == 0, "\(path) has a body")
                    #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(path)")
                    #expect(head.headers[.contentSecurityPolicy] != nil, "\(path)")
                }
                // An event stream's HEAD ends at once (its body is never sent).
                let events = try await client.execute(uri: "/events?list=spots", method: .head) { $0 }
                #expect(events.status == .ok)
                #expect(events.headers[.contentType]?.hasPrefix("text/event-stream") == true)
                #expect(events.body.readableBytes == 0)
                // POST-only routes stay POST-only.
                #expect(try await client.execute(uri: "/api/refresh", method: .head) { $0.status } == .notFound)
            }
        }
    }

    /// The GET and the HEAD of `path`, made while the database monitor saw the database
    /// online. On a machine loaded past its cores the monitor's probe can miss its lock deadline
    /// and mark the database away for a moment, which changes the answers between the two
    /// requests (`/health` 503, an offline marker in a list's JSON). That is availability,
    /// which the outage suites test, not HEAD: such a pair is made again once a probe has
    /// found the database (at most five times; a pair that still disagrees is what is checked).
    static func pair(
        _ path: String, client: some TestClientProtocol, monitor: DatabaseMonitor
    ) async throws -> (get: TestResponse, head: TestResponse) {
        var attempt = 0
        while true {
            let get = try await client.execute(uri: path, method: .get) { $0 }
            let head = try await client.execute(uri: path, method: .head) { $0 }
            attempt += 1
            let away =
                !monitor.status.isOnline || get.status == .serviceUnavailable || head.status == .serviceUnavailable
                || String(buffer: get.body).hasPrefix("{\"offline\":")
            if !away || attempt == 5 { return (get, head) }
            _ = await monitor.check()
        }
    }

    @Test func headOnAPhotoPageLeavesRecentsAlone() async throws {
        try await WebFixture.run { fixture in
            let id = fixture.catalogue[0].id
            let store = fixture.spot.store
            /// The recents as a fresh fetch has them.
            @Sendable func recents() async throws -> [String] {
                let list = try await store.recentList()
                let ids = await list.snapshot().rows.map(\.id)
                await list.close()
                return ids
            }
            try await fixture.application.test(.router) { client in
                #expect(try await client.execute(uri: "/photos/\(id)", method: .head) { $0.status } == .ok)
                let afterHead = try await recents()
                #expect(!afterHead.contains(id), "HEAD made the photo recent")
                #expect(try await client.execute(uri: "/photos/\(id)", method: .get) { $0.status } == .ok)
                let afterGet = try await recents()
                #expect(afterGet.contains(id), "GET did not make the photo recent")
            }
        }
    }

    @Test func curlDashIOnALiveServer() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                // One connection for every request: a HEAD answer with a body would corrupt the next.
                let client = HTTPClient(
                    eventLoopGroupProvider: .singleton,
                    configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 1))
                )
                do {
                    // (Not /health: its answer is the database's state at that moment, 503 when a loaded
                    // machine makes the check miss its second, so two requests may differ.)
                    for path in ["/", "/api/status", "/api/tags", "/static/app.css", "/no/such/page"] {
                        var head = HTTPClientRequest(url: base + path)
                        head.method = .HEAD
                        let answer = try await client.execute(head, timeout: .seconds(30))
                        let body = try await answer.body.collect(upTo: 1 << 20)
                        #expect(body.readableBytes == 0, "\(path)")
                        let get = try await client.execute(HTTPClientRequest(url: base + path), timeout: .seconds(30))
                        let getBody = try await get.body.collect(upTo: 1 << 22)
                        #expect(answer.status == get.status, "\(path)")
                        #expect(answer.headers.first(name: "Content-Length") == String(getBody.readableBytes), "\(path)")
                        #expect(answer.status.code < 400 || path == "/no/such/page", "\(path): \(answer.status)")
                    }
                } catch {
                    try? await client.shutdown()
                    throw error
                }
                try await client.shutdown()
            }
        }
    }
}
