import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SPoTWeb

/// The OpenAPI document at `/api/openapi.json` against the server that serves it.
@Suite("The JSON API matches its OpenAPI document")
struct OpenAPIConformanceTests {
    @Test func theDocumentNamesEveryAPIRoute() async throws {
        try await WebFixture.run(refreshed: false) { fixture in
            try await fixture.application.test(.router) { client in
                let answer = try await client.get("/api/openapi.json")
                #expect(answer.status == .ok)
                #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
                let document = try json(answer.body)
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                let operations = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
                #expect(
                    operations == [
                        "GET /api/tags", "GET /api/tags/{name}/photos", "GET /api/recents", "GET /api/photographers",
                        "GET /api/photographers/{id}/photos", "GET /api/search", "GET /api/photos/{id}",
                        "POST /api/photos/{id}/hide", "POST /api/photos/{id}/unhide", "GET /api/status", "POST /api/refresh",
                        "GET /health", "GET /api/openapi.json",
                    ]
                )
                let etag = try #require(answer.headers[.eTag])
                #expect(try await client.get("/api/openapi.json", headers: [.ifNoneMatch: etag]).status == .notModified)
            }
        }
    }

    /// schemathesis (from PyPI; `Scripts/test` installs it) fuzzes every operation of the
    /// document against `spot serve` on loopback: no 5xx, every status, content type, header
    /// and body as documented, and malformed input refused with a 4xx.
    @Test(.timeLimit(.minutes(10)))
    func schemathesisFindsNoDifference() async throws {
        let schemathesis = try #require(
            Schemathesis.executable,
            "schemathesis is not installed: Scripts/test installs it (pip install schemathesis)"
        )
        let directory = FileManager.default.temporaryDirectory.appending(path: "spot-openapi-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess.start(["serve", "--port", "0", "--data-dir", directory.path, "--refresh-minutes", "0"])
        let base = try await server.url()
        let run = try await Schemathesis.run(
            schemathesis,
            [
                "run", base + "api/openapi.json",
                // As the server's own pages send it, so that POSTs reach their handlers.
                "--header", "Origin: " + String(base.dropLast()),
                "--checks", Schemathesis.checks.joined(separator: ","),
                "--max-examples", "100", "--seed", "23", "--workers", "1",
                "--request-timeout", "20", "--suppress-health-check", "too_slow",
            ],
            reportDirectory: directory.appending(path: "report")
        )
        #expect(run.status == 0, "schemathesis failed:\n\(run.output.suffix(12_000))")
        #expect(run.output.contains("passed"), "\(run.output.suffix(2000))")
        let status = try await server.stop(signal: SIGTERM)
        #expect(status == 0, "\(server.output.suffix(2000))")
    }
}

/// Finding and running the schemathesis command line.
enum Schemathesis {
    /// The checks that apply to this API: no server errors; statuses, content types, headers
    /// and bodies as documented; invalid input refused with a 4xx. (Left out: authentication
    /// checks — the API has none — and `unsupported_method`, which wants 405 where the
    /// router answers 404 for a method a path does not take.)
    static let checks = [
        "not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
        "response_schema_conformance", "negative_data_rejection",
    ]

    /// `schemathesis` (or its short name `st`) on the `PATH`.
    static var executable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["schemathesis", "st"] {
                let url = URL(fileURLWithPath: String(directory)).appending(path: name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Runs schemathesis to its end: exit status and everything it printed.
    static func run(_ executable: URL, _ arguments: [String], reportDirectory: URL) async throws -> (status: Int32, output: String) {
        try FileManager.default.createDirectory(at: reportDirectory, withIntermediateDirectories: true)
        let log = reportDirectory.appending(path: "output.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = reportDirectory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["SCHEMATHESIS_TELEMETRY"] = "false"
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        let (exits, exit) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { exit.yield($0.terminationStatus) }
        try process.run()
        let pid = process.processIdentifier
        let status = await withTaskCancellationHandler {
            var iterator = exits.makeAsyncIterator()
            return await iterator.next() ?? -1
        } onCancel: {
            kill(pid, SIGTERM)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (status, output)
    }
}
