import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What Linux's /proc says of a process: resident memory, CPU time, open sockets, threads.
struct ProcessProbe: Sendable {
    let pid: Int32

    /// `VmRSS` of /proc/PID/status, in kB.
    var residentKB: Int {
        field("VmRSS") ?? 0
    }

    /// `Threads` of /proc/PID/status.
    var threads: Int {
        field("Threads") ?? 0
    }

    /// utime + stime of /proc/PID/stat, in seconds (clock ticks of 1/`sysconf(_SC_CLK_TCK)`).
    var cpuSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command's closing parenthesis start at field 3 (state).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How many of the process's descriptors are sockets (its listening socket, its database
    /// connections, and one per open connection).
    var sockets: Int {
        let directory = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var count = 0
        for name in names {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"), target.hasPrefix("socket:") {
                count += 1
            }
        }
        return count
    }

    /// How many of the process's sockets are connections accepted on `port` (in
    /// /proc/net/tcp and tcp6 with that local port, not listening): its open HTTP connections,
    /// without its database's or the refresher's own.
    func connections(onPort port: Int) -> Int {
        var inodes: Set<Substring> = []
        for table in ["/proc/\(pid)/net/tcp", "/proc/\(pid)/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st ... inode (field 9)
                guard fields.count > 9, let colon = fields[1].lastIndex(of: ":"),
                    Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port, fields[3] != "0A"
                else { continue }
                inodes.insert(fields[9])
            }
        }
        let directory = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var count = 0
        for name in names {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                target.hasPrefix("socket:[")
            else { continue }
            if inodes.contains(target.dropFirst(8).dropLast()) { count += 1 }
        }
        return count
    }

    var isAlive: Bool { kill(pid, 0) == 0 }

    private func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split { $0 == " " || $0 == "\t" }.first ?? "")
        }
        return nil
    }

    /// Every thread's stack, from gdb (when a server stopped answering): the evidence of a hang.
    func stacks() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gdb", "-p", "\(pid)", "-batch", "-ex", "thread apply all bt"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return "(gdb could not start)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The machine's load averages (/proc/loadavg), as `uptime` prints them: "1.02 0.80 0.55".
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
