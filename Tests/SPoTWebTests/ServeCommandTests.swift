import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

@Suite("spot serve: the README's main command, as a process")
struct ServeCommandTests {
    @Test(.timeLimit(.minutes(10)))
    func servesTheTourAndStopsCleanlyOnSIGTERMAndSIGINT() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "spot-serve-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        for signal in [SIGTERM, SIGINT] {
            let server = try ServerProcess.start(["serve", "--port", "0", "--data-dir", directory.path, "--refresh-minutes", "0"])
            let url = try await server.url()
            #expect(url.hasPrefix("http://127.0.0.1:"))
            // The database was empty on the first start: a refresh runs at once.
            let health = try await HTTPClient.shared.execute(HTTPClientRequest(url: url + "health"), timeout: .seconds(30))
            #expect(health.status == .ok)
            let page = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            #expect(page.status == .ok)
            // An open event stream must not keep the server from stopping.
            let stream = try await HTTPClient.shared.execute(HTTPClientRequest(url: url + "events?list=spots"), timeout: .seconds(30))
            #expect(stream.status == .ok)
            let status = try await server.stop(signal: signal)
            #expect(status == 0, "exit status after signal \(signal); output: \(server.output)")
            #expect(server.output.contains("SPoT stopped."))
        }
    }

    @Test func refusesABadPortWithAClearMessage() async throws {
        let server = try ServerProcess.start(["serve", "--port", "70000"])
        let status = try await server.waitForExit()
        #expect(status != 0)
        #expect(server.errors.contains("--port must be from 0 to 65535"))
    }
}

/// The built `spot` executable running in the background, its output collected.
final class ServerProcess: @unchecked Sendable {
    // @unchecked Sendable: the collected text is guarded by `lock`; `process` is only
    // started and signalled, which Process allows from any thread.
    private let process = Process()
    private let lock = NSLock()
    private var stdout = ""
    private var stderr = ""
    private let exit: AsyncStream<Int32>
    private let exitContinuation: AsyncStream<Int32>.Continuation
    private let printed: AsyncStream<String>
    private let printedContinuation: AsyncStream<String>.Continuation
    /// Callers of ``waitForOutput(containing:)`` whose text has not been printed yet.
    private var outputWaiters: [(id: UUID, text: String, continuation: CheckedContinuation<Void, any Error>)] = []
    /// How many of the two output pipes have reached end of file.
    private var endedPipes = 0

    private init() {
        (exit, exitContinuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        (printed, printedContinuation) = AsyncStream<String>.makeStream()
    }

    /// Starts `spot` with `arguments`; with `openFilesLimit`, under util-linux's `prlimit`
    /// with that soft and hard limit on open files (prlimit runs `spot` in its own process).
    static func start(_ arguments: [String], openFilesLimit: Int? = nil) throws -> ServerProcess {
        let server = ServerProcess()
        let spot = ChildExecutable.url(named: "spot")
        if let openFilesLimit {
            server.process.executableURL = URL(filePath: "/usr/bin/prlimit")
            server.process.arguments = ["--nofile=\(openFilesLimit):\(openFilesLimit)", spot.path] + arguments
        } else {
            server.process.executableURL = spot
            server.process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["FLICKR_API_KEY"] = nil
        server.process.environment = environment
        let out = Pipe()
        let err = Pipe()
        server.process.standardOutput = out
        server.process.standardError = err
        // Blocking reads on their own threads until end of file: readability handlers (dispatch
        // sources) on pipes that close with the child have crashed libdispatch on Linux.
        let printed = server.printedContinuation
        for (pipe, isError) in [(out, false), (err, true)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [weak server] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    let text = String(decoding: data, as: UTF8.self)
                    server?.append(text, isError: isError)
                    if !isError { printed.yield(text) }
                }
                if !isError { printed.finish() }
                server?.endOutput()
            }
        }
        let continuation = server.exitContinuation
        server.process.terminationHandler = { process in continuation.yield(process.terminationStatus) }
        try server.process.run()
        return server
    }

    private func append(_ text: String, isError: Bool) {
        let ready = lock.withLock {
            if isError { stderr += text } else { stdout += text }
            let all = stdout + stderr
            let ready = outputWaiters.filter { all.contains($0.text) }
            outputWaiters.removeAll { all.contains($0.text) }
            return ready
        }
        // Resumed outside the lock: a resumed waiter may read `output` at once.
        for waiter in ready { waiter.continuation.resume() }
    }

    private func endOutput() {
        let left: [(id: UUID, text: String, continuation: CheckedContinuation<Void, any Error>)] = lock.withLock {
            endedPipes += 1
            guard endedPipes == 2 else { return [] }
            defer { outputWaiters = [] }
            return outputWaiters
        }
        for waiter in left {
            waiter.continuation.resume(throwing: EventStreamError(message: "spot ended without printing \"\(waiter.text)\""))
        }
    }

    /// Returns once the server has printed `text` (on either stream); throws if its output
    /// ended without it or the waiting task is cancelled (a test's time limit).
    func waitForOutput(containing text: String) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: (any Error)?? = lock.withLock {
                    if (stdout + stderr).contains(text) { return .some(nil) }
                    if endedPipes == 2 || Task.isCancelled {
                        return .some(EventStreamError(message: "spot printed no \"\(text)\" (ended or cancelled)"))
                    }
                    outputWaiters.append((id, text, continuation))
                    return nil
                }
                if let outcome {
                    if let error = outcome { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = outputWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return outputWaiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// The server's process identifier.
    var processIdentifier: Int32 { process.processIdentifier }

    var output: String { lock.withLock { stdout + stderr } }
    var errors: String { lock.withLock { stderr } }

    /// The URL the server printed, once it listens.
    func url() async throws -> String {
        var seen = ""
        for await text in printed {
            seen += text
            if let line = seen.split(separator: "\n").first(where: { $0.contains("serving the tour at ") }),
                let start = line.range(of: "http://"), let end = line[start.lowerBound...].firstIndex(of: " ")
            {
                return String(line[start.lowerBound..<end])
            }
        }
        throw EventStreamError(message: "spot serve ended without printing its URL: \(output)")
    }

    /// Sends `signal` and waits for the exit status.
    func stop(signal: Int32) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        return try await waitForExit()
    }

    func waitForExit() async throws -> Int32 {
        for await status in exit { return status }
        throw EventStreamError(message: "no exit status")
    }

    /// A test that throws before it stops its server leaves no child behind: the last
    /// reference going (the test's scope ending, however it ends) kills a server still running.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
