import Foundation
import GRDB
import Testing

@testable import ObjectGraph
@testable import SPoTKit

/// The database monitor tells an outage from a busy machine. On an SQLite file: another
/// program's lock (an outage: pages answer from memory, writes are refused) from this
/// process's own long writes (everything goes on); taking the second for the first refused
/// reads in a loaded test run with "locked by another program" while nobody else had the file
/// open. On any database: a probe that answered from one whose task waits for a thread.
@Suite("The database monitor: an outage told from a busy machine")
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

    // MARK: Probes whose task is late

    /// A monitor whose probe call runs `body` on a thread of its own, while the task awaiting
    /// the call is resumed only once the test calls the returned `release` — as on a machine
    /// so loaded that the awaiting task waits for a thread long after the call answered.
    private static func monitor(
        awayAfter: Duration?,
        body: @escaping @Sendable () throws -> Void
    ) -> (DatabaseMonitor, release: @Sendable () -> Void) {
        let (held, release) = AsyncStream<Void>.makeStream()
        let monitor = DatabaseMonitor(databaseName: "test database", probeDeadline: .milliseconds(100), awayAfter: awayAfter) { call in
            Thread { try? call.run(body) }.start()
            for await _ in held {}
        }
        return (monitor, { release.finish() })
    }

    @Test func anAnswerCountsEvenWhenTheTaskAwaitingItIsLate() async {
        let (answering, release) = Self.monitor(awayAfter: .zero) {}
        defer { release() }
        #expect(await answering.check().isOnline)

        let (locked, releaseLocked) = Self.monitor(awayAfter: nil) {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "locked",
                underlying: SQLiteResultError(code: 5, message: "it is locked by another program", sql: nil),
                file: "/x"
            )
        }
        defer { releaseLocked() }
        let status = await locked.check()
        #expect(!status.isOnline)
        #expect(status.reason == "it is locked by another program", "\(status)")
    }

    @Test func aCallUnansweredPastWhatTheDatabaseAllowsIsAnOutageAndLessIsABusyMachine() async {
        let answer = DispatchSemaphore(value: 0)
        defer { for _ in 0..<3 { answer.signal() } }
        let (server, releaseServer) = Self.monitor(awayAfter: .zero) { answer.wait() }
        defer { releaseServer() }
        let away = await server.check()
        #expect(!away.isOnline)
        #expect(away.reason == "it does not answer (no answer within 0 s)", "\(away)")
        #expect(server.refusal("save to")?.description == "Could not save to the database test database: it does not answer (no answer within 0 s)")

        let (busy, releaseBusy) = Self.monitor(awayAfter: .seconds(3600)) { answer.wait() }
        defer { releaseBusy() }
        #expect(await busy.check().isOnline, "unanswered for less than an hour: only busy")
        let (memory, releaseMemory) = Self.monitor(awayAfter: nil) { answer.wait() }
        defer { releaseMemory() }
        #expect(await memory.check().isOnline, "in memory: never away")
    }
}
