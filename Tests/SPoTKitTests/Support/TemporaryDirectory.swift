import Foundation

/// A fresh, empty directory under the system's temporary directory, for one test.
struct TemporaryDirectory {
    let url: URL

    /// Runs `body` with a new directory, then deletes it and everything in it.
    static func with<Value>(_ body: (TemporaryDirectory) async throws -> Value) async throws -> Value {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "spotkit-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(TemporaryDirectory(url: url))
    }

    /// A path inside the directory (not created).
    func appending(_ path: String) -> URL {
        url.appending(path: path)
    }

    /// The names of the entries directly inside `directory` (default: this one), sorted.
    func contents(of directory: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (directory ?? url).path).sorted()
    }
}
