public import Foundation

/// An executable built beside the test bundle (SwiftPM builds it because the test target
/// depends on it), run as a child process: the `spot` command, or a test child whose memory or
/// death is its own.
public enum ChildExecutable {
    /// The executable named `name` next to the test bundle — or in the folder
    /// `$SPOT_TEST_EXECUTABLES` names, to run the tests against another build (an earlier
    /// commit's `spot`, to see a test fail before a fix).
    public static func url(named name: String) -> URL {
        let override = ProcessInfo.processInfo.environment["SPOT_TEST_EXECUTABLES"].map { URL(fileURLWithPath: $0) }
        let candidates = (override.map { [$0] } ?? []) + [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for directory in candidates where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path) {
            return directory.appendingPathComponent(name)
        }
        return candidates[0].appendingPathComponent(name)
    }

    /// Runs `url` with `arguments` to its end: its exit status and standard output.
    public static func run(_ url: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
