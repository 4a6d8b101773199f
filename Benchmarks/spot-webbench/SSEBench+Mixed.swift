import Foundation

/// Connections spread over many lists, a steady rate of writes among them: each change's
/// latency to its list's connections, and RSS over time.
func mixed(_ options: SSEOptions, table: SSETable, directory: URL) async throws {
    let lists = options.lists
    _ = try await SSEData.prepare(.init(mixLists: lists), directory: directory, database: nil)
    let server = try await SSEServer(directory: directory, database: nil)
    let log = StreamLog()
    let client = EventStreamClient(threads: options.clientThreads, port: server.port, log: log)
    let paths = (0..<lists).map { EventStreamClient.path(list: "tags/\(SSEData.mixSpot($0))") }
    var held: [EventStreamClient.Connection] = []
    do {
        held = await client.open(count: options.mixedConnections) { index in (index % lists, paths[index % lists]) }
        guard held.count == options.mixedConnections else {
            throw BenchError("mixed: only \(held.count) of \(options.mixedConnections) connections got their snapshot: \(describe(log.counts))")
        }
        try await Task.sleep(for: .seconds(1))
        _ = log.takeArrivals()
        let perList = (0..<lists).map { list in held.count / lists + (list < held.count % lists ? 1 : 0) }

        // The writes: list k % lists at k / rate seconds, each on a connection of its own; the
        // time each was sent, per list.
        let sends = Locked<[[UInt64]]>(Array(repeating: [], count: lists))
        let statuses = Locked<[Int: Int]>([:])
        let total = options.writesPerSecond * options.duration
        let warmUp = max(options.duration / 6, 2)
        var samples: [(second: Int, kb: Int)] = []
        let start = ContinuousClock.now
        let cpuBefore = server.probe.cpuSeconds
        await withTaskGroup(of: Void.self) { group in
            var nextSample = 0
            for write in 0..<total {
                let due = start + .nanoseconds(Int64(write) * 1_000_000_000 / Int64(options.writesPerSecond))
                if due > ContinuousClock.now { try? await Task.sleep(until: due) }
                let second = Int((ContinuousClock.now - start).components.seconds)
                if second >= nextSample {
                    samples.append((second, server.probe.residentKB))
                    nextSample = second + 1
                }
                let list = write % lists
                let photo = SSEData.photoID(SSEData.mixBase + list * SSEData.mixRows)
                let hide = (write / lists) % 2 == 0
                sends.withLock { $0[list].append(now()) }
                group.addTask {
                    let status = (try? await server.toggle(photo, hide: hide).status) ?? -1
                    statuses.withLock { $0[status, default: 0] += 1 }
                }
            }
        }
        try await Task.sleep(for: .seconds(2))
        samples.append((options.duration + 2, server.probe.residentKB))
        let cpu = server.probe.cpuSeconds - cpuBefore

        // Each arrival against the latest write to its list sent before it.
        let sent = sends.withLock { $0 }
        var latencies: [Double] = []
        var unmatched = 0
        for arrival in log.takeArrivals() {
            let times = sent[Int(arrival.list)]
            guard let sentAt = times.last(where: { $0 <= arrival.at }) else {
                unmatched += 1
                continue
            }
            latencies.append(Double(arrival.at - sentAt) / 1e6)
        }
        let expected = (0..<lists).reduce(0) { $0 + sent[$1].count * perList[$1] }
        let measured = Latencies(latencies)
        let warmKB = samples.first { $0.second >= warmUp }?.kb ?? samples[0].kb
        let after = samples.filter { $0.second >= warmUp }.map(\.kb)
        let (low, high, last) = (after.min() ?? warmKB, after.max() ?? warmKB, samples.last?.kb ?? warmKB)
        let flat = Double(high) <= Double(warmKB) * 1.1 && Double(low) >= Double(warmKB) * 0.9
        let answered = statuses.withLock { $0 }
        table.add(
            "\(grouped(held.count)) connections over \(lists) lists, \(options.writesPerSecond) writes/s for \(options.duration) s",
            target: "p99 ≤ 250 ms; RSS flat after warm-up (±10 %)",
            measured: "p50 \(ms(measured.p50)), p99 \(ms(measured.p99)), max \(ms(measured.max)) over \(grouped(measured.count)) "
                + "deliveries (\(grouped(expected)) expected); RSS at \(warmUp) s \(warmKB / 1024) MB, after it "
                + "\(low / 1024)–\(high / 1024) MB, at the end \(last / 1024) MB; server CPU \(String(format: "%.1f", cpu)) s",
            met: measured.p99 <= 250 && flat && measured.count >= expected
        )
        if answered.keys.contains(where: { $0 != 200 }) || unmatched > 0 {
            table.note("mixed: write answers \(answered.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }), \(unmatched) changes matched no write")
        }
        table.note("mixed: RSS each second (MB): " + samples.map { "\($0.kb / 1024)" }.joined(separator: " ") + "; client counts \(describe(log.counts))")
        _ = await server.checkAnswering(table, after: "the mixed run")
    } catch {
        await EventStreamClient.close(held)
        await client.shutdown()
        await server.shutdown()
        throw error
    }
    await EventStreamClient.close(held)
    await client.shutdown()
    let stop = await server.terminate()
    if stop.status != 0 { table.note("mixed: `spot serve` exit status \(stop.status.map(String.init) ?? "none (killed)") after \(String(format: "%.1f", stop.seconds)) s") }
    await server.shutdown()
    noteServerErrors(server, table: table, scenario: "mixed")
}
