import Foundation
import TestSupport
import Testing

/// Runs the built `spot` executable, as a user would.
struct SpotCommand {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output's lines.
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The executable next to the test bundle (SwiftPM builds it because the tests depend on it).
    static let executable = ChildExecutable.url(named: "spot")

    /// Runs `spot arguments…` with `environment` added (and FLICKR_API_KEY removed, so the
    /// sandbox is used), and waits for it to exit — on a thread of its own, so the wait holds
    /// no thread of the pool the other tests run on.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        try await OwnThread.run { try runBlocking(arguments, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["FLICKR_API_KEY"] = nil
        env["SPOT_DATA_DIR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        let collected = CollectedOutput()
        for (pipe, isError) in [(stdout, false), (stderr, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                group.leave()
            }
        }
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: collected.text(isError: false), stderr: collected.text(isError: true))
    }
}

private final class CollectedOutput: @unchecked Sendable {
    // @unchecked Sendable: both fields are guarded by `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func set(_ data: Data, isError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isError { err = data } else { out = data }
    }

    func text(isError: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: isError ? err : out, as: UTF8.self)
    }
}
