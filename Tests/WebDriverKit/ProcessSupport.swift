import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Process plumbing for ``ChromeDriverService``: executable lookup, free ports,
/// the guardian shell that owns chromedriver, and the at-exit kill list.
enum ProcessSupport {
    /// The install command named in "missing executable" errors.
    static let installHint = "apt-get install -y chromium chromium-driver"

    /// Finds `name` in `PATH` (an environment override such as `CHROMEDRIVER_PATH` wins).
    static func findExecutable(_ name: String, override variable: String, in environment: [String: String]) -> String? {
        let fileManager = FileManager.default
        if let explicit = environment[variable], !explicit.isEmpty {
            return fileManager.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Asks the kernel for a free loopback port by binding port 0, then releases it.
    ///
    /// Another process could take the port before chromedriver binds it; the caller
    /// retries with a new port when chromedriver exits early.
    static func freeLoopbackPort() throws -> Int {
        let command = "bind 127.0.0.1:0"
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else {
            throw WebDriverError(code: WebDriverError.Code.driverStartFailed, message: "socket() failed: errno \(errno)", command: command)
        }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            throw WebDriverError(code: WebDriverError.Code.driverStartFailed, message: "bind/getsockname failed: errno \(errno)", command: command)
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The `/bin/sh` script that owns chromedriver. Arguments: log file, then the command.
    ///
    /// ``spawnGuardian(arguments:)`` starts it as the leader of a new process group
    /// (group id = its pid); chromedriver, chromium and chromium's helpers inherit that
    /// group, so `kill(-guardianPID, SIGKILL)` reaches them all.
    /// * A background reader blocks on the guardian's stdin, a pipe whose only writer is the
    ///   test process. When the test process closes it — or dies in any way, even by
    ///   SIGKILL — the read ends and chromedriver is killed. No polling is involved.
    /// * When chromedriver exits, the guardian reaps it, then SIGKILLs whatever is left in
    ///   the group (the browsers), itself included.
    /// * SIGKILL, not SIGTERM: chromedriver keeps SIGTERM blocked in all its threads.
    static let guardianScript = """
        log="$1"; shift
        exec 3<&0 0</dev/null
        "$@" 3<&- >>"$log" 2>&1 &
        driver=$!
        { read -r _ <&3; kill -KILL "$driver"; } >/dev/null 2>&1 &
        watcher=$!
        exec 3<&-
        wait "$driver"
        kill -KILL "$watcher" 2>/dev/null
        wait "$watcher" 2>/dev/null
        kill -KILL 0
        """

    /// Starts `/bin/sh -c guardianScript guardian <arguments…>` with `posix_spawn`.
    ///
    /// Not Foundation's `Process`: on Linux its children inherit the spawning thread's
    /// signal mask, and Dispatch/Swift-concurrency threads block almost every signal —
    /// with SIGCHLD blocked, `sh`'s `wait` never returns. Here the child gets an empty
    /// mask, default dispositions and a new process group; its stdin is the read end of a
    /// close-on-exec socket pair, so no other child of the test process inherits the write end.
    ///
    /// - Returns: The guardian's pid (= process-group id) and the test process's end of the lifeline.
    static func spawnGuardian(arguments: [String]) throws -> (pid: pid_t, lifeline: Int32) {
        let command = "spawn guardian for \(arguments.dropFirst().joined(separator: " "))"
        func failure(_ what: String, _ code: Int32) -> WebDriverError {
            WebDriverError(code: WebDriverError.Code.driverStartFailed, message: "\(what) failed: errno \(code)", command: command)
        }
        // A socket pair stands in for pipe2(O_CLOEXEC), which Swift's Glibc module lacks:
        // both ends are close-on-exec from birth, so no concurrently spawned child inherits them.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            throw failure("socketpair", errno)
        }
        defer { close(pipeEnds[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process leaks into chromedriver and the browsers: a listening
        // socket they inherited would keep its port bound after the test's server stopped.
        // (glibc ≥ 2.34 has it, Swift's Glibc module does not declare it.)
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ["/bin/sh", "-c", guardianScript, "chromedriver-guardian"] + arguments
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArgv, &cEnvironment)
        guard result == 0 else {
            close(pipeEnds[1])
            throw failure("posix_spawn", result)
        }
        return (pid, pipeEnds[1])
    }

    /// Reaps `pid` on a thread of its own (blocking `waitpid`) and then fires `signal`.
    static func reap(_ pid: pid_t, then signal: ExitSignal) {
        let thread = Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            signal.fire()
        }
        thread.name = "WebDriverKit reaper \(pid)"
        thread.start()
    }
}

/// Temporary files (chromedriver logs, chromium profiles) named after the owning test
/// process, so files left by a crashed run can be recognised and removed by the next one.
enum TemporaryFiles {
    private static let prefix = "webdriverkit-"
    private static let sweepOnce: Void = sweep()
    /// The kinds ``make(_:suffix:)`` is called with; only these are ever swept.
    private static let kinds: Set<String> = ["chromedriver", "profile"]

    /// A new path in the temporary folder: `webdriverkit-<kind>-<pid>-<unique><suffix>`.
    static func make(_ kind: String, suffix: String = "") -> URL {
        precondition(kinds.contains(kind), "unknown temporary file kind \(kind)")
        _ = sweepOnce
        let name = "\(prefix)\(kind)-\(getpid())-\(UUID().uuidString.prefix(8))\(suffix)"
        return FileManager.default.temporaryDirectory.appendingPathComponent(name)
    }

    /// Removes `webdriverkit-<kind>-<pid>-*` entries (known kinds only) whose process no
    /// longer exists.
    private static func sweep() {
        let folder = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count >= 3, kinds.contains(String(parts[0])),
                let pid = Int32(parts[1]), pid != getpid()
            else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }
}

/// Process groups of chromedrivers still running (with their log files), SIGKILLed when
/// the test process exits normally (`atexit`), since a shared service is never deinitialised.
enum LiveDriverGroups {
    private static let groups = Mutex<[Int32: String]>([:])
    private static let installAtExit: Void = {
        atexit { LiveDriverGroups.killAll() }
    }()

    /// Remembers a chromedriver process group and its log file.
    static func insert(_ group: Int32, logFile: String) {
        _ = installAtExit
        groups.withLock { $0[group] = logFile }
    }

    /// Forgets a process group once it is gone.
    static func remove(_ group: Int32) {
        _ = groups.withLock { $0.removeValue(forKey: group) }
    }

    /// SIGKILLs every remembered group and deletes its log (used at exit).
    static func killAll() {
        let all = groups.withLock { groups in
            defer { groups.removeAll() }
            return groups
        }
        for (group, logFile) in all {
            kill(-group, SIGKILL)
            unlink(logFile)
        }
    }
}

/// A one-shot signal that a child process has exited, awaitable with a timeout.
final class ExitSignal: Sendable {
    private struct State {
        var exited = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    /// Marks the process as exited and wakes every waiter.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.exited = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the process has exited.
    var hasFired: Bool { state.withLock { $0.exited } }

    /// Waits for the exit; returns `false` if `timeout` passed first.
    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitForever() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first || hasFired
        }
    }

    /// Suspends until ``fire()``; returns early (with the current state) when cancelled.
    private func waitForever() async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.exited || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
        return hasFired
    }
}
