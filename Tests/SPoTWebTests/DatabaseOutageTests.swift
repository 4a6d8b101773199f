import AsyncHTTPClient
import Flickr
import FlickrSandbox
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

/// A database outage is a state, not a hang: `spot serve` on PostgreSQL with the server
/// stopped, and on SQLite with another process holding the file's lock past the busy timeout,
/// keeps answering its open lists from memory with an "offline" marker, answers `/health`,
/// writes and lists it has not opened with 503 and the reason, and, when the database is
/// back, converges by itself and takes writes again. Nothing refused during the outage is
/// saved. No request may hang (each has 30 s); how fast they answer is printed, not asserted
/// (the server's own deadlines keep them fast; a loaded machine must not fail the test).
@Suite("Database outages: pages keep serving", .serialized, .timeLimit(.minutes(10)))
struct DatabaseOutageTests {
    @Test func postgreSQLStoppedAndStartedAgain() async throws {
        let postgres = try await OwnThread.run { try PrivatePostgresServer.start() }
        defer { postgres.remove() }
        let directory = Self.temporaryDirectory("spot-outage-pg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = postgres.url(schema: "outage").absoluteString
        let server = try ServerProcess.start(["serve", "--port", "0", "--data-dir", directory.path, "--database", database, "--refresh-minutes", "0"])
        let base = try await server.url()
        try await Self.exerciseOutage(
            server: server,
            base: base,
            databaseName: "postgres://objectgraph@127.0.0.1:\(postgres.port)",
            begin: { try await OwnThread.run { try postgres.stopImmediately() } },
            end: { try await OwnThread.run { try postgres.startServer() } }
        )
        #expect(try await server.stop(signal: SIGTERM) == 0, "\(server.output)")
    }

    @Test func sqliteLockedByAnotherProcess() async throws {
        let directory = Self.temporaryDirectory("spot-outage-sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess.start(["serve", "--port", "0", "--data-dir", directory.path, "--refresh-minutes", "0"])
        let base = try await server.url()
        let file = directory.appendingPathComponent("SPoT.sqlite").path
        let holder = LockHolder()
        try await Self.exerciseOutage(
            server: server,
            base: base,
            databaseName: file,
            begin: { try await holder.lock(file) },
            end: { try await holder.release() }
        )
        #expect(try await server.stop(signal: SIGTERM) == 0, "\(server.output)")
    }

    // MARK: The outage, on either database

    /// Opens lists, starts the outage with `begin`, checks what is served and refused, ends it
    /// with `end`, and checks that the server converges and takes a hide again. An error is
    /// reported with the step it ended and what the server printed.
    static func exerciseOutage(
        server: ServerProcess,
        base: String,
        databaseName: String,
        begin: () async throws -> Void,
        end: () async throws -> Void
    ) async throws {
        var step = "waiting for the first refresh"
        do {
            try await exerciseOutage(base: base, databaseName: databaseName, begin: begin, end: end) { step = $0 }
        } catch {
            Issue.record("\(error) while \(step); the server printed:\n\(server.output.suffix(6000))")
            throw error
        }
    }

    private static func exerciseOutage(
        base: String,
        databaseName: String,
        begin: () async throws -> Void,
        end: () async throws -> Void,
        step: (String) -> Void
    ) async throws {
        let catalogue = SandboxCatalogue.stanford.photos(atEpoch: 0).filter { $0.hasTag(FlickrPhotoQuery.spotTag) }
        try await PostgreSQLInstancesTests.waitUntilSettled(base, showing: catalogue.count)

        step("opening lists before the outage")
        // Lists opened before the outage: the tabs' and two spots'.
        let hoover = try await Self.rowIDs(Self.get(base + "api/tags/hoovertower/photos").json())
        let all = try await Self.rowIDs(Self.get(base + "api/tags/all/photos").json())
        let spots = try await Self.rowIDs(Self.get(base + "api/tags").json())
        #expect(try await Self.get(base + "tags/hoovertower").status == .ok)
        let victim = try #require(hoover.first)
        let unopened = try #require(spots.first { !["all", "hoovertower"].contains($0) })
        var events = try await EventStreamReader.connect(base + "events?list=tags%2Fhoovertower")
        _ = try await events.next(named: "snapshot")

        step("starting the outage")
        try await begin()

        // The first request to need the database finds it gone; the monitor's probe (given two
        // seconds, so that a loaded machine does not pass for an outage) then tells everyone,
        // the open event stream included.
        step("waiting for the event stream to say the database is offline")
        _ = try await Self.get(base + "health")
        while try await Self.nextStatus(&events)["isOnline"] as? Bool != false {}
        let clock = ContinuousClock()

        step("checking what is served while offline")
        // `/health`: 503, naming the database.
        let health = try await Self.get(base + "health")
        #expect(health.status == .serviceUnavailable, "\(health.body)")
        let unhealthy = try health.json()
        #expect((unhealthy["database"] as? String ?? "").hasPrefix(databaseName), "\(unhealthy)")
        #expect(!(unhealthy["error"] as? String ?? "").isEmpty, "\(unhealthy)")

        // Open lists answer from memory, marked offline.
        var times: [Duration] = []
        for _ in 0..<50 {
            let started = clock.now
            let answer = try await Self.get(base + "api/tags/all/photos")
            times.append(clock.now - started)
            #expect(answer.status == .ok)
        }
        print("DatabaseOutage (\(databaseName)): /api/tags/all/photos p99 \(times.sorted()[49]) over 50 requests while offline")
        for path in ["api/tags/all/photos", "api/tags/hoovertower/photos", "api/tags"] {
            let answer = try await Self.get(base + path)
            #expect(answer.status == .ok, "\(path): \(answer.body)")
            let list = try answer.json()
            #expect((list["offline"] as? [String: Any])?["reason"] is String, "\(path): \(answer.body.prefix(300))")
        }
        #expect(try await Self.rowIDs(Self.get(base + "api/tags/all/photos").json()) == all)
        let page = try await Self.get(base + "tags/hoovertower")
        #expect(page.status == .ok)
        #expect(page.body.contains("<div id=\"offline\" class=\"offline\" role=\"status\">"), "the page shows the offline marker")
        #expect(page.body.contains("Database offline since"))
        let status = try await Self.get(base + "api/status").json()
        #expect((status["database"] as? [String: Any])?["isOnline"] as? Bool == false, "\(status)")

        // Event streams: a new one gets its snapshot from memory.
        var late = try await EventStreamReader.connect(base + "events?list=tags%2Fhoovertower")
        let snapshot = try await late.next(named: "snapshot").object()
        #expect(((snapshot["snapshot"] as? [String: Any])?["sections"] as? [Any])?.isEmpty == false)

        // Reported, not asserted: how long /health and a refused hide take while offline.
        let healthStarted = clock.now
        #expect(try await Self.get(base + "health").status == .serviceUnavailable)
        let healthTime = clock.now - healthStarted

        // What needs the database is refused with the reason, and nothing is saved.
        let hideStarted = clock.now
        let hide = try await Self.post(base, "api/photos/\(victim)/hide")
        print("DatabaseOutage (\(databaseName)): /health 503 in \(healthTime), a hide 503 in \(clock.now - hideStarted) while offline")
        #expect(hide.status == .serviceUnavailable, "\(hide.body)")
        #expect(try hide.json()["error"] as? String != nil)
        let formHide = try await Self.post(base, "photos/\(victim)/hide")
        #expect(formHide.status == .serviceUnavailable)
        #expect(try await Self.post(base, "api/refresh").status == .serviceUnavailable)
        let newList = try await Self.get(base + "tags/\(unopened)")
        #expect(newList.status == .serviceUnavailable, "a list opened for the first time: \(newList.status)")
        #expect(newList.body.contains("database"))
        #expect(try await Self.get(base + "photos/\(victim)").status == .serviceUnavailable)

        step("ending the outage")
        try await end()

        // Back: the stream told, healthy, the lists fresh and unmarked, by themselves.
        step("waiting for the event stream to say the database is back")
        let back = clock.now
        while try await Self.nextStatus(&events)["isOnline"] as? Bool != true {}
        print("DatabaseOutage (\(databaseName)): told the database is back \(clock.now - back) after it came back")
        step("checking the server after the outage")
        let recovered = try await Self.get(base + "health")
        #expect(recovered.status == .ok, "\(recovered.body)")
        let list = try await Self.get(base + "api/tags/hoovertower/photos").json()
        #expect(list["offline"] == nil)
        #expect(Self.rowIDs(list) == hoover, "the hide refused during the outage was not applied")
        let photo = try await Self.get(base + "api/photos/\(victim)").json()
        #expect(photo["isHidden"] as? Bool == false, "\(photo)")

        step("hiding a photo after the outage")
        // And writes work again.
        #expect(try await Self.post(base, "api/photos/\(victim)/hide").status == .ok)
        #expect(try await Self.rowIDs(Self.get(base + "api/tags/hoovertower/photos").json()) == hoover.filter { $0 != victim })
        // The open stream says so: a change deleting one row, or (when the list's fetch after the
        // outage ran after the hide) a reload without the photo.
        while true {
            let change = try await events.next(named: "change").object()
            if let reload = change["reload"] as? [[String: Any]] {
                if !Self.rowIDs(["sections": reload]).contains(victim) { break }
                continue
            }
            #expect((change["deletedRows"] as? [Any])?.count == 1, "\(change)")
            break
        }
    }

    // MARK: Helpers

    struct Answer {
        var status: HTTPResponseStatus
        var body: String
        func json() throws -> [String: Any] { try SPoTWebTests.json(body) }
    }

    /// `GET url`, failing unless it answers within `seconds`.
    static func get(_ url: String, within seconds: Int64 = 30) async throws -> Answer {
        try await send(HTTPClientRequest(url: url), within: seconds)
    }

    /// A same-origin `POST` of `path`, as the page's script or form sends it.
    static func post(_ base: String, _ path: String, within seconds: Int64 = 30) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Origin", value: String(base.dropLast()))
        return try await send(request, within: seconds)
    }

    private static func send(_ request: HTTPClientRequest, within seconds: Int64) async throws -> Answer {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(seconds))
        let body = try await response.body.collect(upTo: 32 << 20)
        return Answer(status: response.status, body: String(buffer: body))
    }

    /// Every row id of a list's JSON, in order.
    static func rowIDs(_ list: [String: Any]) -> [String] {
        (list["sections"] as? [[String: Any]] ?? []).flatMap { $0["rows"] as? [[String: Any]] ?? [] }.compactMap { $0["id"] as? String }
    }

    /// The database status of the next `status` event.
    static func nextStatus(_ events: inout EventStreamReader) async throws -> [String: Any] {
        let status = try await events.next(named: "status").object()
        return status["database"] as? [String: Any] ?? [:]
    }

    static func temporaryDirectory(_ prefix: String) -> URL {
        FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
    }
}

/// Another process holding an SQLite file's write lock (`BEGIN EXCLUSIVE`, Python's sqlite3)
/// until released: readers go on (WAL), every writer waits for it.
final class LockHolder: @unchecked Sendable {
    // @unchecked Sendable: the process, its pipe and its exit are set in `lock` and used in
    // `release`, one after the other, by one test.
    private var input: Pipe?
    private var exited: AsyncStream<Int32>?

    private static let script = """
        import os, sqlite3, sys
        connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)
        connection.execute("BEGIN EXCLUSIVE")
        print("held", flush=True)
        sys.stdin.read()
        connection.execute("ROLLBACK")
        """

    /// Starts the holder and returns once it holds the lock (it says so on its output).
    func lock(_ file: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, file]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let (exited, exit) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        try process.run()
        (self.input, self.exited) = (input, exited)
        // A blocking read on a thread of its own: "held", or end of file if the holder failed.
        let said = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: String(decoding: output.fileHandleForReading.readData(ofLength: 4), as: UTF8.self))
            }
        }
        guard said == "held" else { throw EventStreamError(message: "the lock holder did not take the lock") }
    }

    /// Ends the holder's transaction and waits for it to exit.
    func release() async throws {
        try input?.fileHandleForWriting.close()
        guard let exited else { return }
        for await _ in exited {}
    }
}
