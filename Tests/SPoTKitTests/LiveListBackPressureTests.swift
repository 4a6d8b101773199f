import Flickr
import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

@Suite("Live lists: subscribers that fall behind")
struct LiveListBackPressureTests {
    @Test(.timeLimit(.minutes(10)))
    func aSubscriberThatStopsReadingCostsNothingAndResynchronisesWhileOthersGetEveryChange() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let list = try await spot.store.photoList(spot: "hoovertower")
            let photo = try #require(list.current.rows.first?.id)
            var reader = await ChangeFollower(list)
            let (stalledSnapshot, stalledChanges) = await list.subscribe()
            var stalled = stalledChanges.makeAsyncIterator()
            #expect(list.subscriberCount == 2)

            // 1,000 changes, each read by one subscriber as it comes and by the other not at all.
            let writes = 1_000
            for index in 0..<writes {
                if index.isMultiple(of: 2) { try await spot.store.hide(photo) } else { try await spot.store.unhide(photo) }
                let (change, _) = try await reader.next()
                #expect(change.version == stalledSnapshot.version + index + 1)
            }
            // The list keeps its latest change sets only, not a queue per subscriber.
            #expect(list.changeLog.read(after: stalledSnapshot.version).isBehind)
            let latest = list.current
            #expect(latest.version == stalledSnapshot.version + writes)

            // The stalled subscriber, reading again, gets the whole content at the latest version
            // in one change set, and then follows from there.
            let resynchronised = try #require(await stalled.next())
            #expect(resynchronised.version == latest.version)
            #expect(resynchronised.reload == latest.sections)
            try await spot.store.hide(photo)
            let next = try #require(await stalled.next())
            #expect(next.version == latest.version + 1)
            #expect(next.deletedRows.count == 1)
            await list.close()
            #expect(await stalled.next() == nil, "closing ends every subscriber's sequence")
        }
    }
}

extension ChangeLog.Read {
    /// Whether the reader is further behind than the log keeps.
    var isBehind: Bool {
        if case .behind = self { return true }
        return false
    }
}
