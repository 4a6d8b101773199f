import Foundation
import GRDBSQLite

/// What the benchmark ran on, for the output header.
enum MachineInfo {
    /// Lines describing the machine, the OS, the build and SQLite.
    static var lines: [String] {
        let info = ProcessInfo.processInfo
        #if DEBUG
        let build = "DEBUG build: figures are not meaningful, use `swift run -c release spot-bench`"
        #else
        let build = "release build"
        #endif
        #if compiler(>=6.3)
        let compiler = "Swift compiler ≥ 6.3"
        #else
        let compiler = "Swift compiler < 6.3"
        #endif
        return [
            "machine: \(info.processorCount) cores (\(info.activeProcessorCount) active), \(String(format: "%.1f", Double(info.physicalMemory) / 1_073_741_824)) GiB memory, \(cpuModel ?? "unknown CPU")",
            "OS: \(info.operatingSystemVersionString)",
            "build: \(build), \(compiler); SQLite \(RawConnection.version)",
        ]
    }

    /// The CPU model from /proc/cpuinfo.
    static var cpuModel: String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The process's peak resident set size (VmHWM), in kilobytes.
    static var peakResidentKilobytes: Int {
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        {
            return kilobytes
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss)
    }
}
