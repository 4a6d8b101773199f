import Flickr
import FlickrSandbox
import Foundation
import Testing

@testable import SPoTKit

@Suite("Refresher: one at a time, on a schedule, faults reported")
struct RefresherTests {
    @Test(.timeLimit(.minutes(10)))
    func refreshesTriggeredDuringARefreshJoinIt() async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open(perPage: 20)
            let pages = (fixture.catalogue.count + 19) / 20
            // Every REST answer waits for the sandbox's clock: the first refresh is still on
            // its first page when the two other triggers arrive.
            fixture.sandbox.setBehavior(SandboxBehavior(restLatencyMilliseconds: 1000))
            let refresher = spot.refresher
            let first = Task { await refresher.refresh() }
            await fixture.sandboxClock.waitForSleepers(count: 1)
            let second = Task { await refresher.refresh() }
            let third = Task { await refresher.refresh() }
            await refresher.waitForTriggers(3)
            // From here on, let every page through as soon as it is asked for.
            let clock = fixture.sandboxClock
            let pager = Task {
                while !Task.isCancelled {
                    await clock.waitForSleepers(count: 1)
                    clock.advance(by: .seconds(1))
                }
            }
            let results = [await first.value, await second.value, await third.value]
            pager.cancel()
            // One run: the two later triggers joined it and got its status.
            #expect(results.map(\.completedRefreshes) == [1, 1, 1])
            #expect(Set(results).count == 1)
            #expect(fixture.sandbox.stats.restCalls("flickr.photos.search") == pages)
            #expect(try await spot.store.counts().photos == fixture.catalogue.count)
        }
    }

    @Test func startRefreshesAnEmptyStoreAtOnceThenOnTheSchedule() async throws {
        try await SPoTFixture.run { fixture in
            let clock = ManualClock()
            var configuration = fixture.configuration()
            configuration.refreshInterval = .seconds(20 * 60)
            configuration.clock = clock
            let spot = try SPoT(configuration: configuration, logger: SPoTFixture.silent)
            let updates = await spot.refresher.statusUpdates()
            var iterator = updates.makeAsyncIterator()
            await spot.startRefreshing()
            func nextFinished() async -> RefreshStatus? {
                while let status = await iterator.next() {
                    if !status.isRunning && status.completedRefreshes > 0 && status.pagesDone > 0 { return status }
                }
                return nil
            }
            let first = await nextFinished()
            #expect(first?.completedRefreshes == 1)
            #expect(first?.newPhotos == fixture.catalogue.count)
            #expect(first?.lastSuccess != nil)

            await clock.waitForSleepers(count: 1)
            #expect(clock.pendingSleeps == [.seconds(20 * 60)])
            fixture.sandbox.setEpoch(1)
            clock.advance(by: .seconds(20 * 60))
            var second = await nextFinished()
            while second?.completedRefreshes == 1 { second = await nextFinished() }
            #expect(second?.completedRefreshes == 2)
            #expect(second?.newPhotos == 3)
            await spot.close()
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aStoreWithPhotosIsNotRefreshedAtStartAndZeroDisablesTheSchedule() async throws {
        try await SPoTFixture.run { fixture in
            let clock = ManualClock()
            var configuration = fixture.configuration()
            configuration.refreshInterval = .zero
            configuration.clock = clock
            let spot = try SPoT(configuration: configuration, logger: SPoTFixture.silent)
            await spot.refresher.refresh()
            fixture.sandbox.resetStats()
            let updates = await spot.refresher.statusUpdates()
            await spot.startRefreshing()
            let schedule = try #require(await spot.refresher.scheduleTask)

            // Whichever comes first: the schedule ends by itself (right), it sleeps on the
            // clock (a schedule), or a refresh starts (a refresh now, or a loop without pause).
            let (outcomes, outcome) = AsyncStream<String>.makeStream()
            let racers = [
                Task {
                    await schedule.value
                    outcome.yield("the schedule ended")
                },
                Task {
                    await clock.waitForSleepers(count: 1)
                    if !Task.isCancelled { outcome.yield("the schedule sleeps \(clock.pendingSleeps)") }
                },
                Task {
                    for await status in updates.dropFirst() where status.isRunning {
                        outcome.yield("a refresh started")
                        return
                    }
                },
            ]
            var first: String?
            for await event in outcomes {
                first = event
                break
            }
            for racer in racers.dropFirst() { racer.cancel() }
            #expect(first == "the schedule ended")

            // A day passes on the refresher's clock: nothing runs, nothing sleeps on it.
            clock.advance(by: .seconds(24 * 60 * 60))
            #expect(clock.sleepHistory.isEmpty)
            #expect(await spot.refresher.status.completedRefreshes == 1)
            #expect(fixture.sandbox.stats.requests == 0)
            await spot.close()
            #expect(fixture.sandbox.stats.requests == 0)
        }
    }

    @Test func readersDoNotWaitForARefresh() async throws {
        let sandboxClock = ManualClock()
        try await TemporaryDirectory.with { directory in
            let sandbox = FlickrSandbox(
                configuration: SandboxConfiguration(clock: sandboxClock, logger: SPoTFixture.silent)
            )
            var flickr = FlickrConfiguration.sandbox(baseURL: try await sandbox.start())
            flickr.retryPolicy = .none
            var configuration = SPoTConfiguration(dataDirectory: directory.url, flickr: flickr)
            configuration.refreshInterval = .zero
            let spot = try SPoT(configuration: configuration, logger: SPoTFixture.silent)
            await spot.refresher.refresh()
            let list = try await spot.store.spotList()
            let before = await list.snapshot()

            // Every REST answer now waits for the sandbox's clock, which only this test moves.
            sandbox.setBehavior(SandboxBehavior(restLatencyMilliseconds: 60_000))
            let refresh = Task { await spot.refresher.refresh() }
            let updates = await spot.refresher.statusUpdates()
            _ = await updates.first { $0.isRunning }
            await sandboxClock.waitForSleepers(count: 1)
            // The refresh is under way: reads answer anyway.
            #expect(try await spot.store.counts().photos == SandboxCatalogue.stanford.spotPhotos(atEpoch: 0).count)
            #expect(await list.snapshot().rows == before.rows)
            #expect(try await spot.store.spot("all").photoCount == before.rows.first?.photoCount)
            #expect(await spot.refresher.status.isRunning)
            sandboxClock.advance(by: .seconds(60))
            #expect(await refresh.value.lastError == nil)
            await list.close()
            await sandbox.stop()
        }
    }

    @Test(arguments: SandboxFault.allCases.filter(\.appliesToREST))
    func aFlickrFaultLeavesTheDataIntactAndIsReported(fault: SandboxFault) async throws {
        try await SPoTFixture.run { fixture in
            let spot = try fixture.open(perPage: 20)
            await spot.refresher.refresh()
            let list = try await spot.store.photoList(spot: "all")
            let before = await list.snapshot()
            let counts = try await spot.store.counts()
            fixture.sandbox.setEpoch(SandboxCatalogue.stanford.maxEpoch)
            fixture.sandbox.setBehavior(SandboxBehavior(nextFaults: [fault]))
            let status = await spot.refresher.refresh()
            #expect(status.lastError != nil, "\(fault)")
            #expect(status.lastFailure != nil)
            #expect(status.lastSuccess != nil)  // the earlier success is still reported
            #expect(!status.isRunning)
            #expect(try await spot.store.counts() == counts)
            #expect(await list.snapshot().rows == before.rows)
            // The next refresh succeeds and applies the changes.
            let retry = await spot.refresher.refresh()
            #expect(retry.lastError == nil)
            #expect(try await spot.store.counts().photos > counts.photos)
            await list.close()
        }
    }
}

@Suite("Refresher: stopping")
struct RefresherStopTests {
    @Test(.timeLimit(.minutes(10)))
    func stoppingKeepsTheSavedPagesAndFetchesNoMore() async throws {
        try await TemporaryDirectory.with { directory in
            // Every REST answer waits for this clock, so the test decides when each page arrives.
            let clock = ManualClock()
            let sandbox = FlickrSandbox(
                configuration: SandboxConfiguration(
                    behavior: SandboxBehavior(restLatencyMilliseconds: 100),
                    clock: clock,
                    logger: SPoTFixture.silent
                )
            )
            var flickr = FlickrConfiguration.sandbox(baseURL: try await sandbox.start())
            flickr.retryPolicy = .none
            var configuration = SPoTConfiguration(dataDirectory: directory.url, flickr: flickr)
            configuration.refreshInterval = .zero
            configuration.perPage = 10
            let spot = try SPoT(configuration: configuration, logger: SPoTFixture.silent)
            var updates = await spot.refresher.statusUpdates().makeAsyncIterator()
            let refresh = Task { await spot.refresher.refresh() }
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(100))  // page 1 arrives
            while let status = await updates.next(), status.pagesDone < 1 {}
            await clock.waitForSleepers()  // page 2 is on its way
            // Stopping cancels the request for page 2: it never arrives.
            await spot.refresher.stop()
            let status = await refresh.value
            #expect(!status.isRunning)
            #expect(status.pagesDone == 1)
            #expect(status.lastError?.contains("stopped") == true, "\(status.lastError ?? "no error")")
            #expect(try await spot.store.counts().photos == 10, "the saved page is kept, nothing after it")
            await sandbox.stop()
        }
    }
}
