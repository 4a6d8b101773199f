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
// p99 ratio (target: during an import ≤ 2× idle). First, the list pages against a static file
// of their size from the same server (`/static/app.css`): the page-to-static ratio (target: a
// list page within 2× of the static file).

struct Options {
    var seconds = 10
    var connections = 64
    var threads = 2

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next().flatMap(Int.init), value > 0 else {
                throw BenchError("\(argument) needs a positive number")
            }
            switch argument {
            case "--seconds": seconds = value
            case "--connections": connections = value
            case "--threads": threads = value
            default: throw BenchError("unknown option \(argument); options: --seconds N, --connections N, --threads N")
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

func benchmark() async throws {
    let options = try Options(CommandLine.arguments)
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
    let web = try await SPoTWebApp(spot: spot, logger: quiet)
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let server = Task {
        try await web.application(host: "127.0.0.1", port: 0) { port in portContinuation.yield(port) }.run()
    }
    var portIterator = ports.makeAsyncIterator()
    guard let port = await portIterator.next() else { throw BenchError("the server did not start") }
    let pages = [("Spots page", "/"), ("500-photo spot page", "/tags/benchspot")]
    // Warm up: open the lists and let the first renderings be cached.
    for path in ["/", "/tags/all", "/tags/benchspot"] {
        _ = try runWrk("http://127.0.0.1:\(port)\(path)", options: Options(["", "--seconds", "1"]))
    }

    // A static file of about a page's size, from the same server: what a page can cost at best.
    let staticFile = try runWrk("http://127.0.0.1:\(port)/static/app.css", options: options)
    // Pages larger than the static file are compared by bytes per second: what a static file
    // of the page's size would cost, as near as one file allows.
    print("| page | size | requests/s | static file (\(kilobytes(staticFile)) KB) requests/s | static ÷ page, requests | static ÷ page, bytes |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, path) in [("Spots page", "/"), ("All", "/tags/all")] + pages.dropFirst() {
        let page = try runWrk("http://127.0.0.1:\(port)\(path)", options: options)
        let requests = staticFile.requestsPerSecond / page.requestsPerSecond
        let bytes = staticFile.bytesPerSecond / page.bytesPerSecond
        print(
            "| \(name) | \(kilobytes(page)) KB | \(String(format: "%.0f", page.requestsPerSecond)) | "
                + "\(String(format: "%.0f", staticFile.requestsPerSecond)) | \(String(format: "%.2f×", requests)) | "
                + "\(String(format: "%.2f×", bytes)) |"
        )
    }
    print("")

    print("| page | load | requests/s | p50 ms | p99 ms | p99 ÷ idle p99 |")
    print("|---|---|---:|---:|---:|---:|")
    var next = 2_000
    for (name, path) in pages {
        let url = "http://127.0.0.1:\(port)\(path)"
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
    server.cancel()
    await web.closeLiveLists()
    await spot.close()
    await sandbox.stop()
}

try await benchmark()
