import Foundation
import TestSupport

/// Store files for the tests, in the test process's own folder (deleted at exit).
enum TestFiles {
    /// A new store file URL named `name` in a new folder.
    static func url(_ name: String) -> URL {
        let folder = TestDirectory.make("objectgraphdata")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }
}
