import Foundation

/// Two `spot serve` on one PostgreSQL schema, connections on both, hides on A: how long B's
/// connections wait for the change (A's own for comparison).
func twoInstances(_ options: SSEOptions, postgres: PostgresTarget, table: SSETable, directory: URL) async throws {
    do {
        try await measureTwoInstances(options, postgres: postgres, table: table, directory: directory)
    } catch {
        try? await postgres.dropSchema()
        throw error
    }
    try await postgres.dropSchema()
}

private func measureTwoInstances(_ options: SSEOptions, postgres: PostgresTarget, table: SSETable, directory: URL) async throws {
    _ = try await SSEData.prepare(.init(fanRows: options.rows), directory: directory.appending(path: "seed"), database: postgres.schemaURL)
    let a = try await SSEServer(directory: directory.appending(path: "a"), database: postgres.schemaURL)
    let b: SSEServer
    do {
        b = try await SSEServer(directory: directory.appending(path: "b"), database: postgres.schemaURL)
    } catch {
        await a.shutdown()
        throw error
    }
    let logs = (a: StreamLog(), b: StreamLog())
    let clients = (
        a: EventStreamClient(threads: options.clientThreads, port: a.port, log: logs.a),
        b: EventStreamClient(threads: options.clientThreads, port: b.port, log: logs.b)
    )
    let path = EventStreamClient.path(list: "tags/\(SSEData.fanSpot)")
    let photo = SSEData.photoID(SSEData.fanBase)
    var held: [EventStreamClient.Connection] = []
    func cleanUp() async {
        await EventStreamClient.close(held)
        await clients.a.shutdown()
        await clients.b.shutdown()
        await a.shutdown()
        await b.shutdown()
    }
    do {
        let onA = await clients.a.open(count: options.perInstance) { _ in (0, path) }
        let onB = await clients.b.open(count: options.perInstance) { _ in (0, path) }
        held = onA + onB
        guard onA.count == options.perInstance, onB.count == options.perInstance else {
            throw BenchError("two-instances: \(onA.count) and \(onB.count) of \(options.perInstance) connections got their snapshot")
        }
        say("  \(grouped(onA.count)) + \(grouped(onB.count)) connections; RSS A \(a.probe.residentKB / 1024) MB, B \(b.probe.residentKB / 1024) MB")
        // A first change, to be sure B follows A, then the measured rounds.
        _ = try await a.toggle(photo)
        await wait(upTo: .seconds(10)) { logs.b.arrivalCount >= onB.count }
        try await Task.sleep(for: .milliseconds(500))
        _ = logs.a.takeArrivals()
        _ = logs.b.takeArrivals()
        var latencies: (a: [Double], b: [Double]) = ([], [])
        var missing = 0
        for _ in 0..<options.rounds {
            let started = now()
            let write = try await a.toggle(photo)
            guard write.status == 200 else { throw BenchError("two-instances: the hide on A answered \(write.status)") }
            await wait(upTo: .seconds(10)) { logs.b.arrivalCount >= onB.count && logs.a.arrivalCount >= onA.count }
            let arrivals = (a: logs.a.takeArrivals(), b: logs.b.takeArrivals())
            latencies.a += arrivals.a.map { Double($0.at &- started) / 1e6 }
            latencies.b += arrivals.b.map { Double($0.at &- started) / 1e6 }
            missing += max(onB.count - arrivals.b.count, 0)
            try await Task.sleep(for: .milliseconds(500))
        }
        let onBLatency = Latencies(latencies.b)
        let onALatency = Latencies(latencies.a)
        table.add(
            "Two instances on PostgreSQL, \(grouped(options.perInstance)) connections each, hide on A (\(options.rounds) hides)",
            target: "p99 on B ≤ 500 ms",
            measured: "B: p50 \(ms(onBLatency.p50)), p99 \(ms(onBLatency.p99)), max \(ms(onBLatency.max))"
                + (missing > 0 ? ", **\(missing) events missing on B after 10 s**" : "")
                + "; A: p50 \(ms(onALatency.p50)), p99 \(ms(onALatency.p99))",
            met: onBLatency.p99 <= 500 && missing == 0
        )
        table.note("two-instances on \(postgres.description): A \(describe(logs.a.counts)); B \(describe(logs.b.counts))")
        _ = await a.checkAnswering(table, after: "the two-instance run (A)")
        _ = await b.checkAnswering(table, after: "the two-instance run (B)")
    } catch {
        await cleanUp()
        throw error
    }
    await cleanUp()
    noteServerErrors(a, table: table, scenario: "two-instances A")
    noteServerErrors(b, table: table, scenario: "two-instances B")
}
