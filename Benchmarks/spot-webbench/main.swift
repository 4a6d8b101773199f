import Flickr
import FlickrSandbox
import Foundation
import Logging
import SPoTKit
import SPoTWeb
import ServiceLifecycle

// spot-webbench: the web server under load, with wrk on loopback.
//
// `swift run -c release spot-webbench [--seconds N] [--connections N]` serves a database
// holding a 500-photo spot, and measures with wrk (Debian's package) the Spots page and the
// 500-photo spot's page at 64 connections: throughput and latency percentiles, first idle,
// then while the importer saves pages of new photos into the same database (what a refresh
// does: one save per page, merged into every live list). Prints a Markdown table with the
// p99 ratio (target: during an import ≤ 2× idle). First, each list page against a static file
// of its size from the same server (the page's own body, served under `/static/`): the
// page-to-static ratio (target: a list page within 2× of the static file).

struct Options {
    static let usage = """
        USAGE: spot-webbench [--seconds N] [--connections N] [--threads N]

        Serves a database of 2,000 photos (one spot of 500) on loopback and measures its pages
        with wrk (apt-get install -y wrk): each list page against a static file of the page's
        size from the same server, then p50/p99 idle and during an import.

        OPTIONS:
          --seconds N       how long each wrk run lasts (default 10)
          --connections N   wrk's open connections (default 64)
          --threads N       wrk's threads (default 2)
          -h, --help        show this help
        """

    var seconds = 10
    var connections = 64
    var threads = 2
    /// `--help` was given: print ``usage`` and measure nothing.
    var showsHelp = false

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            if argument == "--help" || argument == "-h" {
                showsHelp = true
                continue
            }
            guard ["--seconds", "--connections", "--threads"].contains(argument) else {
                throw BenchError("unknown option '\(argument)'; options: --seconds N, --connections N, --threads N, --help")
            }
            guard let text = iterator.next() else { throw BenchError("\(argument) needs a positive number") }
            guard let value = Int(text), value > 0 else { throw BenchError("\(argument) needs a positive number, not '\(text)'") }
            switch argument {
            case "--seconds": seconds = value
            case "--connections": connections = value
            default: threads = value
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What wrk measured.
struct WrkResult {
    var requestsPerSecond: Double
    /// Bytes per second received, headers included (wrk's Transfer/sec).
    var bytesPerSecond: Double
    var p50: Double
    var p99: Double
    var errors: String?

    /// Parses wrk's `--latency` report (latencies in ms).
    init(report: String) throws {
        func milliseconds(_ text: Substring) -> Double? {
            let units: [(String, Double)] = [("us", 0.001), ("ms", 1), ("s", 1000), ("m", 60_000)]
            for (unit, factor) in units where text.hasSuffix(unit) {
                if let value = Double(text.dropLast(unit.count)) { return value * factor }
            }
            return nil
        }
        func bytes(_ text: Substring) -> Double? {
            let units: [(String, Double)] = [("GB", 1_073_741_824), ("MB", 1_048_576), ("KB", 1024), ("B", 1)]
            for (unit, factor) in units where text.hasSuffix(unit) {
                if let value = Double(text.dropLast(unit.count)) { return value * factor }
            }
            return nil
        }
        var rps: Double?
        var transfer: Double?
        var p50: Double?
        var p99: Double?
        var errors: String?
        for line in report.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rps = Double(fields[1]) }
            if fields.first == "Transfer/sec:", fields.count > 1 { transfer = bytes(fields[1]) }
            if fields.count == 2, fields[0] == "50%" { p50 = milliseconds(fields[1]) }
            if fields.count == 2, fields[0] == "99%" { p99 = milliseconds(fields[1]) }
            if line.contains("Non-2xx") || line.contains("Socket errors") { errors = line.trimmingCharacters(in: .whitespaces) }
        }
        guard let rps, let transfer, let p50, let p99 else { throw BenchError("could not read wrk's report:\n\(report)") }
        self.requestsPerSecond = rps
        self.bytesPerSecond = transfer
        self.p50 = p50
        self.p99 = p99
        self.errors = errors
    }
}

func runWrk(_ url: String, options: Options) throws -> WrkResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["wrk", "-t\(options.threads)", "-c\(options.connections)", "-d\(options.seconds)s", "--latency", url]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do {
        try process.run()
    } catch {
        throw BenchError("wrk could not start (apt-get install -y wrk): \(error)")
    }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError("wrk failed (is it installed? apt-get install -y wrk):\n\(output)") }
    return try WrkResult(report: output)
}

/// Photos shaped like the sandbox's, with unique ids; `tags` replaces their tags when given.
func photos(_ range: Range<Int>, tags: [String]?) -> [FlickrPhoto] {
    let catalogue = SandboxCatalogue.stanford.photos(atEpoch: SandboxCatalogue.stanford.maxEpoch)
    return range.map { index in
        let source = catalogue[index % catalogue.count]
        return FlickrPhoto(
            id: String(80_000_000_000 + index),
            owner: source.owner.nsid,
            secret: source.secret,
            server: source.server,
            farm: source.farm,
            title: "\(source.title) \(index)",
            descriptionHTML: source.descriptionHTML,
            ownerName: source.owner.name,
            tags: tags ?? source.tags,
            uploadDate: Date(timeIntervalSince1970: Double(source.uploaded + index)),
            coordinate: source.latitude.map { FlickrCoordinate(latitude: $0, longitude: source.longitude ?? 0) },
            originalSecret: source.originalSecret,
            originalFormat: source.originalFormat
        )
    }
}

/// The size of one answer in kilobytes, from wrk's rates.
func kilobytes(_ result: WrkResult) -> Int {
    Int((result.bytesPerSecond / result.requestsPerSecond / 1024).rounded())
}

/// A running server for `spot`: its port, and how to stop it.
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

func benchmark(_ options: Options) async throws {
    let quiet = Logger(label: "webbench") { _ in SwiftLogNoOpLogHandler() }
    let directory = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-\(UUID().uuidString)", directoryHint: .isDirectory)
    defer { try? FileManager.default.removeItem(at: directory) }
    let sandbox = FlickrSandbox(configuration: SandboxConfiguration(logger: quiet))
    var configuration = SPoTConfiguration(dataDirectory: directory, flickr: .sandbox(baseURL: try await sandbox.start()))
    configuration.refreshInterval = .zero
    let spot = try SPoT(configuration: configuration, logger: quiet)
    // A 500-photo spot, plus the catalogue's spots.
    _ = try await spot.store.importer.importPage(photos(0..<500, tags: ["cs193pspot", "benchspot"]))
    for start in stride(from: 500, to: 2_000, by: 100) {
        _ = try await spot.store.importer.importPage(photos(start..<(start + 100), tags: nil))
    }
    let lists = [("Spots page", "/", "spots.html"), ("All", "/tags/all", "all.html"), ("500-photo spot page", "/tags/benchspot", "benchspot.html")]
    // Each page's body, served again as a static file by the server measured: a file of the
    // page's size, sent the way `/static/app.css` is.
    let first = try await RunningServer(spot: spot, logger: quiet)
    var staticFiles: [String: (bytes: [UInt8], contentType: String)] = [:]
    for (_, path, file) in lists {
        staticFiles[file] = (try body(of: first.url(path)), "text/html; charset=utf-8")
    }
    await first.stop()
    let server = try await RunningServer(spot: spot, logger: quiet, staticFiles: staticFiles)
    // Warm up: open the lists and let the first renderings be cached.
    for (_, path, _) in lists {
        _ = try runWrk(server.url(path), options: Options(["", "--seconds", "1"]))
    }

    print("| page | size | page requests/s | same-size static file requests/s | static ÷ page |")
    print("|---|---:|---:|---:|---:|")
    let appCSS = try runWrk(server.url("/static/app.css"), options: options)
    print("| (`/static/app.css`) | \(kilobytes(appCSS)) KB | | \(String(format: "%.0f", appCSS.requestsPerSecond)) | |")
    for (name, path, file) in lists {
        let page = try runWrk(server.url(path), options: options)
        let staticFile = try runWrk(server.url("/static/\(file)"), options: options)
        print(
            "| \(name) | \(kilobytes(page)) KB | \(String(format: "%.0f", page.requestsPerSecond)) | "
                + "\(String(format: "%.0f", staticFile.requestsPerSecond)) | "
                + "\(String(format: "%.2f×", staticFile.requestsPerSecond / page.requestsPerSecond)) |"
        )
    }
    print("")

    let pages = [lists[0], lists[2]]
    print("| page | load | requests/s | p50 ms | p99 ms | p99 ÷ idle p99 |")
    print("|---|---|---:|---:|---:|---:|")
    var next = 2_000
    for (name, path, _) in pages {
        let url = server.url(path)
        let idle = try runWrk(url, options: options)
        // The import: pages of 100 new photos saved one after another while wrk runs.
        let importer = spot.store.importer
        let start = next
        let importing = Task {
            var page = start
            while !Task.isCancelled {
                _ = try await importer.importPage(photos(page..<(page + 100), tags: nil))
                page += 100
            }
            return page
        }
        let loaded = try runWrk(url, options: options)
        importing.cancel()
        next = (try? await importing.value) ?? (start + 10_000)
        let imported = next - start
        for (label, result) in [("idle", idle), ("during import (\(imported) photos saved)", loaded)] {
            let ratio = result.p99 / idle.p99
            print(
                "| \(name) | \(label) | \(String(format: "%.0f", result.requestsPerSecond)) | \(String(format: "%.2f", result.p50)) | "
                    + "\(String(format: "%.2f", result.p99)) | \(String(format: "%.2f×", ratio)) |"
            )
            if let errors = result.errors { print("|  | \(errors) | | | | |") }
        }
    }
    print(
        "\nwrk -t\(options.threads) -c\(options.connections) -d\(options.seconds)s --latency; \(ProcessInfo.processInfo.activeProcessorCount) cores; debug builds are slower: use -c release."
    )
    await server.stop()
    await spot.close()
    await sandbox.stop()
}

do {
    let options = try Options(CommandLine.arguments)
    if options.showsHelp {
        print(Options.usage)
    } else {
        try await benchmark(options)
    }
} catch {
    FileHandle.standardError.write(Data("spot-webbench: \(error)\n".utf8))
    exit(64)
}
