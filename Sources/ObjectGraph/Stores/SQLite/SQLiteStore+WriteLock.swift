import Foundation
import GRDB
import Synchronization

/// This process's holders of one SQLite file's write lock, shared by every store of the
/// process on that file: SQLite's locks are the file's, so a store's own writer and another
/// store's writer in the same process both make the lock busy for a third connection.
final class WriteLockHolders: Sendable {
    private let count = Atomic<Int>(0)

    /// Whether a writer of this process holds the lock now.
    var isHeld: Bool { count.load(ordering: .acquiring) > 0 }

    /// Runs `body` counted as holding the lock: call it only inside a write transaction,
    /// which GRDB begins `IMMEDIATE`, so the lock is held for all of `body`.
    func holding<T>(_ body: () throws -> T) rethrows -> T {
        count.add(1, ordering: .acquiringAndReleasing)
        defer { count.subtract(1, ordering: .acquiringAndReleasing) }
        return try body()
    }

    private static let byFile = Mutex<[String: Weak]>([:])

    private struct Weak {
        weak var holders: WriteLockHolders?
    }

    /// The holders of the file at `path`, the same object for every store of this process on
    /// it; a store in memory (`nil`) has its own.
    static func forFile(_ path: String?) -> WriteLockHolders {
        guard let path else { return WriteLockHolders() }
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return byFile.withLock { files in
            if let holders = files[key]?.holders { return holders }
            // Forget the files whose stores are all gone, so the table stays small.
            files = files.filter { $0.value.holders != nil }
            let holders = WriteLockHolders()
            files[key] = Weak(holders: holders)
            return holders
        }
    }
}

extension SQLiteStore {
    /// Runs `body` in a write transaction, counted as this process holding the file's write
    /// lock (see ``checkWriteLock(patience:)``). Every write after opening goes through here.
    func writeTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.write { db in try writeLockHolders.holding { try body(db) } }
    }

    /// Returns when the file's write lock is free or held by a writer of this process (busy,
    /// not locked out); throws `SQLITE_BUSY` when another program has held it all of
    /// `patience`. Never waits behind this process's own writes, and never writes.
    func checkWriteLock(patience: Duration) throws {
        guard let path else { return }
        let probe = try storeOperation(.read, "open a connection to check the write lock") { try writeLockProbe(path) }
        let clock = ContinuousClock()
        let start = clock.now
        while !writeLockHolders.isHeld {
            do {
                // Taking the lock and giving it back at once writes nothing; each try waits
                // its busy timeout (50 ms), then this process's holders are asked again.
                try probe.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
                    try db.execute(sql: "ROLLBACK")
                }
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                guard clock.now - start < patience else {
                    throw ObjectGraphError(
                        .persistentStoreOperation,
                        "the write lock of the store at \(path) is held by another program",
                        underlying: SQLiteResultError(
                            code: ResultCode.SQLITE_BUSY.rawValue,
                            message: "it is locked by another program (its write lock was not free within \(Self.seconds(patience)))",
                            sql: "BEGIN IMMEDIATE TRANSACTION"
                        ),
                        file: path
                    )
                }
            } catch {
                throw ObjectGraphError(.persistentStoreOperation, "could not check the write lock of the store at \(path)", underlying: error, file: path)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// The connection of ``checkWriteLock(patience:)``, apart from the store's pool so that it
    /// waits for no writer of this process; opened on first use, closed with the store.
    private func writeLockProbe(_ path: String) throws -> DatabaseQueue {
        try writeLockProbeConnection.withLock { connection in
            if let connection { return connection }
            var configuration = Configuration()
            configuration.busyMode = .timeout(0.05)
            configuration.label = "ObjectGraph write-lock check"
            let opened = try DatabaseQueue(path: path, configuration: configuration)
            connection = opened
            return opened
        }
    }
}
