import Foundation
import SPoTWeb

/// `--sse SCENARIO`: the event streams of `spot serve` under many connections (issue 41).
/// Each scenario starts a `spot serve` child of its own on a data folder it prepares, drives
/// it with ``EventStreamClient`` and the writes of ``SSEServer``, and adds its rows to one
/// table, printed at the end.
func benchmarkEventStreams(_ options: SSEOptions, postgres: PostgresTarget?) async throws {
    let limit = OpenFilesLimit.raiseToHardLimit()
    let table = SSETable()
    let scenarios: [SSEOptions.Scenario] =
        options.scenario == .all ? [.fanout, .mixed, .churn, .size] + (postgres == nil ? [] : [.twoInstances]) : [options.scenario]
    if scenarios.contains(.twoInstances), postgres == nil {
        throw BenchError("--sse two-instances needs --postgres postgres://user@host:port/database")
    }
    let command = CommandLine.arguments.dropFirst().joined(separator: " ")
    say(
        "spot-webbench \(command): \(ProcessInfo.processInfo.activeProcessorCount) cores, open files limit \(limit), "
            + "spot: \((try? ServeProcess.spotExecutable().path) ?? "not found")"
    )
    for scenario in scenarios {
        say("\n## \(scenario.rawValue) — load \(loadAverage())")
        let directory = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-sse-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        switch scenario {
        case .fanout: try await fanout(options, table: table, directory: directory)
        case .mixed: try await mixed(options, table: table, directory: directory)
        case .churn: try await churn(options, table: table, directory: directory)
        case .size: try await listSize(options, table: table, directory: directory)
        case .twoInstances: if let postgres { try await twoInstances(options, postgres: postgres, table: table, directory: directory) }
        case .all: break
        }
    }
    let build = CommandLine.arguments[0].contains("/debug/") ? "debug build" : "release build"
    say("\n`spot-webbench \(command)` (\(build), `spot serve` as a child, the client in this process on SwiftNIO):\n")
    say(table.markdown)
}

/// Fan-out on one list: RSS per idle connection, one hide → every connection, `/` idle and
/// loaded, and SIGTERM with every connection open.
private func fanout(_ options: SSEOptions, table: SSETable, directory: URL) async throws {
    let prepared = try await SSEData.prepare(.init(fanRows: options.rows), directory: directory, database: nil)
    say("  prepared a \(options.rows)-photo spot in \(prepared)")
    let server = try await SSEServer(directory: directory, database: nil)
    let log = StreamLog()
    let client = EventStreamClient(threads: options.clientThreads, port: server.port, log: log)
    let path = EventStreamClient.path(list: "tags/\(SSEData.fanSpot)")
    let photo = SSEData.photoID(SSEData.fanBase)
    var held: [EventStreamClient.Connection] = []
    do {
        // Warm up: the list opened (and its live list made) by a few connections, a few
        // changes and pages, then closed again; the empty server is measured after that.
        let warm = await client.open(count: 10) { _ in (0, path) }
        for _ in 0..<4 { _ = try await server.toggle(photo) }
        _ = try await server.pageLatencies("/", seconds: 1)
        await EventStreamClient.close(warm)
        try await Task.sleep(for: .seconds(2))
        let emptyKB = server.probe.residentKB
        let idlePages = try await server.pageLatencies("/", seconds: options.pageSeconds)
        _ = log.takeArrivals()

        var points: [FanoutPoint] = []
        var heldKB = 0
        for count in options.counts {
            let opening = ContinuousClock.now
            held += await client.open(count: count - held.count, first: held.count) { _ in (0, path) }
            let opened = ContinuousClock.now - opening
            guard held.count == count else {
                table.note("fanout: only \(held.count) of \(grouped(count)) connections got their snapshot; failures: \(log.counts.failures)")
                break
            }
            try await Task.sleep(for: .seconds(2))
            if count == options.counts.last {
                heldKB = server.probe.residentKB
                say("  \(grouped(count)) connections: RSS \(heldKB / 1024) MB (empty \(emptyKB / 1024) MB), \(server.probe.sockets) server sockets, opened in \(opened)")
            }
            _ = log.takeArrivals()
            var latencies: [Double] = []
            var missing = 0
            var writes: [Double] = []
            for _ in 0..<options.rounds {
                let started = now()
                let write = try await server.toggle(photo)
                writes.append(write.milliseconds)
                guard write.status == 200 else { throw BenchError("the hide answered \(write.status)") }
                await wait(upTo: .seconds(10)) { log.arrivalCount >= held.count }
                let arrivals = log.takeArrivals()
                latencies += arrivals.map { Double($0.at &- started) / 1e6 }
                missing += max(held.count - arrivals.count, 0)
                try await Task.sleep(for: .milliseconds(300))
            }
            let measured = Latencies(latencies)
            points.append(FanoutPoint(connections: count, p50: measured.p50, p99: measured.p99))
            table.add(
                "Fan-out, \(grouped(count)) connections on one list (\(options.rounds) hides)",
                target: count == 10_000 ? "p50 ≤ 100 ms, p99 ≤ 250 ms" : "(graph)",
                measured: "p50 \(ms(measured.p50)), p99 \(ms(measured.p99)), max \(ms(measured.max))"
                    + (missing > 0 ? ", **\(missing) events missing after 10 s**" : "")
                    + "; the hide's own answer p50 \(ms(Latencies(writes).p50))",
                met: count == 10_000 ? measured.p50 <= 100 && measured.p99 <= 250 && missing == 0 : nil
            )
            guard await server.checkAnswering(table, after: "the fan-out to \(count) connections") else { break }
        }

        if heldKB > 0, let count = options.counts.last, held.count == count {
            let perConnection = Double(heldKB - emptyKB) * 1024 / Double(count)
            table.add(
                "Open EventSource connections on one list",
                target: "10,000 held; RSS ≤ 25 KB per idle connection above the empty server",
                measured: "\(grouped(count)) held; RSS \(emptyKB / 1024) → \(heldKB / 1024) MB, "
                    + String(format: "%.1f KB", perConnection / 1024) + " per connection",
                met: count >= 10_000 && perConnection <= 25 * 1024
            )
            // `/` with every connection open, a hide each second meanwhile.
            let hides = Task {
                while !Task.isCancelled {
                    _ = try? await server.toggle(photo)
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            let loadedPages = try await server.pageLatencies("/", seconds: options.pageSeconds)
            hides.cancel()
            _ = await hides.value
            let ratio = loadedPages.0.p99 / idlePages.0.p99
            table.add(
                "`/` during the \(grouped(count))-connection run (a hide each second)",
                target: "`/` p99 within 2× of idle",
                measured: "idle p50 \(ms(idlePages.0.p50)), p99 \(ms(idlePages.0.p99)) (\(idlePages.0.count) requests); "
                    + "loaded p50 \(ms(loadedPages.0.p50)), p99 \(ms(loadedPages.0.p99)) (\(loadedPages.0.count)); "
                    + String(format: "%.2f×", ratio) + (loadedPages.failures + idlePages.failures > 0 ? "; non-200: \(loadedPages.failures + idlePages.failures)" : ""),
                met: ratio <= 2
            )
            _ = log.takeArrivals()
            let beforeTerm = log.counts
            let stop = await server.terminate()
            await wait(upTo: .seconds(5)) { log.counts.endedByServer - beforeTerm.endedByServer >= held.count }
            let ended = log.counts.endedByServer - beforeTerm.endedByServer
            table.add(
                "SIGTERM with \(grouped(count)) connections open",
                target: "exits within 10 s, status 0",
                measured: (stop.status.map { "exit status \($0) after \(String(format: "%.2f", stop.seconds)) s" }
                    ?? "**still running after \(String(format: "%.0f", stop.seconds)) s: killed** (stacks: \(stop.stacks ?? "-"))")
                    + "; \(grouped(ended)) streams ended by the server",
                met: stop.status == 0 && stop.seconds <= 10
            )
        }
        let build = CommandLine.arguments[0].contains("/debug/") ? "debug build" : "release build"
        let svg = fanoutSVG(
            points,
            title: "spot serve: one hide → the change event on every connection (\(build), \(ProcessInfo.processInfo.activeProcessorCount) cores)"
        )
        try svg.write(toFile: options.svgPath, atomically: true, encoding: .utf8)
        table.note("fanout: graph written to \(options.svgPath); client counts \(describe(log.counts))")
    } catch {
        await EventStreamClient.close(held)
        await client.shutdown()
        await server.shutdown()
        throw error
    }
    await EventStreamClient.close(held)
    await client.shutdown()
    await server.shutdown()
    noteServerErrors(server, table: table, scenario: "fanout")
}

/// The client's counts, for the notes.
func describe(_ counts: StreamLog.Counts) -> String {
    var text = "\(grouped(counts.connected)) connected, \(grouped(counts.snapshots)) snapshots, \(grouped(counts.changes)) changes"
    text += ", \(grouped(counts.dropped)) dropped by the client, \(grouped(counts.endedByServer)) ended by the server"
    if counts.outOfOrder > 0 { text += ", **\(counts.outOfOrder) changes out of order**" }
    if !counts.failures.isEmpty {
        let failures = counts.failures.sorted { $0.value > $1.value }.prefix(4).map { "\($0.key) ×\($0.value)" }
        text += ", failures: " + failures.joined(separator: "; ")
    }
    return text
}

/// What the server wrote to its standard error (its log), when it wrote anything.
func noteServerErrors(_ server: SSEServer, table: SSETable, scenario: String) {
    let lines = server.serve.errorOutput.split(separator: "\n")
    guard !lines.isEmpty else { return }
    table.note("\(scenario): `spot serve` logged \(lines.count) lines, the first: `\(lines.prefix(3).joined(separator: " / ").prefix(400))`")
}
