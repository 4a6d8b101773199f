import Foundation

/// Server CPU per change on a large list against a small one, both open at once: what one
/// change costs as the list grows.
func listSize(_ options: SSEOptions, table: SSETable, directory: URL) async throws {
    let prepared = try await SSEData.prepare(
        .init(smallRows: options.smallRows, bigRows: options.bigRows),
        directory: directory,
        database: nil
    )
    say("  prepared spots of \(grouped(options.smallRows)) and \(grouped(options.bigRows)) photos in \(prepared)")
    let server = try await SSEServer(directory: directory, database: nil)
    let log = StreamLog()
    let client = EventStreamClient(threads: options.clientThreads, port: server.port, log: log)
    let lists = [
        (name: "small", spot: SSEData.smallSpot, rows: options.smallRows, photo: SSEData.photoID(SSEData.smallBase)),
        (name: "big", spot: SSEData.bigSpot, rows: options.bigRows, photo: SSEData.photoID(SSEData.bigBase)),
    ]
    let perList = 2
    var held: [EventStreamClient.Connection] = []
    do {
        let opening = ContinuousClock.now
        let cpuOpening = server.probe.cpuSeconds
        for (index, list) in lists.enumerated() {
            let path = EventStreamClient.path(list: "tags/\(list.spot)")
            held += await client.open(count: perList, first: held.count) { _ in (index, path) }
        }
        guard held.count == perList * lists.count else { throw BenchError("size: not every connection got its snapshot: \(describe(log.counts))") }
        say(
            "  opened both lists in \(ContinuousClock.now - opening) (server CPU \(String(format: "%.2f", server.probe.cpuSeconds - cpuOpening)) s, "
                + "\(grouped(log.counts.bytes / 1024)) KB of snapshots); RSS \(server.probe.residentKB / 1024) MB"
        )
        // A few changes on each first, then small, big, small: the small list's figure is the
        // mean of its two runs, around the big one's.
        for list in lists { _ = try await changes(4, on: list.photo, server: server, log: log, connections: perList) }
        var perChange: [String: [Double]] = [:]
        var latency: [String: [Double]] = [:]
        for list in [lists[0], lists[1], lists[0]] {
            let cpuBefore = server.probe.cpuSeconds
            let times = try await changes(options.changes, on: list.photo, server: server, log: log, connections: perList)
            perChange[list.name, default: []].append((server.probe.cpuSeconds - cpuBefore) / Double(options.changes) * 1000)
            latency[list.name, default: []] += times
        }
        let small = perChange["small", default: []].reduce(0, +) / 2
        let big = perChange["big", default: []].reduce(0, +)
        let ratio = big / small
        table.add(
            "A change on a \(grouped(options.bigRows))-row list vs a \(grouped(options.smallRows))-row list (\(options.changes) changes each)",
            target: "server CPU per change ≤ 2×",
            measured: String(format: "%.2f ms vs %.2f ms of CPU per change: %.2f×", big, small, ratio)
                + "; change received p50 \(ms(Latencies(latency["big", default: []]).p50)) vs \(ms(Latencies(latency["small", default: []]).p50))",
            met: ratio <= 2
        )
        table.note("size: small list's two runs \(perChange["small", default: []].map { String(format: "%.2f", $0) }) ms of CPU per change; client counts \(describe(log.counts))")
        _ = await server.checkAnswering(table, after: "the size run")
    } catch {
        await EventStreamClient.close(held)
        await client.shutdown()
        await server.shutdown()
        throw error
    }
    await EventStreamClient.close(held)
    await client.shutdown()
    _ = await server.terminate()
    await server.shutdown()
    noteServerErrors(server, table: table, scenario: "size")
}

/// `count` changes of `photo`, one after another, each waited for on all `connections`.
/// - Returns: each change's time from the write to its last connection, in ms.
private func changes(_ count: Int, on photo: String, server: SSEServer, log: StreamLog, connections: Int) async throws -> [Double] {
    _ = log.takeArrivals()
    var times: [Double] = []
    for _ in 0..<count {
        let started = now()
        let write = try await server.toggle(photo)
        guard write.status == 200 else { throw BenchError("size: a write answered \(write.status)") }
        guard await wait(upTo: .seconds(60), until: { log.arrivalCount >= connections }) else {
            throw BenchError("size: a change did not reach its \(connections) connections within 60 s")
        }
        times.append(Double((log.takeArrivals().map(\.at).max() ?? started) &- started) / 1e6)
    }
    return times
}
