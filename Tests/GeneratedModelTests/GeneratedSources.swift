import Foundation
import TestSupport

/// Where the generator's inputs and committed outputs live in the source tree.
enum GeneratedSources {
    /// `Tests/GeneratedModelTests`.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The Xcode model fixtures, shared with ObjectGraphTests.
    static let fixtures = testsFolder.deletingLastPathComponent()
        .appendingPathComponent("ObjectGraphTests/Fixtures/XcodeModels")
    /// The committed output for the fixture `name` (`Library`, `Media`).
    static func output(_ name: String) -> URL {
        testsFolder.appendingPathComponent("Generated").appendingPathComponent(name)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = TestDirectory.make("objectgraph-gen")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
