public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Places for the files tests make: one folder per test process, under the system's temporary
/// directory, deleted when the process exits.
///
/// Store files cannot always be deleted as soon as a test ends — a container a test hands to
/// another may still have them open — so they go into this folder, and nothing a test run makes
/// stays behind in `/tmp` (hundreds of stores a run did before). A run that crashes leaves its
/// folder; the next run deletes the folders of processes that are no longer alive.
public enum TestDirectory {
    /// A new path `<prefix>-<UUID>` inside the process's folder; the directory itself is not
    /// created, as with a path under `FileManager.temporaryDirectory`.
    public static func make(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    }

    private static let rootPrefix = "objectgraph-test-run-"

    /// The process's folder, created (and its removal at exit registered) on first use.
    private static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeFoldersOfEndedRuns(in: temporary)
        let url = temporary.appendingPathComponent("\(rootPrefix)\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TestDirectory.removeRoot() }
        return url
    }()

    private static func removeRoot() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Deletes the folders of earlier test processes that ended without deleting theirs.
    private static func removeFoldersOfEndedRuns(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(rootPrefix) {
            guard let pid = Int32(name.dropFirst(rootPrefix.count)), pid != getpid() else { continue }
            // `kill(pid, 0)` fails with ESRCH when no process has the ID.
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}
