public import Foundation

/// A PostgreSQL server of one test's own, in a temporary directory, that the test may stop and
/// start: `Scripts/test` says where PostgreSQL's programs are (`OBJECTGRAPH_TEST_POSTGRES_BIN`)
/// and, when the tests run as root, which unprivileged user runs them
/// (`OBJECTGRAPH_TEST_POSTGRES_USER`); PostgreSQL refuses to run as root.
public final class PrivatePostgresServer: Sendable {
    /// The folder holding the cluster, its log and its socket.
    public let directory: URL
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    let bin: String
    let user: String?

    /// The server's URL (trust authentication, user `objectgraph`), with `schema`.
    public func url(schema: String) -> URL {
        URL(string: "postgres://objectgraph@127.0.0.1:\(port)/postgres?schema=\(schema)")!
    }

    /// Initialises a new cluster and starts it on a free port.
    public static func start() throws -> PrivatePostgresServer {
        let environment = ProcessInfo.processInfo.environment
        guard let bin = environment["OBJECTGRAPH_TEST_POSTGRES_BIN"].flatMap({ $0.isEmpty ? nil : $0 }) ?? installedBin() else {
            throw ServerError(
                "no PostgreSQL programs: OBJECTGRAPH_TEST_POSTGRES_BIN is not set and none are in /usr/lib/postgresql (Scripts/test installs them)"
            )
        }
        let user = environment["OBJECTGRAPH_TEST_POSTGRES_USER"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let user { try run("/usr/bin/chown", [user, directory.path]) }
        let cluster = PrivatePostgresServer(directory: directory, port: 0, bin: bin, user: user)
        try cluster.postgres("initdb", ["-D", cluster.dataDirectory, "-U", "objectgraph", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        // A free port can be taken by another process (a parallel test, another server) between
        // asking for it and the server binding it: a failed start tries another port, as
        // Scripts/test does for its own server.
        var failures: [String] = []
        for _ in 0..<5 {
            let server = PrivatePostgresServer(directory: directory, port: try freePort(), bin: bin, user: user)
            do {
                try server.startServer()
                return server
            } catch {
                failures.append("port \(server.port): \(error)\n\(server.serverLog())")
                try? server.postgres("pg_ctl", ["-D", server.dataDirectory, "-m", "immediate", "stop"])
            }
        }
        cluster.remove()
        throw ServerError("the private PostgreSQL server did not start on any of 5 ports:\n" + failures.joined(separator: "\n"))
    }

    /// The end of the server's log, for an error that says why it did not start.
    private func serverLog() -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        return String(text.suffix(2_000))
    }

    private init(directory: URL, port: Int, bin: String, user: String?) {
        self.directory = directory
        self.port = port
        self.bin = bin
        self.user = user
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// Starts the server (again) on its port, and returns once it accepts connections.
    public func startServer() throws {
        // Commits are durable when acknowledged (synchronous_commit on), so an immediate stop
        // loses nothing a client was told was saved.
        try postgres(
            "pg_ctl",
            [
                "-D", dataDirectory, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "120",
                "-o", "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off", "start",
            ]
        )
    }

    /// Stops the server at once, as a crash or a kill would: connections drop mid-statement.
    public func stopImmediately() throws {
        try postgres("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
    }

    /// Sends `signal` to every process of the server: `SIGSTOP` freezes it as a hung or
    /// unreachable host would (connections stay open and nothing answers), `SIGCONT` thaws it.
    public func signalEveryProcess(_ signal: Int32) throws {
        let pidFile = try String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw ServerError("no server process in \(dataDirectory)/postmaster.pid")
        }
        var processes = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the name in parentheses: state, then the parent's process ID.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { processes.append(pid) }
        }
        for pid in processes { kill(pid, signal) }
    }

    /// Stops the server and removes its directory.
    public func remove() {
        try? postgres("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one of PostgreSQL's programs, as the unprivileged user when there is one.
    ///
    /// Through Python's `subprocess`, which closes every inherited descriptor but the standard
    /// three: Foundation's `Process` learns of a child's exit from a descriptor the child
    /// inherits, and the server `pg_ctl start` leaves running would otherwise hold it open for
    /// ever, so the wait for `pg_ctl` would never end.
    private func postgres(_ program: String, _ arguments: [String]) throws {
        let path = bin + "/" + program
        let command = user.map { ["/usr/bin/setpriv", "--reuid", $0, "--regid", $0, "--init-groups", "--", path] } ?? [path]
        let closingDescriptors = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"
        try Self.run("/usr/bin/python3", ["-c", closingDescriptors] + command + arguments)
    }

    /// Runs a program to its end. Its output goes to a file, not a pipe: the server `pg_ctl`
    /// starts would hold a pipe open for ever, and a reader waiting for its end with it.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-pg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ServerError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(text)")
        }
    }

    private static func installedBin() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted().map { "\(root)/\($0)/bin" }.last { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    /// A port the kernel just handed out and took back.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerError("no socket for a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ServerError("could not bind a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Why the server could not be started or stopped.
    public struct ServerError: Error, CustomStringConvertible {
        /// What went wrong, with the server's log when there is one.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
