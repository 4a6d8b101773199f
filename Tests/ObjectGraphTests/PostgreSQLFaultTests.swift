import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// A PostgreSQL server stopped (as by a crash) and started again under an open store: while it
/// is down every fetch and save fails with an error naming the server — no crash, no silent
/// empty result — and afterwards the store goes on, every acknowledged save there, the failed
/// one absent until it is saved again.
@Suite("PostgreSQL: a server stopped and started mid-run", .timeLimit(.minutes(10)))
struct PostgreSQLFaultTests {
    /// Inserts photos `uniques` in a new background context and saves; returns the save's error.
    static func insert(_ uniques: [String], in context: ManagedObjectContext) -> String? {
        context.performAndWait {
            for unique in uniques {
                let photo = Photo(context: context)
                photo.unique = unique
                photo.title = "Photo \(unique)"
            }
            do {
                try context.save()
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    /// The uniques of every photo in the store, by a fresh fetch; or the fetch's error.
    static func uniques(in container: PersistentContainer) -> Result<Set<String>, ErrorText> {
        let context = container.newBackgroundContext()
        return context.performAndWait {
            do {
                return .success(Set(try context.fetch(Photo.fetchRequest()).compactMap(\.unique)))
            } catch {
                return .failure(ErrorText(text: "\(error)"))
            }
        }
    }

    struct ErrorText: Error { let text: String }

    @Test("down: errors naming the server; up again: every acknowledged save there, the failed one saved on retry")
    func serverStoppedAndStarted() async throws {
        // Every step blocks on the server or on pg_ctl: on a thread of its own.
        let server = try await OwnThread.run { try PrivatePostgresServer.start() }
        defer { server.remove() }
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        let container = try TestStack(description: PersistentStoreDescription(postgreSQLURL: server.url(schema: "fault"))).container
        let acknowledged = (0..<20).map { "a\($0)" }
        let first = try await OwnThread.run { Self.insert(acknowledged, in: container.newBackgroundContext()) }
        #expect(first == nil, "\(first ?? "")")

        try await OwnThread.run { try server.stopImmediately() }
        let serverName = "127.0.0.1:\(server.port)"
        let whileDown = try await OwnThread.run { Self.uniques(in: container) }
        switch whileDown {
        case .success(let found): Issue.record("a fetch with the server down returned \(found.count) photos instead of failing")
        case .failure(let error): #expect(error.text.contains(serverName), "\(error.text)")
        }
        // A lease (what a database monitor's probe takes) fails with the connection's own
        // error instead of waiting out the store's timeout in the pool's queue.
        let lease = try await OwnThread.run { () -> String in
            do {
                let lease = try container.persistentStoreCoordinator.tryExclusiveLease(named: "probe")
                lease?.release()
                return "taken"
            } catch {
                return "\(error)"
            }
        }
        #expect(lease.contains("did not answer a new connection"), "\(lease)")
        #expect(lease.contains(serverName), "\(lease)")
        let pending = container.newBackgroundContext()
        let failedSave = try await OwnThread.run { Self.insert(["b0", "b1"], in: pending) }
        let failure = try #require(failedSave, "a save with the server down succeeded")
        #expect(failure.contains(serverName), "\(failure)")

        try await OwnThread.run { try server.startServer() }
        // Back: the store reconnects by itself; nothing acknowledged is lost and the failed
        // save left nothing behind.
        let afterRestart = try await OwnThread.run { Self.uniques(in: container) }
        #expect(try afterRestart.get() == Set(acknowledged))
        // The context that failed still holds its inserts; saving again stores them once.
        let retried = try await OwnThread.run {
            pending.performAndWait { () -> String? in
                do {
                    try pending.save()
                    return nil
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(retried == nil, "\(retried ?? "")")
        let final = try await OwnThread.run { Self.uniques(in: container) }
        #expect(try final.get() == Set(acknowledged + ["b0", "b1"]))
    }
}
