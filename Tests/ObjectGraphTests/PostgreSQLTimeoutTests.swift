import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// `NSPersistentStoreTimeoutOption` on PostgreSQL: how long an operation waits without progress
/// before the store asks the server how it is — not how long a save the server keeps answering,
/// or a statement it is still executing, may take.
@Suite("PostgreSQL: the operation timeout", .timeLimit(.minutes(5)))
struct PostgreSQLTimeoutTests {
    /// A container on the store at `url` waiting `timeout` seconds for the server.
    private static func open(_ url: URL, timeout: Double) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Timeout", managedObjectModel: try HistoryStack.model())
        let description = PersistentStoreDescription(postgreSQLURL: url)
        description.setOption(timeout, forKey: PersistentStore.timeoutOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @Test("a save kept waiting past the timeout fails, naming the server and the wait, with nothing saved; it saves once the lock is free")
    func waitingSaveTimesOut() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let schema = try PostgresShell.schema(of: url)
        let container = try Self.open(url, timeout: 1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            Photo(context: context).unique = "before"
            try context.save()
        }
        // Another session holds the lock every save takes to number its history.
        let session = try PostgresShell.hold("SELECT pg_advisory_lock(hashtext('ObjectGraph.history.\(schema)'))", in: url)
        let clock = ContinuousClock()
        let started = clock.now
        try context.performAndWait {
            Photo(context: context).unique = "blocked"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            let text = String(describing: error)
            #expect(text.contains("127.0.0.1") || text.contains("localhost"), "names the server: \(text)")
            #expect(text.contains("no answer within"), "says it waited: \(text)")
            #expect(text.contains("waiting for a lock (advisory)"), "says for what: \(text)")
        }
        #expect(clock.now - started < .seconds(30), "the option's second, not the default 30 s")
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTO" WHERE "ZUNIQUE" = 'blocked'"#, in: url) == ["0"])

        session.end()
        try context.performAndWait { try context.save() }
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTO""#, in: url) == ["2"])
    }

    @Test("a save the server keeps answering goes on past the timeout: 3,000 updates of a millisecond each, with a 2-second timeout")
    func busySaveGoesOn() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let container = try Self.open(url, timeout: 2)
        let context = container.newBackgroundContext()
        let count = 3_000
        let photos = try context.performAndWait {
            let photos = (0..<count).map { index in
                let photo = Photo(context: context)
                photo.unique = "p\(index)"
                return photo
            }
            try context.save()
            return photos
        }
        // Each updated row costs the server at least a millisecond: the save takes 3 s or
        // more, and answers every statement within the timeout.
        try PostgresShell.run(
            #"""
            CREATE FUNCTION slow_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.001); RETURN NEW; END $$;
            CREATE TRIGGER slow_update BEFORE UPDATE ON "ZPHOTO" FOR EACH ROW EXECUTE FUNCTION slow_update();
            """#,
            in: url
        )
        let clock = ContinuousClock()
        let started = clock.now
        try context.performAndWait {
            for photo in photos { photo.title = "Title of \(photo.unique ?? "")" }
            try context.save()
        }
        #expect(clock.now - started > .seconds(2), "the save outlasted the timeout")
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTO" WHERE "ZTITLE" LIKE 'Title of %'"#, in: url) == ["\(count)"])
    }

    @Test("a statement the server executes for longer than the timeout is waited for: one update of 3 s, with a 1-second timeout")
    func longStatementWaitedFor() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let container = try Self.open(url, timeout: 1)
        let context = container.newBackgroundContext()
        let photo = try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "slow"
            try context.save()
            return photo
        }
        // One statement, no progress to report while it runs: the server is busy with it.
        try PostgresShell.run(
            #"""
            CREATE FUNCTION slow_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$;
            CREATE TRIGGER slow_update BEFORE UPDATE ON "ZPHOTO" FOR EACH ROW EXECUTE FUNCTION slow_update();
            """#,
            in: url
        )
        let clock = ContinuousClock()
        let started = clock.now
        try context.performAndWait {
            photo.title = "Saved slowly"
            try context.save()
        }
        #expect(clock.now - started > .seconds(3), "the statement outlasted the timeout")
        #expect(try PostgresShell.run(#"SELECT "ZTITLE" FROM "ZPHOTO" WHERE "ZUNIQUE" = 'slow'"#, in: url) == ["Saved slowly"])
    }

    @Test("a server that stops answering (every process frozen) fails a save within seconds, naming the server and why")
    func frozenServerFailsFast() async throws {
        let server = try await OwnThread.run { try PrivatePostgresServer.start() }
        defer { server.remove() }
        let container = try Self.open(server.url(schema: "frozen"), timeout: 1)
        let context = container.newBackgroundContext()
        try await OwnThread.run {
            try context.performAndWait {
                Photo(context: context).unique = "before"
                try context.save()
            }
        }
        try server.signalEveryProcess(SIGSTOP)
        defer { try? server.signalEveryProcess(SIGCONT) }
        let clock = ContinuousClock()
        let started = clock.now
        let failure = try await OwnThread.run {
            context.performAndWait { () -> String? in
                Photo(context: context).unique = "frozen"
                do {
                    try context.save()
                    return nil
                } catch {
                    return "\(error)"
                }
            }
        }
        let elapsed = clock.now - started
        let text = try #require(failure, "a save on a frozen server succeeded")
        #expect(text.contains("127.0.0.1:\(server.port)"), "names the server: \(text)")
        #expect(text.contains("did not answer a new connection"), "says why: \(text)")
        // The timeout (1 s), then the check's own connection (at most the timeout again): the
        // save fails instead of waiting for the server. Not a latency bound (a loaded machine
        // took 13.6 s): a save that waited for the server would wait until it is thawed.
        #expect(elapsed < .seconds(90), "failed instead of waiting for the server: \(elapsed)")
    }

    @Test("a timeout that is not a positive number is refused, naming the option", arguments: [0.0, -1.0, Double.nan])
    func badTimeoutRefused(_ timeout: Double) throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let error = try #require(throws: ObjectGraphError.self) { _ = try Self.open(url, timeout: timeout) }
        #expect(String(describing: error).contains(PersistentStore.timeoutOption))
    }
}
