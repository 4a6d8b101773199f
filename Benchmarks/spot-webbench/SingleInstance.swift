import Foundation
import Logging

/// One server in this process over SQLite: the page-to-static table, then p50/p99 idle and
/// during an import.
func benchmarkOneInstance(_ options: Options) async throws {
    let quiet = Logger(label: "webbench") { _ in SwiftLogNoOpLogHandler() }
    let directory = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-\(UUID().uuidString)", directoryHint: .isDirectory)
    defer { try? FileManager.default.removeItem(at: directory) }
    var bench = try await BenchSPoT(directory: directory, database: nil, logger: quiet)
    // Each page's body, served again as a static file by the server measured: a file of the
    // page's size, sent the way `/static/app.css` is.
    let first = try await RunningServer(spot: bench.spot, logger: quiet)
    var staticFiles: [String: (bytes: [UInt8], contentType: String)] = [:]
    for page in listPages {
        staticFiles[page.file] = (try body(of: first.url(page.path)), "text/html; charset=utf-8")
    }
    await first.stop()
    let server = try await RunningServer(spot: bench.spot, logger: quiet, staticFiles: staticFiles)
    // Warm up: open the lists and let the first renderings be cached.
    for page in listPages {
        _ = try runWrk(server.url(page.path), options: Options(["", "--seconds", "1"]))
    }

    print("| page | size | page requests/s | same-size static file requests/s | static ÷ page |")
    print("|---|---:|---:|---:|---:|")
    let appCSS = try runWrk(server.url("/static/app.css"), options: options)
    print("| (`/static/app.css`) | \(appCSS.kilobytes) KB | | \(String(format: "%.0f", appCSS.requestsPerSecond)) | |")
    for page in listPages {
        let measured = try runWrk(server.url(page.path), options: options)
        let staticFile = try runWrk(server.url("/static/\(page.file)"), options: options)
        print(
            "| \(page.name) | \(measured.kilobytes) KB | \(String(format: "%.0f", measured.requestsPerSecond)) | "
                + "\(String(format: "%.0f", staticFile.requestsPerSecond)) | "
                + "\(String(format: "%.2f×", staticFile.requestsPerSecond / measured.requestsPerSecond)) |"
        )
    }
    print("")

    print("| page | load | requests/s | p50 ms | p99 ms | p99 ÷ idle p99 |")
    print("|---|---|---:|---:|---:|---:|")
    for page in latencyPages {
        let url = server.url(page.path)
        let idle = try runWrk(url, options: options)
        let (loaded, imported) = try await bench.whileImporting { try runWrk(url, options: options) }
        for (label, result) in [("idle", idle), ("during import (\(imported) photos saved)", loaded)] {
            print("| \(page.name) | \(label) | \(result.latencyCells(idle: idle)) |")
            if let errors = result.errors { print("|  | \(errors) | | | | |") }
        }
    }
    print(
        "\nwrk -t\(options.threads) -c\(options.connections) -d\(options.seconds)s --latency; \(ProcessInfo.processInfo.activeProcessorCount) cores; debug builds are slower: use -c release."
    )
    await server.stop()
    await bench.close()
}
