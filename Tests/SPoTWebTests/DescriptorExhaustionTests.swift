import AsyncHTTPClient
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `spot serve` at the end of its descriptors: it stops accepting at a cap that keeps some
/// for the database, says so once in its log, keeps serving the connections it has, and
/// accepts again when connections close.
@Suite("spot serve out of file descriptors", .timeLimit(.minutes(10)))
struct DescriptorExhaustionTests {
    /// The open-files limit the server runs under: 128, of which 64 are kept for the database
    /// and files, so it holds 64 connections.
    static let openFilesLimit = 128

    @Test func saysSoOnceAndKeepsServingTheConnectionsItHas() async throws {
        try await LiveEventLoadTests.withClientAndServer(openFilesLimit: Self.openFilesLimit) { client, server, base in
            let photo = try #require(try await LiveEventLoadTests.photoIDs(client, base: base, spot: "hoovertower").first)
            var list = try await FollowedList(client: client, url: base + "events?list=tags%2Fhoovertower")
            // A second connection, idle in the client's pool, for the writes made at the cap.
            #expect(try await LiveEventLoadTests.get(client, base + "health").0 == .ok)

            // Visitors that take every connection left, and more.
            let port = try #require(URL(string: base)?.port)
            var visitors = (0..<80).map { _ in Self.connect(port: port) }
            defer { visitors.forEach { _ = close($0) } }
            #expect(visitors.allSatisfy { $0 >= 0 })
            try await server.waitForOutput(containing: "connection limit reached")

            // The connections it has are still served, and the database still has descriptors:
            // a write on the pooled connection, and its change on the open event stream.
            #expect(try await LiveEventLoadTests.post(client, base + "api/photos/\(photo)/hide", base: base) == .ok)
            try await list.follow(to: list.version + 1)
            #expect(!list.rowIDs.joined().contains(photo), "the hidden photo left the open list")

            // More visitors while it is at the cap: no second line for the episode.
            visitors += (0..<20).map { _ in Self.connect(port: port) }
            #expect(try await LiveEventLoadTests.post(client, base + "api/photos/\(photo)/unhide", base: base) == .ok)
            try await list.follow(to: list.version + 1)
            #expect(list.rowIDs.joined().contains(photo))

            // The visitors leave: a new browser gets in.
            visitors.forEach { _ = close($0) }
            visitors = []
            try await server.waitForOutput(containing: "accepting new connections again")
            let newcomer = LiveEventLoadTests.makeClient()
            let healthy: Bool
            do {
                healthy = try await LiveEventLoadTests.get(newcomer, base + "health", within: 30).0 == .ok
            } catch {
                try? await newcomer.shutdown()
                throw error
            }
            try? await newcomer.shutdown()
            #expect(healthy)
            // One line per episode: "reached" and "again" alternate (a loaded machine may see
            // more than one episode if held connections close in between).
            let episodes = server.errors.split(separator: "\n").compactMap { line in
                line.contains("connection limit reached") ? "reached" : line.contains("accepting new connections again") ? "again" : nil
            }
            #expect(episodes.count >= 2 && episodes.count.isMultiple(of: 2), "log: \(server.errors)")
            #expect(episodes.enumerated().allSatisfy { $0.element == ($0.offset.isMultiple(of: 2) ? "reached" : "again") }, "log: \(server.errors)")
            #expect(server.errors.contains("open files limit, 128, keeps 64"), "the line says why: \(server.errors)")
            #expect(try await server.stop(signal: SIGTERM) == 0)
        }
    }

    /// A TCP connection to the loopback port that sends nothing, as a visitor still arriving;
    /// the kernel completes it in the listen backlog whether or not the server accepts it.
    static func connect(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            _ = close(descriptor)
            return -1
        }
        return descriptor
    }
}
