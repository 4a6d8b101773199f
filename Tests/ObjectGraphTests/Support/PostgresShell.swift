import Foundation
import Testing

/// Raw SQL on a test schema through `psql`, for tests that look at a PostgreSQL store behind
/// ObjectGraph's back (its tables, its metadata) or change it as an older version left it.
enum PostgresShell {
    /// Runs `sql` with the schema of `url` (a store URL with `?schema=`) first on the search
    /// path; returns the rows psql prints, unaligned, one line each.
    @discardableResult
    static func run(_ sql: String, in url: URL) throws -> [String] {
        let (process, output, errors) = try psql(["SET search_path TO \"\(try schema(of: url))\"; \(sql)"], in: url)
        // psql exits when done, so reading to the end cannot hang (no server process holds the pipes).
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PsqlFailed(message: failure) }
        return text.split(separator: "\n").map(String.init)
    }

    /// Runs `sql` in a psql session that stays open, idle, holding what `sql` took (a lock),
    /// until ``HeldSession/end()``. Returns once `sql` has run.
    static func hold(_ sql: String, in url: URL) throws -> HeldSession {
        let input = Pipe()
        let (process, output, errors) = try psql([], input: input.fileHandleForReading, in: url)
        // psql reads its standard input a statement at a time, and writes each result as it
        // comes: the marker line means `sql` has run. The session then waits for more input.
        input.fileHandleForWriting.write(Data("SET search_path TO \"\(try schema(of: url))\"; \(sql);\nSELECT 'held';\n".utf8))
        var printed = ""
        while !printed.contains("held\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else {
                process.waitUntilExit()
                throw PsqlFailed(message: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            printed += String(decoding: data, as: UTF8.self)
        }
        return HeldSession(process: process, input: input.fileHandleForWriting)
    }

    /// A psql session holding a lock; ``end()`` closes it, and the server gives the lock back.
    final class HeldSession {
        private let process: Process
        private let input: FileHandle

        fileprivate init(process: Process, input: FileHandle) {
            self.process = process
            self.input = input
        }

        /// Ends psql's input: it disconnects, and its session's locks are released, before
        /// this returns.
        func end() {
            guard process.isRunning else { return }
            try? input.close()
            process.waitUntilExit()
        }

        deinit { end() }
    }

    /// A psql process on the server of `url` running each of `commands` (one `-c` each; with
    /// none, what it reads from `input`), started, with its output and error pipes.
    private static func psql(_ commands: [String], input: FileHandle = .nullDevice, in url: URL) throws -> (Process, Pipe, Pipe) {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.query = nil
        let server = try #require(components.string)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try psqlPath())
        process.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", server] + commands.flatMap { ["-c", $0] }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        return (process, output, errors)
    }

    /// The schema named by `url`'s `?schema=`, `public` without one.
    static func schema(of url: URL) throws -> String {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return components.queryItems?.first { $0.name == "schema" }?.value ?? "public"
    }

    /// The tables of the schema of `url`, sorted.
    static func tables(in url: URL) throws -> [String] {
        try run("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name", in: url)
    }

    /// `psql` beside the test server's programs (`OBJECTGRAPH_TEST_POSTGRES_BIN`, which may hold
    /// only links to `initdb`, `pg_ctl` and `postgres`), in Debian's versioned folders, or on PATH.
    private static func psqlPath() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let bin = environment["OBJECTGRAPH_TEST_POSTGRES_BIN"], !bin.isEmpty {
            candidates.append(bin + "/psql")
            let resolved = URL(fileURLWithPath: bin + "/postgres").resolvingSymlinksInPath().deletingLastPathComponent()
            candidates.append(resolved.appendingPathComponent("psql").path)
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/psql" }
        candidates += (environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/psql" }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "no psql among \(candidates)")
    }

    /// psql failed; its error output.
    struct PsqlFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "psql failed: \(message)" }
    }
}
