import Foundation
import SPoTKit
import Testing

@testable import SPoTWeb

@Suite("The server's open lists")
struct ListHubTests {
    @Test func listsBeyondTheCapacityAreClosedLeastRecentlyUsedFirstUnlessSomeoneListens() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer, capacity: 2, logger: WebFixture.silent)
            let spots = try await hub.feed(.spots)  // pinned: never closed
            let listened = try await hub.feed(.spot("hoovertower"))
            var events = listened.subscribe().makeAsyncIterator()
            guard case .snapshot = await events.next() else { throw EventStreamError(message: "no snapshot first") }
            for address in ["all", "mainquad", "dish", "angelofgrief"] {
                _ = try await hub.feed(.spot(address))
            }
            // Two unpinned lists stay open, the one with a listener among them, plus the tabs' list.
            #expect(await hub.openCount == 3)
            #expect(try await hub.feed(.spots) === spots)
            #expect(try await hub.feed(.spot("hoovertower")) === listened)
            await hub.closeAll()
            #expect(await events.next() == nil, "closing ends the listener's stream")
        }
    }

    @Test func concurrentRequestsForOneListShareOneFeed() async throws {
        try await WebFixture.run { fixture in
            let hub = ListHub(store: fixture.spot.store, renderer: fixture.web.renderer, logger: WebFixture.silent)
            async let a = hub.feed(.spot("all"))
            async let b = hub.feed(.spot("all"))
            let (first, second) = try await (a, b)
            #expect(first === second)
            await hub.closeAll()
        }
    }
}
