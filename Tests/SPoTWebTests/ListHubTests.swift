import Foundation
import Hummingbird
import SPoTKit
import Testing

@testable import SPoTWeb

@Suite("The server's open lists")
struct ListHubTests {
    @Test func listsBeyondTheCapacityAreClosedLeastRecentlyUsedFirstUnlessSomeoneListens() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer, capacity: 2)
            let spots = try await hub.feed(.spots)  // pinned: never closed
            let listened = try await hub.feed(.spot("hoovertower"))
            let listener = Wakeup()
            listened.events.register(listener)  // as an open event stream does
            #expect(String(buffer: listened.snapshotEvent().event.text).hasPrefix("event: snapshot\n"))
            for address in ["all", "mainquad", "dish", "angelofgrief"] {
                _ = try await hub.feed(.spot(address))
            }
            // Two unpinned lists stay open, the one with a listener among them, plus the tabs' list.
            #expect(await hub.openCount == 3)
            #expect(try await hub.feed(.spots) === spots)
            #expect(try await hub.feed(.spot("hoovertower")) === listened)
            await hub.closeAll()
            guard case .closed = listened.events.read(after: listened.events.latestVersion) else {
                Issue.record("closing the hub must end the listener's stream")
                return
            }
        }
    }

    @Test func listsOpenedAtOnceForEventStreamsStayOpenBeyondTheCapacity() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer, capacity: 2)
            let addresses = ["all", "mainquad", "dish", "angelofgrief", "hoovertower"]
            // Each stream's reader is registered as its list is handed out: no list opened for
            // one stream can be closed to make room for another's before its stream reads.
            let feeds = try await withThrowingTaskGroup(of: (String, any ListFeed).self) { group in
                for address in addresses {
                    group.addTask { (address, try await hub.feed(.spot(address), reader: Wakeup())) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for (address, feed) in feeds {
                if case .closed = feed.events.read(after: feed.events.latestVersion) {
                    Issue.record("the list of \(address) was closed under its stream")
                }
                #expect(try await hub.feed(.spot(address)) === feed)
            }
            #expect(await hub.openCount == addresses.count)
            await hub.closeAll()
        }
    }

    @Test func aSpotNamedInAnotherCaseSharesTheFeedOfItsAddress() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer)
            let canonical = try await hub.feed(.spot("hoovertower"))
            let other = try await hub.feed(.spot("HooverTower"))
            #expect(other === canonical)
            #expect(other.info.id == .spot("hoovertower"))
            #expect(other.info.title == "Hoovertower")
            #expect(await hub.openCount == 1)
            await hub.closeAll()
        }
    }

    @Test func concurrentRequestsForOneListShareOneFeed() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer)
            async let a = hub.feed(.spot("all"))
            async let b = hub.feed(.spot("all"))
            let (first, second) = try await (a, b)
            #expect(first === second)
            await hub.closeAll()
        }
    }
}
