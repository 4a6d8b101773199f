import Foundation
import Logging

/// Two instances on one PostgreSQL schema (`--postgres`): A serves from this process and
/// imports, B is a `spot serve` child that follows A's saves as remote changes. One wrk per
/// instance runs at once, idle and while A imports.
func benchmarkTwoInstances(_ options: Options, postgres: PostgresTarget) async throws {
    do {
        try await measureTwoInstances(options, postgres: postgres)
    } catch {
        try? await postgres.dropSchema()
        throw error
    }
    try await postgres.dropSchema()
}

private func measureTwoInstances(_ options: Options, postgres: PostgresTarget) async throws {
    let quiet = Logger(label: "webbench") { _ in SwiftLogNoOpLogHandler() }
    let directory = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-\(UUID().uuidString)", directoryHint: .isDirectory)
    defer { try? FileManager.default.removeItem(at: directory) }
    var bench = try await BenchSPoT(directory: directory.appending(path: "a"), database: postgres.schemaURL, logger: quiet)
    let a = try await RunningServer(spot: bench.spot, logger: quiet)
    let b: ServeProcess
    do {
        b = try await ServeProcess(directory: directory.appending(path: "b"), database: postgres.schemaURL)
    } catch {
        await a.stop()
        await bench.close()
        throw error
    }
    let instances = [("A (imports)", a.url("")), ("B (`spot serve`)", b.url(""))]
    do {
        try await waitUntilBothShow(BenchSPoT.seededPhotos, instances.map(\.1))
        // Warm up: open the lists on both and let the first renderings be cached.
        for page in listPages {
            _ = try await runWrk(atOnce: instances.map { $0.1 + page.path }, options: Options(["", "--seconds", "1"]))
        }
        print("| instance | page | load | requests/s | p50 ms | p99 ms | p99 ÷ idle p99 | non-2xx / socket errors |")
        print("|---|---|---|---:|---:|---:|---:|---|")
        var worst = 0.0
        var failed = false
        for page in latencyPages {
            let urls = instances.map { $0.1 + page.path }
            let idle = try await runWrk(atOnce: urls, options: options)
            let (loaded, imported) = try await bench.whileImporting { try await runWrk(atOnce: urls, options: options) }
            for (index, (name, _)) in instances.enumerated() {
                for (label, result) in [("idle", idle[index]), ("during import (\(imported) photos saved)", loaded[index])] {
                    print("| \(name) | \(page.name) | \(label) | \(result.latencyCells(idle: idle[index])) | \(result.errors ?? "0") |")
                    failed = failed || result.errors != nil
                }
                worst = max(worst, loaded[index].p99 / idle[index].p99)
            }
        }
        print(
            "\nTwo instances on \(postgres.description) (schema \(postgres.schema), dropped afterwards); one "
                + "wrk -t\(options.threads) -c\(options.connections) -d\(options.seconds)s --latency per instance, at once; "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores. Worst p99 during import ÷ idle: "
                + "\(String(format: "%.2f×", worst)) (target ≤ 2×: \(worst <= 2 ? "met" : "missed")); errors: \(failed ? "some" : "none")."
        )
    } catch {
        await b.stop()
        await a.stop()
        await bench.close()
        throw error
    }
    let status = await b.stop()
    await a.stop()
    await bench.close()
    if status != 0 { throw BenchError("spot serve (B) exited with status \(status)") }
}

/// Waits (up to two minutes) until every server at `bases` shows `count` photos in all and
/// runs no refresh: both serve the same catalogue.
private func waitUntilBothShow(_ count: Int, _ bases: [String]) async throws {
    let deadline = ContinuousClock.now + .seconds(120)
    var shown: [Int?] = []
    while ContinuousClock.now < deadline {
        let states = try await onOwnThread { try bases.map(catalogueState) }
        shown = states.map(\.photos)
        if states.allSatisfy({ $0.photos == count && !$0.refreshing }) { return }
        try await Task.sleep(for: .milliseconds(200))
    }
    throw BenchError("the two instances did not both show \(count) photos within two minutes (they show \(shown))")
}
