import Foundation
import Logging
import SPoTKit
import SPoTWeb
import ServiceLifecycle

/// A server for `spot` in this process: its port, and how to stop it.
struct RunningServer {
    let web: SPoTWebApp
    let port: Int
    let task: Task<Void, any Error>

    init(spot: SPoT, logger: Logger, staticFiles: [String: (bytes: [UInt8], contentType: String)] = [:]) async throws {
        let web = try await SPoTWebApp(spot: spot, logger: logger, additionalStaticFiles: staticFiles)
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        task = Task {
            try await web.application(host: "127.0.0.1", port: 0) { port in portContinuation.yield(port) }.run()
        }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else { throw BenchError("the server did not start") }
        self.web = web
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() async {
        task.cancel()
        _ = await task.result
        await web.closeLiveLists()
    }
}

/// A `spot serve --port 0` child process: the `spot` executable built beside this one.
final class ServeProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` and the paths are set in init; Process is thread-safe for
    // the calls made here (terminate, waitUntilExit, terminationStatus).

    let process: Process
    /// Where the child's standard output and error go (in its data folder).
    private let output: URL
    private let errors: URL
    /// The port the child announced.
    private(set) var port = 0

    /// The `spot` executable next to this benchmark's (`.build/<configuration>/`).
    static func spotExecutable() throws -> URL {
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.insert(URL(fileURLWithPath: path).deletingLastPathComponent(), at: 0)
        }
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory.appending(path: "spot").path) {
            return directory.appending(path: "spot")
        }
        throw BenchError(
            "--postgres runs `spot serve`, and no spot executable is beside spot-webbench in \(directories[0].path): "
                + "swift build -c release --product spot-webbench --product spot"
        )
    }

    /// Starts `spot serve --port 0 --data-dir directory [--database database] --refresh-minutes 0`
    /// and waits (up to a minute) until it says which port it serves. Without `database`, the
    /// child serves the SQLite file in `directory`.
    init(directory: URL, database: URL?) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        output = directory.appending(path: "serve.out")
        errors = directory.appending(path: "serve.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process = Process()
        process.executableURL = try Self.spotExecutable()
        process.arguments =
            ["serve", "--port", "0", "--data-dir", directory.path, "--refresh-minutes", "0"]
            + (database.map { ["--database", $0.absoluteString] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            // "SPoT is serving the tour at http://127.0.0.1:PORT/ — open it in a browser."
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) {
                    self.port = port
                    return
                }
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let said = ((try? String(contentsOf: output, encoding: .utf8)) ?? "") + ((try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        if process.isRunning { process.terminate() }
        throw BenchError("spot serve did not start serving:\n\(said)")
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// What the child wrote to its standard error so far.
    var errorOutput: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Stops the child with SIGTERM (it finishes the page being saved) and waits for it.
    /// - Returns: its exit status.
    @discardableResult
    func stop() async -> Int32 {
        if process.isRunning { process.terminate() }
        let process = process
        return
            (try? await onOwnThread {
                process.waitUntilExit()
                return process.terminationStatus
            }) ?? -1
    }
}

/// The body `GET url` answers, read with curl as wrk would receive it (no compression).
func body(of url: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "--silent", "--show-error", "--fail", url]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { throw BenchError("curl could not start: \(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError("curl \(url) failed with status \(process.terminationStatus)") }
    return [UInt8](data)
}

/// What a server at `base` (`http://host:port`) shows: the "All" row's photo count in its
/// spot list, and whether a refresh runs.
func catalogueState(_ base: String) throws -> (photos: Int?, refreshing: Bool) {
    func object(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body(of: base + path))) as? [String: Any] ?? [:]
    }
    let tags = try object("/api/tags")
    let rows = (tags["sections"] as? [[String: Any]] ?? []).flatMap { $0["rows"] as? [[String: Any]] ?? [] }
    let all = rows.first { $0["id"] as? String == "all" }?["photoCount"] as? Int
    let status = try object("/api/status")
    return (all, status["isRunning"] as? Bool ?? false)
}
