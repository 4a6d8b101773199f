import Foundation
import NIOCore
import NIOHTTP1

/// Connections opened and dropped mid-stream at a steady rate, with writes and one refresh:
/// `/health` every 250 ms, and the server's RSS and sockets before and after.
func churn(_ options: SSEOptions, table: SSETable, directory: URL) async throws {
    _ = try await SSEData.prepare(.init(fanRows: options.rows), directory: directory, database: nil)
    let server = try await SSEServer(directory: directory, database: nil)
    let log = StreamLog(recording: false)
    let client = EventStreamClient(threads: options.clientThreads, port: server.port, log: log)
    let path = EventStreamClient.path(list: "tags/\(SSEData.fanSpot)")
    let photo = SSEData.photoID(SSEData.fanBase)
    do {
        // Warm up: the list open, some connections come and gone, then the "before" readings.
        let warm = await client.open(count: 500) { _ in (0, path) }
        _ = try await server.toggle(photo)
        _ = try await server.toggle(photo)
        await EventStreamClient.close(warm)
        try await Task.sleep(for: .seconds(3))
        let beforeKB = server.probe.residentKB
        let beforeSockets = server.probe.connections(onPort: server.port)
        let streamsBefore = await openStreamCount(server)

        let health = Locked<[(at: Double, milliseconds: Double?, status: Int)]>([])
        let writes = Locked<[Int: Int]>([:])
        var refreshStatus = 0
        var launched = 0
        let start = ContinuousClock.now
        let end = start + .seconds(options.duration)
        @Sendable func elapsed() -> Double {
            let time = ContinuousClock.now - start
            return Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        }
        await withTaskGroup(of: Void.self) { group in
            // /health every 250 ms, each on a new connection, given up after 1 s.
            group.addTask {
                await withTaskGroup(of: Void.self) { checks in
                    while ContinuousClock.now < end {
                        checks.addTask {
                            let at = elapsed()
                            let answer = await server.timedGet("/health", timeout: .seconds(1))
                            health.withLock { $0.append((at, answer?.milliseconds, answer?.status ?? 0)) }
                        }
                        try? await Task.sleep(for: .milliseconds(250))
                    }
                }
            }
            // Five writes a second on the churned list.
            group.addTask {
                while ContinuousClock.now < end {
                    let status = (try? await server.toggle(photo).status) ?? -1
                    writes.withLock { $0[status, default: 0] += 1 }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            // The connections: every 10 ms, a hundredth of a second's worth, none waited for;
            // a third dropped at the answer's head, a third after the snapshot with a FIN and a
            // third with a reset, both within a second.
            let perTick = max(options.connectRate / 100, 1)
            var tick = 0
            var refreshed = false
            while ContinuousClock.now < end {
                for _ in 0..<perTick {
                    let kind = launched % 3
                    let drop: EventStreamHandler.Drop =
                        kind == 0 ? .atHead : .afterSnapshot(nanoseconds: Int64.random(in: 0..<1_000_000_000))
                    _ = client.connect(index: launched, list: 0, path: path, drop: drop, reset: kind == 2)
                    launched += 1
                }
                if !refreshed, ContinuousClock.now - start >= .seconds(options.duration / 2) {
                    refreshed = true
                    refreshStatus = (try? await server.refresh()) ?? -1
                }
                tick += 1
                try? await Task.sleep(until: start + .milliseconds(10 * tick))
            }
        }
        let rate = Double(launched) / Double(options.duration)
        // Afterwards: every client connection closed, the server's sockets back, RSS.
        await wait(upTo: .seconds(15)) {
            let counts = log.counts
            return counts.dropped + counts.endedByServer + counts.failures.values.reduce(0, +) >= launched
        }
        let settled = await wait(upTo: .seconds(30)) { server.probe.connections(onPort: server.port) <= beforeSockets }
        try await Task.sleep(for: .seconds(3))
        let afterKB = server.probe.residentKB
        let afterSockets = server.probe.connections(onPort: server.port)
        let streamsAfter = await openStreamCount(server)
        let checks = health.withLock { $0 }
        let answered = checks.compactMap { $0.status == 200 ? $0.milliseconds : nil }
        let late = checks.filter { $0.status != 200 || ($0.milliseconds ?? .infinity) > 1000 }
        let times = Latencies(answered)
        let growth = Double(afterKB - beforeKB) / Double(beforeKB)
        let counts = log.counts
        table.add(
            "Churn: \(options.duration) s of \(grouped(Int(rate))) connects/s (\(grouped(launched)) in all) dropped mid-stream, 5 writes/s, a refresh",
            target: "`/health` answers every time within 1 s; afterwards subscriber counts 0 and RSS within 10 % of before",
            measured: "`/health` \(checks.count - late.count) of \(checks.count) within 1 s (p50 \(ms(times.p50)), p99 \(ms(times.p99)), "
                + "max \(ms(times.max))); RSS \(beforeKB / 1024) → \(afterKB / 1024) MB (\(String(format: "%+.1f", growth * 100)) %); "
                + "connections on the server's port \(beforeSockets) → \(afterSockets)\(settled ? "" : " (not back after 30 s)")"
                + (streamsAfter.map { "; open streams \(streamsBefore.map(String.init) ?? "?") → \($0)" } ?? ""),
            met: late.isEmpty && abs(growth) <= 0.10 && settled && (streamsAfter ?? 0) == 0
        )
        if !late.isEmpty {
            let first = late.prefix(5).map { check in
                "at \(String(format: "%.2f", check.at)) s: " + (check.milliseconds.map { "\(ms($0)), status \(check.status)" } ?? "no answer within 1 s")
            }
            table.note("churn: `/health` late or failing \(late.count) times; first: " + first.joined(separator: "; "))
        }
        table.note(
            "churn: writes answered \(writes.withLock { $0 }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }); "
                + "refresh answered \(refreshStatus); client counts \(describe(counts))"
        )
        _ = await server.checkAnswering(table, after: "the churn")
    } catch {
        await client.shutdown()
        await server.shutdown()
        throw error
    }
    await client.shutdown()
    let stop = await server.terminate()
    if stop.status != 0 { table.note("churn: `spot serve` exit status \(stop.status.map(String.init) ?? "none (killed)") after \(String(format: "%.1f", stop.seconds)) s") }
    await server.shutdown()
    noteServerErrors(server, table: table, scenario: "churn")
}

/// The server's own count of open event streams, when `/health` or `/api/status` shows one
/// (a field whose name holds "stream" or "subscriber").
func openStreamCount(_ server: SSEServer) async -> Int? {
    for path in ["/health", "/api/status"] {
        guard let answer = try? await HTTPConnection.once(.GET, path, port: server.port, on: server.requests),
            let object = try? JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
        else { continue }
        if let count = findCount(in: object) { return count }
    }
    return nil
}

private func findCount(in object: [String: Any]) -> Int? {
    for (key, value) in object {
        let name = key.lowercased()
        if name.contains("stream") || name.contains("subscriber"), let count = value as? Int { return count }
        if let nested = value as? [String: Any], let count = findCount(in: nested) { return count }
    }
    return nil
}
