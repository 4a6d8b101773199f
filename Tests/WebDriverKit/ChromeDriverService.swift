public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `chromedriver` on a free loopback port, serving any number of concurrent
/// ``WebDriverSession``s (each session gets its own chromium).
///
/// **Concurrency model.** Tests normally share one service per test process via
/// ``shared()``; every test then creates its own session, so tests can run in parallel.
/// A private service (``start(timeout:)``) is also possible, e.g. to test the service itself.
///
/// **No orphans.** chromedriver runs in a process group of its own (chromium and its
/// helpers inherit it), owned by a small guardian shell:
/// * ``stop()`` asks chromedriver to `/shutdown` (closing its browsers), then ends the
///   group with SIGKILL — always by its own process-group id, never by name;
/// * `deinit` and normal process exit (`atexit`) SIGKILL the group;
/// * if the test process dies abruptly, the guardian notices its stdin pipe closing and
///   ends the group.
///
/// Executables are found on `PATH` (or via `CHROMIUM_PATH` / `CHROMEDRIVER_PATH`).
public final class ChromeDriverService: Sendable {
    /// Path of the `chromium` executable handed to chromedriver as the browser binary.
    public let chromiumPath: String
    /// Path of the `chromedriver` executable.
    public let chromedriverPath: String
    /// The loopback port chromedriver listens on.
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The process-group id shared by the guardian shell (whose pid it is), chromedriver,
    /// and the browsers chromedriver starts.
    public let processGroupID: Int32
    /// File receiving chromedriver's own output (useful when a session fails to start).
    public let logFile: URL

    let client: WireClient
    private let exited: ExitSignal
    /// The write end of the guardian's stdin pipe; `nil` once stopped.
    private let lifeline: Mutex<Int32?>
    /// Profile folders of sessions not yet quit, removed by ``stop()``.
    private let profiles = Mutex<Set<URL>>([])

    private init(
        chromium: String,
        chromedriver: String,
        port: Int,
        processGroupID: Int32,
        logFile: URL,
        lifeline: Int32,
        exited: ExitSignal
    ) {
        self.chromiumPath = chromium
        self.chromedriverPath = chromedriver
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.processGroupID = processGroupID
        self.logFile = logFile
        self.client = WireClient(port: port)
        self.exited = exited
        self.lifeline = Mutex(lifeline)
    }

    /// Whether chromedriver is still running.
    public var isRunning: Bool { !exited.hasFired }

    /// Finds both executables, or throws an error naming the missing ones and the install command.
    ///
    /// - Parameter environment: Where `PATH`, `CHROMIUM_PATH` and `CHROMEDRIVER_PATH` are read.
    public static func locateExecutables(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (chromium: String, chromedriver: String) {
        let chromium = ProcessSupport.findExecutable("chromium", override: "CHROMIUM_PATH", in: environment)
        let chromedriver = ProcessSupport.findExecutable("chromedriver", override: "CHROMEDRIVER_PATH", in: environment)
        if let chromium, let chromedriver { return (chromium, chromedriver) }
        let missing = [chromium == nil ? "chromium" : nil, chromedriver == nil ? "chromedriver" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        throw WebDriverError(
            code: WebDriverError.Code.executableNotFound,
            message: "\(missing) not found on PATH; install with: \(ProcessSupport.installHint)",
            command: "locate executables"
        )
    }

    /// Starts a private chromedriver and waits until `GET /status` reports ready.
    ///
    /// Polls `/status` with a short backoff for up to `timeout`; if chromedriver exits
    /// early (say, its port was taken meanwhile) it retries on a new port, up to 3 times.
    public static func start(timeout: Duration = .seconds(60)) async throws -> ChromeDriverService {
        let (chromium, chromedriver) = try locateExecutables()
        var lastError: WebDriverError?
        for _ in 0..<3 {
            do {
                return try await launch(chromium: chromium, chromedriver: chromedriver, timeout: timeout)
            } catch let error as WebDriverError where error.message.hasPrefix(exitedEarly) {
                lastError = error  // most likely the port was taken meanwhile: try another
            }
        }
        throw lastError!
    }

    private static let exitedEarly = "chromedriver exited early"

    /// The service shared by everything in this process, started on first use.
    ///
    /// It lives until the process exits (then `atexit` ends it). If it stopped or failed
    /// to start, the next call starts a new one.
    public static func shared() async throws -> ChromeDriverService {
        try await SharedService.instance.get()
    }

    private static func launch(chromium: String, chromedriver: String, timeout: Duration) async throws -> ChromeDriverService {
        let port = try ProcessSupport.freeLoopbackPort()
        let logFile = TemporaryFiles.make("chromedriver", suffix: ".log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let (pid, lifeline) = try ProcessSupport.spawnGuardian(
            arguments: [logFile.path, chromedriver, "--port=\(port)"])
        let exited = ExitSignal()
        ProcessSupport.reap(pid, then: exited)
        let command = "start \(chromedriver) --port=\(port)"
        LiveDriverGroups.insert(pid, logFile: logFile.path)
        let service = ChromeDriverService(
            chromium: chromium,
            chromedriver: chromedriver,
            port: port,
            processGroupID: pid,
            logFile: logFile,
            lifeline: lifeline,
            exited: exited
        )
        do {
            try await service.waitUntilReady(timeout: timeout, command: command)
        } catch {
            await service.stop()
            throw error
        }
        return service
    }

    /// Polls `GET /status` until `ready` is true, chromedriver exits, or `timeout` passes.
    private func waitUntilReady(timeout: Duration, command: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause = Duration.milliseconds(10)
        while clock.now < deadline {
            if exited.hasFired {
                throw WebDriverError(code: WebDriverError.Code.driverStartFailed, message: "\(Self.exitedEarly): \(logTail())", command: command)
            }
            if let status = try? await client.send(.get, "/status", timeout: 2), status["ready"]?.boolValue == true {
                return
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(250))
        }
        throw WebDriverError(code: WebDriverError.Code.driverStartFailed, message: "not ready after \(timeout): \(logTail())", command: command)
    }

    /// The last few hundred characters chromedriver logged.
    public func logTail(_ count: Int = 600) -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return String(text.suffix(count))
    }

    /// Stops chromedriver and every browser it started. Safe to call more than once.
    ///
    /// Order: `GET /shutdown` (clean browser exit) → close the guardian's lifeline (the
    /// guardian SIGKILLs chromedriver and the rest of the group) → after 5 s, SIGKILL the
    /// group from here. Returns once chromedriver has been reaped and the whole group has
    /// been sent SIGKILL (the browsers finish exiting a moment later); also removes the log
    /// file and the profiles of sessions that were not quit.
    public func stop() async {
        guard
            let fd = lifeline.withLock({ fd in
                defer { fd = nil }
                return fd
            })
        else { return }
        if !exited.hasFired {
            _ = try? await client.send(.get, "/shutdown", timeout: 5)
        }
        close(fd)
        if await !exited.wait(timeout: .seconds(5)) {
            kill(-processGroupID, SIGKILL)
            _ = await exited.wait(timeout: .seconds(5))
        }
        LiveDriverGroups.remove(processGroupID)
        try? FileManager.default.removeItem(at: logFile)
        for profile in profiles.withLock({ $0 }) { forgetProfile(profile) }
    }

    /// Records a session's profile folder so ``stop()`` can remove it if the session isn't quit.
    func rememberProfile(_ folder: URL) {
        _ = profiles.withLock { $0.insert(folder) }
    }

    /// Removes a session's profile folder.
    func forgetProfile(_ folder: URL) {
        _ = profiles.withLock { $0.remove(folder) }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit {
        if let fd = lifeline.withLock({ $0 }) {
            kill(-processGroupID, SIGKILL)
            close(fd)
            LiveDriverGroups.remove(processGroupID)
            unlink(logFile.path)
        }
    }
}

/// Holds the process-wide shared service; concurrent first callers share one start.
private actor SharedService {
    static let instance = SharedService()
    private var task: Task<ChromeDriverService, any Error>?

    func get() async throws -> ChromeDriverService {
        while true {
            let current: Task<ChromeDriverService, any Error>
            if let task {
                current = task
            } else {
                current = Task { try await ChromeDriverService.start() }
                task = current
            }
            do {
                let service = try await current.value
                if service.isRunning { return service }
                if task == current { task = nil }  // it was stopped: start another
            } catch {
                if task == current { task = nil }
                throw error
            }
        }
    }
}
