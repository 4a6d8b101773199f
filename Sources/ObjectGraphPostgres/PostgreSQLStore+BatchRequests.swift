import Foundation
import Logging
package import ObjectGraph
import PostgresNIO
import Synchronization

// Batch requests on PostgreSQL, with the SQLite store's semantics: the model's side (input
// checked and converted, uniqueness lookups, matching rows, delete rules) comes from the
// shared ``SQLStoreLayout``; here each request runs as one transaction that also records its
// persistent history and announces itself with `NOTIFY`, so other instances merge it.
extension PostgreSQLStore {
    /// Runs one batch request's statements: every batch write goes through here.
    ///
    /// `body` runs in one transaction (rolled back when it throws) while no context of this
    /// process saves (``serializingSaves(_:)``), and returns what it changed (with the deleted
    /// rows' tombstones, read before they went); the changes are
    /// recorded in persistent history (as the executing context's author) and `NOTIFY`
    /// announces the commit. A uniqueness constraint broken by the statements becomes
    /// ``ObjectGraphError/Code/constraintConflict``.
    func performBatchWrite<T: Sendable>(
        _ what: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> (changes: BatchChanges, tombstones: [TombstoneKey: String], value: T)
    ) throws -> (BatchChanges, T) {
        let writer = HistoryWriter.current
        let logger = logger
        let channel = notificationChannel
        // Noted as this store's before the commit (its own monitor skips it, as after a save),
        // forgotten if the transaction rolls back.
        let recorded = RecordedTransaction()
        let outcome: (BatchChanges, T)
        do {
            outcome = try serializingSaves {
                try run("\(what); nothing was written") { client in
                    try await Self.inTransaction(client, logger: logger) { connection in
                        let outcome = try await body(connection)
                        let history = self.layout.historyChanges(of: outcome.changes, writer: writer, model: self.managedObjectModel, runs: true)
                        // Listeners are notified (when the transaction commits) by the statement
                        // recording its history.
                        if let number = try await self.recordHistory(
                            history,
                            tombstones: outcome.tombstones,
                            notifying: channel,
                            connection: connection,
                            logger: logger
                        ) {
                            recorded.number.withLock { $0 = number }
                            self.ownTransactions.note(number)
                        }
                        return (outcome.changes, outcome.value)
                    }
                }
            }
        } catch {
            if let number = recorded.number.withLock({ $0 }) { ownTransactions.forget(number) }
            if let error = error as? ObjectGraphError, error.cause?.sqlState == "23505" {
                throw ObjectGraphError(
                    .constraintConflict,
                    "could not \(what) in the PostgreSQL store at \(serverDescription): it breaks a uniqueness constraint (\(error.cause?.message ?? "")); nothing was written",
                    underlying: error,
                    file: serverDescription
                )
            }
            throw error
        }
        // Not counted as a save (``noteSaveWritten()``): objects fetched before keep the
        // version they read, so saving them over the batch's changes conflicts, as on SQLite.
        return outcome
    }

    // MARK: Batch insert

    package func batchInsert(entityName: String, objects: [[String: Any]]) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        try batchInsert(try layout.batchInsert(entityName: entityName, objects: objects, model: managedObjectModel))
    }

    package func batchInsert(
        entityName: String,
        objectsFrom handler: (ManagedObject) -> Bool
    ) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        try batchInsert(try layout.batchInsert(entityName: entityName, objectsFrom: handler, model: managedObjectModel))
    }

    /// Inserts the rows of `insert` in one transaction, with keys reserved in it; an object
    /// whose constrained values a stored row has (or one inserted earlier in the batch)
    /// updates that row with the values it gave instead, as on SQLite. Upserts go in chunks of
    /// ``batchUpsertChunkRows`` objects, a few round trips each (see
    /// ``upsertChunk(_:range:progress:connection:logger:)``).
    private func batchInsert(_ insert: SQLStoreLayout.BatchInsert) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        let entity = insert.entity
        let count = insert.rows.count
        guard count > 0 else { return (BatchChanges.none, []) }
        let logger = logger
        return try performBatchWrite("batch insert \(count) \(entity.name) objects") { connection in
            let reserved = try await connection.query(
                Self.query(
                    #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = "Z_MAX" + $1 WHERE "Z_ENT" = $2 RETURNING "Z_MAX""#,
                    [.integer(Int64(count)), .integer(Int64(entity.rootCode))]
                ),
                logger: logger
            ).collect()
            var progress = BatchInsertProgress(nextKey: (try reserved.first?.decode(Int64.self) ?? Int64(count)) - Int64(count) + 1)
            progress.ids.reserveCapacity(count)
            // Without a constraint every object is a new row: one chunk.
            let chunk = insert.constraints.isEmpty ? count : Self.batchUpsertChunkRows
            for start in stride(from: 0, to: count, by: chunk) {
                try await self.upsertChunk(insert, range: start..<min(start + chunk, count), progress: &progress, connection: connection, logger: logger)
            }
            return (progress.changes, [:], progress.ids)
        }
    }

    // MARK: Shared

    /// The IDs of the rows a `SELECT "Z_PK", "Z_ENT" …` returns, on the transaction's connection.
    func matchingIDs(_ query: PostgresQuery, connection: PostgresConnection) async throws -> [ManagedObjectID] {
        var matching: [ManagedObjectID] = []
        for try await row in try await connection.query(query, logger: logger) {
            let (key, code) = try row.decode((Int64, Int64).self)
            if let id = storeIDs.objectID(code: Int(code), primaryKey: key) { matching.append(id) }
        }
        return matching
    }

    /// `values` bound, then `keys` as one `bigint[]` (for `= ANY($n)`).
    static func binds(_ values: [SQLValue], keys: [Int64]) -> PostgresBindings {
        var bindings = binds(values)
        bindings.append(keys)
        return bindings
    }
}
