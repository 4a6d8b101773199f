import Foundation
import ObjectGraph
import TestSupport
import Testing

/// SQLite's atomic commit, as ObjectGraph uses it: a writer process killed with SIGKILL at
/// random moments (`objectgraph-crash-writer`, which prints "saved N" after each save returns)
/// leaves a store that opens, passes `PRAGMA integrity_check`, has both sides of every
/// relationship in agreement, holds every save whole or not at all, and holds every save the
/// writer reported.
@Suite("Crash safety: a writer killed mid-save")
struct StoreCrashSafetyTests {
    /// The child executable next to the test bundle (SwiftPM builds it: the tests depend on it).
    static let child = ChildExecutable.url(named: "objectgraph-crash-writer")

    static let kills = 50

    @Test("a writer killed with SIGKILL 50 times loses no reported save and leaves no half-save", .timeLimit(.minutes(10)))
    func killedWriter() async throws {
        let directory = TestDirectory.make("objectgraph-crash")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Crash.sqlite").path
        // Fifty children started, waited for and killed at random moments: on a thread of its
        // own, so the waits hold no thread of the pool the other tests run on, and the kill
        // comes when it is due rather than when the pool has a turn free.
        let outcome = try await OwnThread.run { try Self.killRepeatedly(path: path) }
        for problem in outcome.problems { Issue.record(Comment(rawValue: problem)) }
        #expect(outcome.killedMidRun == Self.kills)
        #expect(outcome.reported >= Int64(Self.kills), "the writer reported only \(outcome.reported) saves in \(Self.kills) runs")
    }

    /// What ``killedWriter()`` saw: the problems, the kills that hit a running writer, the
    /// last save reported.
    struct KillOutcome: Sendable {
        var problems: [String] = []
        var killedMidRun = 0
        var reported: Int64 = 0
    }

    /// Starts, kills and verifies the writer ``kills`` times; stops at the first bad store.
    private static func killRepeatedly(path: String) throws -> KillOutcome {
        var outcome = KillOutcome()
        for run in 1...kills {
            let (process, reader) = try startWriter(path: path)
            // The first reported save: the writer is in its loop (reading, not sleeping).
            if reader.firstLine.wait(timeout: .now() + 60) != .success {
                outcome.problems.append("run \(run): the writer reported no save within 60 s")
            }
            // A random moment in the writer's loop.
            usleep(UInt32.random(in: 20_000...200_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            reader.finished.wait()
            if process.terminationReason == .uncaughtSignal {
                outcome.killedMidRun += 1
            } else {
                outcome.problems.append("run \(run): the writer exited by itself (\(process.terminationStatus))")
            }
            let before = outcome.reported
            outcome.reported = max(outcome.reported, reader.lastSave)
            let verdict = try verify(path: path, reported: outcome.reported)
            guard verdict.hasPrefix("ok ") else {
                outcome.problems.append("run \(run), killed after save \(outcome.reported) (was \(before)): \(verdict)")
                return outcome
            }
        }
        return outcome
    }

    @Test("the check sees a save missing one item, and a reported save that is not there")
    func verifierSeesHalfSave() throws {
        let directory = TestDirectory.make("objectgraph-crash")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Crash.sqlite").path
        let (process, reader) = try Self.startWriter(path: path)
        #expect(reader.firstLine.wait(timeout: .now() + 60) == .success)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        reader.finished.wait()
        let reported = reader.lastSave
        let whole = try Self.verify(path: path, reported: reported)
        #expect(whole.hasPrefix("ok "))
        let last = try #require(Int64(whole.dropFirst(3)))
        #expect(try Self.verify(path: path, reported: last + 1).contains("returned before the kill but the store ends at save \(last)"))
        _ = try Self.run(["tear", path])
        #expect(try Self.verify(path: path, reported: reported).contains("batch \(last) has \(4) items"))
    }

    /// Runs the child's `verify`: "ok LAST" or the problems it found.
    private static func verify(path: String, reported: Int64) throws -> String {
        try run(["verify", path, String(reported)])
    }

    /// Runs the child with `arguments` to its end: its output, prefixed with the exit status
    /// when it failed.
    /// Starts the writer on the store at `path`, its "saved N" lines read as they come.
    private static func startWriter(path: String) throws -> (Process, SaveLineReader) {
        let process = Process()
        process.executableURL = child
        process.arguments = ["write", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, SaveLineReader(output.fileHandleForReading))
    }

    private static func run(_ arguments: [String]) throws -> String {
        let (status, output) = try ChildExecutable.run(child, arguments)
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return status == 0 ? text : "\(arguments[0]) exited with \(status): \(text)"
    }
}

/// Reads a writer's "saved N" lines with blocking reads on a thread of its own (not
/// `readabilityHandler`), keeping the last N.
private final class SaveLineReader: @unchecked Sendable {  // `saved` is guarded by `lock`
    let firstLine = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var saved: Int64 = 0

    var lastSave: Int64 { lock.withLock { saved } }

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            var signalled = false
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    guard line.hasPrefix("saved "), let number = Int64(line.dropFirst(6)) else { continue }
                    lock.withLock { saved = max(saved, number) }
                    if !signalled {
                        signalled = true
                        firstLine.signal()
                    }
                }
            }
            if !signalled { firstLine.signal() }
            finished.signal()
        }
        thread.start()
    }
}
