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
