import Foundation
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `objectgraph browse` running as a child process on a store, on a free port: its address
/// is read from the line the command prints once it listens.
final class BrowseServer: Sendable {
    /// `http://127.0.0.1:PORT` (no trailing slash).
    let base: String
    private let process: Process

    /// What `get` answered: status and body.
    struct Answer {
        let status: Int
        let body: String
    }

    private init(base: String, process: Process) {
        self.base = base
        self.process = process
    }

    /// Starts `objectgraph browse STORE --port 0 [arguments]` (STORE a file's path or a server
    /// store's URL), runs `body` with the server and
    /// stops the server (SIGTERM) afterwards, waiting for it to exit.
    static func run<T>(_ store: URL, _ arguments: [String] = [], _ body: (BrowseServer) async throws -> T) async throws -> T {
        let process = Process()
        process.executableURL = ChildExecutable.url(named: "objectgraph")
        process.arguments = ["browse", store.isFileURL ? store.path : store.absoluteString, "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            exited.continuation.yield()
            exited.continuation.finish()
        }
        let lines = AsyncStream<String>.makeStream()
        let pending = PendingText()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                lines.continuation.finish()
                return
            }
            let complete: [String] = pending.text.withLock { text in
                text += String(decoding: data, as: UTF8.self)
                var parts = text.components(separatedBy: "\n")
                text = parts.removeLast()
                return parts
            }
            for line in complete { lines.continuation.yield(line) }
        }
        try process.run()
        var base: String?
        for await line in lines.stream {
            if line.hasPrefix("Browsing "), let range = line.range(of: " at http://") {
                base = String(line[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                base = base.map { "http://" + $0 }
                break
            }
        }
        guard let base else {
            process.waitUntilExit()
            throw BrowseServerError(description: "objectgraph browse exited (\(process.terminationStatus)) without printing its address")
        }
        let server = BrowseServer(base: base, process: process)
        let result: T
        do {
            result = try await body(server)
        } catch {
            process.terminate()
            for await _ in exited.stream {}
            throw error
        }
        process.terminate()
        for await _ in exited.stream {}
        return result
    }

    /// GETs `pathAndQuery` (beginning with `/`) from the server.
    func get(_ pathAndQuery: String) async throws -> Answer {
        guard let url = URL(string: base + pathAndQuery) else { throw BrowseServerError(description: "not a URL: \(base + pathAndQuery)") }
        let (data, response) = try await URLSession.shared.data(from: url)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: String(decoding: data, as: UTF8.self))
    }
}

/// Output read but not yet split into lines.
private final class PendingText: Sendable {
    let text = Mutex("")
}

/// `objectgraph browse` did not start.
struct BrowseServerError: Error, CustomStringConvertible {
    let description: String
}
