import Foundation

/// Ends the process when a graceful shutdown overruns its deadline, with a line saying what
/// was still running: a server that ignores SIGTERM is worse than one that stops unclean.
enum ShutdownWatchdog {
    /// Starts counting: unless the process has exited by `deadline`, prints
    /// "shutdown did not finish within …: <what `holding` says>" to standard error and exits 1.
    /// Runs on its own thread, so it fires even when every task is stuck.
    static func start(deadline: Duration, holding: @escaping @Sendable () -> String) {
        Thread.detachNewThread {
            let (seconds, attoseconds) = deadline.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            let line = "spot serve: shutdown did not finish within \(deadline): \(holding())\n"
            FileHandle.standardError.write(Data(line.utf8))
            exit(1)
        }
    }
}
