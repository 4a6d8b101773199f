import Foundation
import GRDB
import Testing

@testable import ObjectGraph
@testable import SPoTKit

/// The database monitor on an SQLite file tells another program's lock (an outage: pages
/// answer from memory, writes are refused) from this process's own long writes (a busy
/// machine: everything goes on). Taking the second for the first refused reads in a loaded
/// test run with "locked by another program" while nobody else had the file open.
@Suite("The database monitor on an SQLite file")
struct DatabaseMonitorTests {
    @Test func thisProcessesOwnWriteHoldingTheLockLeavesTheDatabaseOnline() async throws {
        try await TemporaryDirectory.with { directory in
            let store = try SPoTStore(url: directory.appending("SPoT.sqlite"))
            let sqlite = try #require(store.container.persistentStoreCoordinator.store as? SQLiteStore)
            var statuses = store.monitor.updates().makeAsyncIterator()
            #expect(await statuses.next()?.isOnline == true)

            // A write of this process holds the lock until the probe has answered.
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let writer = Thread {
                try? sqlite.writeTransaction { db in
                    try db.execute(sql: "UPDATE ZTAG SET ZRANK = ZRANK")
                    held.signal()
                    release.wait()
                }
            }
            writer.start()
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    held.wait()
                    continuation.resume()
                }
            }
            let status = await store.monitor.check()
            release.signal()
            #expect(status.isOnline, "\(status)")
            #expect(store.monitor.refusal("save to") == nil)

            // The write went through, and nobody was told of an outage.
            writer.cancel()
            let counts = try await store.counts()
            #expect(counts.photos == 0)
            #expect(store.monitor.status.isOnline)
        }
    }

    @Test func anotherConnectionHoldingTheLockTakesTheDatabaseOfflineUntilItLetsGo() async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appending("SPoT.sqlite")
            let store = try SPoTStore(url: file)
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: file.path, configuration: configuration)
            try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }

            let offline = await store.monitor.check()
            #expect(!offline.isOnline)
            #expect(offline.reason?.contains("locked by another program") == true, "\(offline)")
            let refusal = try #require(store.monitor.refusal("save to"))
            #expect(refusal.kind == .unavailable)
            #expect(refusal.description.contains(file.path), "the refusal names the file: \(refusal)")

            try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            var statuses = store.monitor.updates().makeAsyncIterator()
            while await statuses.next()?.isOnline == false {}
            #expect(store.monitor.refusal("save to") == nil)
            #expect(try await store.counts().photos == 0)
        }
    }
}
