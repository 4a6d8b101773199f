import Foundation

/// Rows recently read by ID, shared by every context of a store: Core Data's row cache, so
/// that two contexts filling the same faults go to SQLite once.
///
/// It never serves a row older than the file: every lookup first asks the reading connection
/// for SQLite's `PRAGMA data_version`, and any commit since that connection last asked —
/// another context's save, another process's — empties the cache. A save through this store
/// empties it as well, at once, so no reader can slip a row from before the save into it; a
/// read that began before a clearing is not cached (``generation``).
///
/// The cache holds at most ``capacity`` rows and is emptied when full; rows share their value
/// arrays with the objects made from them.
final class RowCache: @unchecked Sendable {
    // @unchecked Sendable: every member is read and written under `lock`.

    private let lock = NSLock()
    private var rows: [ManagedObjectID: StoredRow] = [:]
    /// Bumped by every clearing: rows read before it are not inserted after it.
    private var generation: UInt64 = 0
    /// The `data_version` each connection last reported, by connection.
    private var dataVersions: [ObjectIdentifier: Int64] = [:]

    /// The most rows held.
    let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// Notes that `connection` sees the file at `dataVersion`, emptying the cache if that
    /// connection saw another version last time (or never asked); returns the generation to
    /// pass to ``insert(_:readAt:)`` for rows read next on that connection.
    func validate(connection: ObjectIdentifier, dataVersion: Int64) -> UInt64 {
        lock.withLock {
            if dataVersions.updateValue(dataVersion, forKey: connection) != dataVersion { clearLocked() }
            return generation
        }
    }

    /// The cached rows of `ids`.
    func rows(for ids: some Sequence<ManagedObjectID>) -> [ManagedObjectID: StoredRow] {
        lock.withLock {
            var found: [ManagedObjectID: StoredRow] = [:]
            guard !rows.isEmpty else { return found }
            for id in ids { if let row = rows[id] { found[id] = row } }
            return found
        }
    }

    /// Caches `read`, read after ``validate(connection:dataVersion:)`` returned `generation`;
    /// dropped if the cache was cleared since.
    func insert(_ read: some Sequence<StoredRow>, readAt generation: UInt64) {
        lock.withLock {
            guard generation == self.generation else { return }
            for row in read {
                if rows.count >= capacity { rows.removeAll(keepingCapacity: true) }
                rows[row.id] = row
            }
        }
    }

    /// Empties the cache (a save wrote to the store).
    func removeAll() {
        lock.withLock { clearLocked() }
    }

    /// How many rows are cached, for tests.
    var count: Int { lock.withLock { rows.count } }

    private func clearLocked() {
        generation &+= 1
        if !rows.isEmpty { rows.removeAll() }
    }
}
