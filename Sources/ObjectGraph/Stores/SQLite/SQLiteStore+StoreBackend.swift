import Foundation

extension SQLiteStore: StoreBackend {
    /// The store's file; `nil` in memory.
    var locationURL: URL? { path.map { URL(fileURLWithPath: $0) } }

    /// SQLite's `PRAGMA data_version` on the writing connection (see ``writerDataVersion()``).
    func remoteCommitMarker() throws -> Int64? {
        try writerDataVersion()
    }

    /// `false`: SQLite announces nothing; the monitor polls ``remoteCommitMarker()``.
    func observeRemoteCommits(_ handler: @escaping @Sendable () -> Void) -> Bool {
        false
    }

    /// A `flock(2)` on a lock file beside the store file; in memory, a lease of this process.
    func tryExclusiveLease(named name: String) throws -> StoreLease? {
        guard let locationURL else { return StoreLease.inProcess("\(ObjectIdentifier(self))/\(name)") }
        return try StoreLease.onLockFile(beside: locationURL, named: name)
    }

    /// Nothing to do: GRDB closes the connections when the store is released.
    func close() {}
}
