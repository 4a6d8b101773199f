import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SPoTKit
import TestSupport
import Testing

@testable import SPoTWeb

/// Many event streams on a real `spot serve`, as many browsers: connections that come and go
/// while a list changes, a browser that stops reading, and the order of versions under
/// concurrent writers.
///
/// The server runs as a child process, so a server that hangs fails a deadline here instead
/// of freezing the test process.
@Suite("Event streams under load, on a real spot serve", .timeLimit(.minutes(10)))
struct LiveEventLoadTests {
    /// A client with room for hundreds of connections to one host (the shared client keeps 8).
    ///
    /// Its connections may take a minute to be made: its event loops are the test process's,
    /// shared with every test of the suite, and on a loaded machine a connect the kernel has
    /// completed is seen there seconds late. With AsyncHTTPClient's 10 s, such connects failed
    /// and the pool's growing back-off between attempts kept streams from opening for over a
    /// minute (18 of 500 in one round), though the server had queued them all.
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(60))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 2_000)
        return HTTPClient(eventLoopGroupProvider: .shared(loadGroup), configuration: configuration)
    }

    /// The event loop the load's clients run on, apart from NIO's shared loops: hundreds of
    /// streams opening at once must not queue the other tests' clients and in-process servers,
    /// which run on those, behind them.
    static let loadGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// A client for many connections and a served tour on a fresh data folder, refreshed once;
    /// `body` gets the server's base URL.
    static func withClientAndServer(
        openFilesLimit: Int? = nil,
        _ body: (HTTPClient, ServerProcess, String) async throws -> Void
    ) async throws {
        let client = makeClient()
        do {
            try await withServer(openFilesLimit: openFilesLimit) { server, base in try await body(client, server, base) }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// A served tour on a fresh data folder, refreshed once; `body` gets its base URL.
    static func withServer(openFilesLimit: Int? = nil, _ body: (ServerProcess, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "spot-load-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess.start(
            ["serve", "--port", "0", "--data-dir", directory.path, "--refresh-minutes", "0"],
            openFilesLimit: openFilesLimit
        )
        do {
            let base = try await server.url()
            // The empty database's first refresh runs at once: wait for it (each status event
            // is a moment it may have ended).
            var statuses = try await EventStreamReader.connect(base + "events?list=status")
            while true {
                let status = try await statuses.next(named: "status").object()
                if (status["completedRefreshes"] as? Int ?? 0) >= 1, status["isRunning"] as? Bool == false { break }
            }
            try await body(server, base)
        } catch {
            _ = try? await server.stop(signal: SIGKILL)
            throw error
        }
    }

    /// `GET url`'s status and body, failing when nothing answers within `seconds`.
    static func get(_ client: HTTPClient, _ url: String, within seconds: Int64 = 10) async throws -> (HTTPResponseStatus, String) {
        let response = try await client.execute(HTTPClientRequest(url: url), deadline: .now() + .seconds(seconds))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (response.status, String(buffer: body))
    }

    /// `POST url` from the page's own origin.
    static func post(_ client: HTTPClient, _ url: String, base: String) async throws -> HTTPResponseStatus {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Origin", value: String(base.dropLast()))
        let response = try await client.execute(request, deadline: .now() + .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status
    }

    /// The ids of a spot's photos, from the JSON API.
    static func photoIDs(_ client: HTTPClient, base: String, spot: String) async throws -> [String] {
        let (status, body) = try await get(client, base + "api/tags/\(spot)/photos", within: 30)
        #expect(status == .ok)
        let sections = try json(body)["sections"] as? [[String: Any]] ?? []
        return sections.flatMap { $0["rows"] as? [[String: Any]] ?? [] }.compactMap { $0["id"] as? String }
    }

    /// Opens an event stream, reads until its snapshot arrived, then holds the connection open
    /// until the task is cancelled, which drops it as a closing tab does. `settled` is called
    /// once: with `nil` when the snapshot arrived, or with the error that ended the stream
    /// before it did (then `hold` returns, so that a caller counting streams never waits for
    /// one that will not open).
    static func hold(_ client: HTTPClient, _ url: String, settled: @Sendable ((any Error)?) -> Void) async {
        var announced = false
        do {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await client.execute(request, deadline: .now() + .seconds(120))
            var text = ""
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if !announced, text.contains("event: snapshot\n") {
                    announced = true
                    settled(nil)
                }
            }
            if !announced { settled(EventStreamError(message: "the stream ended before its snapshot")) }
        } catch {
            // After the snapshot, an error is the drop this test makes by cancelling.
            if !announced { settled(error) }
        }
    }

    /// The hang this suite was written for: hundreds of browsers on one list close while a
    /// hide and an unhide are published to them. Before the fix, a closing stream's
    /// cancellation took the list's lock while the publisher, holding it, resumed that stream's
    /// task: the server stopped answering for good (seen here with the earlier build on the
    /// 19th round of 20).
    @Test func connectionsClosingWhileAListChangesDoNotHangTheServer() async throws {
        try await Self.withClientAndServer { client, server, base in
            let photo = try #require(try await Self.photoIDs(client, base: base, spot: "hoovertower").first)
            let list = base + "events?list=tags%2Fhoovertower"
            for round in 0..<20 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    let (settled, settle) = AsyncStream<(any Error)?>.makeStream()
                    for _ in 0..<500 {
                        group.addTask { await Self.hold(client, list) { settle.yield($0) } }
                    }
                    var count = 0
                    var failures: [String] = []
                    for await failure in settled {
                        if let failure { failures.append("\(failure)") }
                        count += 1
                        if count == 500 { break }
                    }
                    if !failures.isEmpty {
                        group.cancelAll()
                        Issue.record("round \(round): \(failures.count) of 500 streams did not open: \(Set(failures).sorted())")
                        throw EventStreamError(message: "round \(round): streams did not open")
                    }
                    // Changes on their way to every stream while every stream closes.
                    let writes = Task {
                        try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { writes in
                            for action in ["hide", "unhide", "hide", "unhide"] {
                                writes.addTask { try await Self.post(client, base + "api/photos/\(photo)/\(action)", base: base) }
                            }
                            for try await status in writes { #expect(status == .ok) }
                        }
                    }
                    group.cancelAll()
                    try await group.waitForAll()
                    try await writes.value
                }
                // The server still answers, promptly.
                let (health, _) = try await Self.get(client, base + "health")
                #expect(health == .ok, "round \(round)")
            }
            // A new browser still gets the list (the stream ending before its snapshot throws).
            let newcomer = try await FollowedList(client: client, url: list)
            #expect(newcomer.snapshots == 1)
            let status = try await server.stop(signal: SIGTERM)
            #expect(status == 0, "exit status after SIGTERM; output: \(server.output)")
        }
    }

    @Test func everyConnectionGetsEveryVersionInOrderUnderConcurrentWriters() async throws {
        try await Self.withClientAndServer { client, server, base in
            let photos = Array(try await Self.photoIDs(client, base: base, spot: "all").prefix(8))
            #expect(photos.count == 8)
            var readers: [FollowedList] = []
            for list in ["tags%2Fall", "tags%2Fall", "tags%2Fhoovertower", "spots"] {
                readers.append(try await FollowedList(client: client, url: base + "events?list=\(list)"))
            }
            // Four writers, two photos each, hiding and showing at random, all at once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for pair in 0..<4 {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        for _ in 0..<15 {
                            let photo = photos[pair * 2 + Int.random(in: 0...1, using: &generator)]
                            let action = Bool.random(using: &generator) ? "hide" : "unhide"
                            let status = try await Self.post(client, base + "api/photos/\(photo)/\(action)", base: base)
                            #expect(status == .ok)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Each stream, applied as a page applies it, reaches exactly what a fresh read shows.
            for (index, api) in ["tags/all/photos", "tags/all/photos", "tags/hoovertower/photos", "tags"].enumerated() {
                let (status, body) = try await Self.get(client, base + "api/" + api)
                #expect(status == .ok)
                let fresh = try JSONDecoder().decode(ListJSON.self, from: Data(body.utf8))
                try await readers[index].follow(to: fresh.version)
                #expect(readers[index].sectionNames == fresh.sections.map(\.name), "\(api)")
                #expect(readers[index].rowIDs == fresh.sections.map { $0.rows.map(\.id) }, "\(api)")
                #expect(readers[index].snapshots == 1, "no resynchronisation was needed")
            }
            #expect(try await server.stop(signal: SIGTERM) == 0)
        }
    }

    @Test func aConnectionThatStopsReadingDoesNotHoldUpTheOthersAndCatchesUpLater() async throws {
        try await Self.withClientAndServer { client, server, base in
            let photo = try #require(try await Self.photoIDs(client, base: base, spot: "hoovertower").first)
            let url = base + "events?list=tags%2Fhoovertower"
            var stalled = try await FollowedList(client: client, url: url)
            var reading = try await FollowedList(client: client, url: url)
            // 300 changes — more than the server keeps — while one browser reads nothing.
            for index in 0..<300 {
                let action = index.isMultiple(of: 2) ? "hide" : "unhide"
                #expect(try await Self.post(client, base + "api/photos/\(photo)/\(action)", base: base) == .ok)
                try await reading.follow(to: reading.version + 1)
            }
            #expect(reading.snapshots == 1, "the reading browser got every change, in order")
            let (_, body) = try await Self.get(client, base + "api/tags/hoovertower/photos")
            let fresh = try JSONDecoder().decode(ListJSON.self, from: Data(body.utf8))
            try await stalled.follow(to: fresh.version)
            #expect(stalled.rowIDs == fresh.sections.map { $0.rows.map(\.id) })
            #expect(try await server.stop(signal: SIGTERM) == 0)
        }
    }
}

/// A list's JSON from the API: version and sections of rows with ids.
struct ListJSON: Decodable {
    struct Section: Decodable {
        struct Row: Decodable { var id: String }
        var name: String
        var rows: [Row]
    }

    var version: Int
    var sections: [Section]
}

/// A list as a page follows it over its event stream: the snapshot, then each change set
/// applied in order; a second snapshot (a resynchronisation) replaces everything.
struct FollowedList {
    private struct SnapshotData: Decodable { var snapshot: LiveSnapshot<RenderedRow> }

    private var events: EventStreamReader
    private(set) var version = -1
    private(set) var sections: [LiveSection<RenderedRow>] = []
    /// How many snapshots arrived.
    private(set) var snapshots = 0

    init(client: HTTPClient, url: String) async throws {
        events = try await EventStreamReader.connect(url, client: client)
        try await next()
    }

    var sectionNames: [String] { sections.map(\.name) }
    var rowIDs: [[String]] { sections.map { $0.rows.map(\.id) } }

    /// Reads events until the list is at `target` or later.
    mutating func follow(to target: Int) async throws {
        while version < target { try await next() }
    }

    /// Reads and applies the next snapshot or change event, checking each change follows the
    /// version before it.
    private mutating func next() async throws {
        while true {
            guard let event = try await events.next() else { throw EventStreamError(message: "the stream ended at version \(version)") }
            switch event.name {
            case "snapshot":
                let snapshot = try JSONDecoder().decode(SnapshotData.self, from: Data(event.data.utf8)).snapshot
                (version, sections) = (snapshot.version, snapshot.sections)
                snapshots += 1
                return
            case "change":
                let change = try JSONDecoder().decode(LiveChangeSet<RenderedRow>.self, from: Data(event.data.utf8))
                #expect(change.version == version + 1, "versions arrive in order")
                sections = try change.apply(to: sections)
                version = change.version
                return
            default:
                continue
            }
        }
    }
}
