import Foundation

/// A test-support executable built beside the test bundle (SwiftPM builds it because the test
/// target depends on it), run as a child process whose memory or death is its own.
enum ChildExecutable {
    /// The executable named `name` next to the test bundle.
    static func url(named name: String) -> URL {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for directory in candidates where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path) {
            return directory.appendingPathComponent(name)
        }
        return candidates[0].appendingPathComponent(name)
    }
}
