import Foundation

/// What wrk measured.
struct WrkResult: Sendable {
    var requestsPerSecond: Double
    /// Bytes per second received, headers included (wrk's Transfer/sec).
    var bytesPerSecond: Double
    var p50: Double
    var p99: Double
    /// wrk's "Non-2xx or 3xx responses" and "Socket errors" lines, when it printed any.
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
        var errors: [String] = []
        for line in report.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rps = Double(fields[1]) }
            if fields.first == "Transfer/sec:", fields.count > 1 { transfer = bytes(fields[1]) }
            if fields.count == 2, fields[0] == "50%" { p50 = milliseconds(fields[1]) }
            if fields.count == 2, fields[0] == "99%" { p99 = milliseconds(fields[1]) }
            if line.contains("Non-2xx") || line.contains("Socket errors") { errors.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        guard let rps, let transfer, let p50, let p99 else { throw BenchError("could not read wrk's report:\n\(report)") }
        self.requestsPerSecond = rps
        self.bytesPerSecond = transfer
        self.p50 = p50
        self.p99 = p99
        self.errors = errors.isEmpty ? nil : errors.joined(separator: "; ")
    }

    /// The size of one answer in kilobytes, from wrk's rates.
    var kilobytes: Int {
        Int((bytesPerSecond / requestsPerSecond / 1024).rounded())
    }

    /// This run's requests/s, p50, p99 and p99 ÷ `idle`'s p99, as Markdown table cells.
    func latencyCells(idle: WrkResult) -> String {
        "\(String(format: "%.0f", requestsPerSecond)) | \(String(format: "%.2f", p50)) | "
            + "\(String(format: "%.2f", p99)) | \(String(format: "%.2f×", p99 / idle.p99))"
    }
}

/// Runs wrk against `url` to its end (blocking the calling thread).
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

/// One wrk per URL, all at once, each waited for on a thread of its own: the results in
/// `urls`' order.
func runWrk(atOnce urls: [String], options: Options) async throws -> [WrkResult] {
    try await withThrowingTaskGroup(of: (Int, WrkResult).self) { group in
        for (index, url) in urls.enumerated() {
            group.addTask { (index, try await onOwnThread { try runWrk(url, options: options) }) }
        }
        var results: [WrkResult?] = Array(repeating: nil, count: urls.count)
        for try await (index, result) in group { results[index] = result }
        return results.compactMap { $0 }
    }
}

/// Runs `body` on a new thread, so that its blocking waits hold no thread of the
/// concurrency pool (2 threads on 2 cores, which the servers measured need).
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
