import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A `spot serve` child under an `--sse` scenario: its /proc readings, the writes that make
/// changes, and the requests that time it.
final class SSEServer: Sendable {
    let serve: ServeProcess
    let probe: ProcessProbe
    /// Event loops for the benchmark's own requests (writes, `/health`, pages), apart from the
    /// streams' so that their timing does not queue behind thousands of connections.
    let requests: MultiThreadedEventLoopGroup
    /// Each photo's hidden state, as the writes left it.
    private let hidden = Mutex<Set<String>>([])

    var port: Int { serve.port }

    init(directory: URL, database: URL?) async throws {
        serve = try await ServeProcess(directory: directory, database: database)
        probe = ProcessProbe(pid: serve.pid)
        requests = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Hides photo `id` if the writes left it shown, else shows it: one change on its lists.
    /// `hide` decides instead when given (writes that overlap cannot read each other's state).
    /// - Returns: the answer's status, and how long it took in ms.
    func toggle(_ id: String, hide: Bool? = nil) async throws -> (status: Int, milliseconds: Double) {
        let hide = hide ?? hidden.withLock { $0.contains(id) ? false : true }
        let started = now()
        let answer = try await HTTPConnection.once(
            .POST, "/api/photos/\(id)/\(hide ? "hide" : "unhide")", port: port, on: requests,
            headers: [("Origin", "http://127.0.0.1:\(port)")]
        )
        let elapsed = Double(now() - started) / 1e6
        if answer.status == 200 {
            hidden.withLock { if hide { _ = $0.insert(id) } else { $0.remove(id) } }
        }
        return (answer.status, elapsed)
    }

    /// `POST /api/refresh`.
    func refresh() async throws -> Int {
        try await HTTPConnection.once(.POST, "/api/refresh", port: port, on: requests, headers: [("Origin", "http://127.0.0.1:\(port)")]).status
    }

    /// `GET path` on a new connection, given up after `timeout` (the connection is closed).
    /// - Returns: the status and ms taken, or `nil` when no answer came in time.
    func timedGet(_ path: String, timeout: Duration) async -> (status: Int, milliseconds: Double)? {
        let started = now()
        let port = port
        let requests = requests
        let result: HTTPAnswer? = await withTaskGroup(of: HTTPAnswer?.self) { group in
            let connection = Locked<HTTPConnection?>(nil)
            group.addTask {
                guard let open = try? await HTTPConnection.open(port: port, on: requests) else { return nil }
                connection.withLock { $0 = open }
                let answer = try? await open.request(.GET, path)
                await open.close()
                return answer
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                // Closing the connection fails the request, which ends the first task.
                if let open = connection.withLock({ $0 }) { await open.close() }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let result else { return nil }
        return (result.status, Double(now() - started) / 1e6)
    }

    /// `GET /health` answers within 5 s; else the server's stacks are saved and named.
    func checkAnswering(_ table: SSETable, after what: String) async -> Bool {
        if let answer = await timedGet("/health", timeout: .seconds(5)), answer.status == 200 { return true }
        let file = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-stacks-\(serve.pid).txt")
        try? probe.stacks().write(to: file, atomically: true, encoding: .utf8)
        table.note(
            "after \(what), `spot serve` (pid \(serve.pid)) did not answer `/health` within 5 s: "
                + "CPU \(String(format: "%.1f", probe.cpuSeconds)) s, RSS \(probe.residentKB / 1024) MB, "
                + "\(probe.threads) threads; every thread's stack is in \(file.path)"
        )
        return false
    }

    /// Sequential `GET path` on one keep-alive connection for `seconds`, as a browser loads a
    /// page: each answer's time in ms (non-200 answers are counted, not timed).
    func pageLatencies(_ path: String, seconds: Int) async throws -> (Latencies, failures: Int) {
        let connection = try await HTTPConnection.open(port: port, on: requests)
        var times: [Double] = []
        var failures = 0
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let started = now()
            let answer = try await connection.request(.GET, path)
            if answer.status == 200 { times.append(Double(now() - started) / 1e6) } else { failures += 1 }
        }
        await connection.close()
        return (Latencies(times), failures)
    }

    /// SIGTERM, then up to `timeout` for the child to exit; SIGKILL (after saving its stacks)
    /// when it does not.
    /// - Returns: its exit status (`nil` if it had to be killed) and the seconds it took.
    func terminate(timeout: Duration = .seconds(15)) async -> (status: Int32?, seconds: Double, stacks: String?) {
        let process = serve.process
        let started = ContinuousClock.now
        guard process.isRunning else { return (process.terminationStatus, 0, nil) }
        process.terminate()
        while process.isRunning, ContinuousClock.now - started < timeout {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if process.isRunning {
            let file = FileManager.default.temporaryDirectory.appending(path: "spot-webbench-stacks-\(serve.pid)-sigterm.txt")
            try? probe.stacks().write(to: file, atomically: true, encoding: .utf8)
            kill(serve.pid, SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
            return (nil, seconds, file.path)
        }
        return (process.terminationStatus, seconds, nil)
    }

    func shutdown() async {
        if serve.process.isRunning { _ = await terminate() }
        try? await requests.shutdownGracefully()
    }
}

/// A value behind a lock, shared by reference (tasks' closures cannot capture a `Mutex`).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}

/// Waits until `condition` holds or `timeout` passes, checking every 2 ms.
/// - Returns: whether it held.
@discardableResult
func wait(upTo timeout: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
