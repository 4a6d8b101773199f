import Foundation
import Logging
package import ObjectGraph
import PostgresNIO
import Synchronization

extension PostgreSQLStore {
    /// Writes a context's changes in one transaction, all or nothing.
    ///
    /// Optimistic locking as in SQLite: a checked row is written only at the version its context
    /// read (`… AND "Z_OPT" = $n`, inside the transaction, so no other save slips in between);
    /// rows that were not are reported as ``OptimisticLockingFailure`` and nothing is written.
    package func save(_ changes: SaveChanges) throws {
        try save(changes, meanwhile: {})
    }

    /// ``save(_:)``, running `meanwhile` once the server is taking the save's first COPY rows
    /// (or after the write, for a save without a COPY): the server inserts them while the
    /// calling thread does its work.
    package func save(_ changes: SaveChanges, meanwhile: () -> Void) throws {
        // New rows and join rows streamed with COPY (long runs) or in multi-row INSERTs: a
        // round trip per row made an import's save wait for the network once per object.
        let writes = try layout.savePlan(changes, model: managedObjectModel, store: serverDescription, file: nil)
        // Phase 1 (deletes, updates) apart, so that a missed version check stops the save
        // before its inserts, as in every store; ObjectGraph's layout keeps no external files.
        let rowSteps = Self.saveSteps(writes.rowSteps.compactMap { step in if case .statement(let statement) = step { statement } else { nil } })
        let steps = saveSteps(inserting: writes.inserts, then: writes.relationshipStatements)
        let layout = layout
        let logger = logger
        let history = tracksHistory ? layout.historyChanges(changes, model: managedObjectModel, runs: true) : nil
        // Deleted rows whose tombstones are read before the statements delete them.
        let deleted = history == nil ? [] : changes.deletes.map { TombstoneKey(entity: $0.entity, key: $0.id.primaryKey) }
        let channel = notificationChannel
        // The history transaction's number, noted as this store's before the commit (another
        // instance's monitor may read it the moment it commits) and forgotten if it rolls back.
        let recorded = RecordedTransaction()
        do {
            try run("write the save; nothing was saved", meanwhile: meanwhile) { client in
                try await Self.inTransaction(client, logger: logger) { connection in
                    let tombstones = deleted.isEmpty ? [:] : try await self.readTombstones(deleted, connection: connection, logger: logger)
                    let missed = try await Self.run(rowSteps, connection: connection, logger: logger)
                    if !missed.isEmpty {
                        // Read in the save's transaction.
                        var versions: [Int64?] = []
                        for check in missed {
                            guard let read = layout.versionRead(check) else {
                                versions.append(nil)
                                continue
                            }
                            let rows = try await connection.query(Self.query(read.sql, read.arguments), logger: logger).collect()
                            versions.append(try rows.first?.decode(Int64.self))
                        }
                        throw writes.conflicts(missed, versions: versions)
                    }
                    _ = try await Self.run(steps, connection: connection, logger: logger)
                    // Every listener is notified when the transaction commits, never before: by
                    // the statement recording its history, or on its own.
                    if let history,
                        let number = try await self.recordHistory(
                            history,
                            tombstones: tombstones,
                            notifying: channel,
                            connection: connection,
                            logger: logger
                        )
                    {
                        recorded.number.withLock { $0 = number }
                        self.ownTransactions.note(number)
                    } else {
                        try await connection.query(PostgresQuery(unsafeSQL: "NOTIFY \(Self.quoted(channel))"), logger: logger)
                    }
                }
            }
            noteSaveWritten()
        } catch {
            if let number = recorded.number.withLock({ $0 }) { ownTransactions.forget(number) }
            if let error = error as? ObjectGraphError, error.cause?.sqlState == "23505" {
                // Which objects conflict, read after the rollback: the context's merge policy
                // resolves them (the happy path runs no query for it).
                try findUniquenessConflicts(changes)
                throw ObjectGraphError(
                    .constraintConflict,
                    "the save breaks a uniqueness constraint: \(error.cause?.message ?? ""); nothing was saved",
                    underlying: error,
                    file: serverDescription
                )
            }
            throw error
        }
    }

    /// After the server refused a save for a unique index: throws
    /// ``UniquenessConflictFailure`` naming the conflicting objects, or returns when none is found
    /// (the caller reports the server's error).
    private func findUniquenessConflicts(_ changes: SaveChanges) throws {
        let probes = layout.uniquenessProbes(changes, model: managedObjectModel)
        guard !probes.isEmpty else { return }
        let stored: [[(primaryKey: Int64, entityCode: Int64)]]
        do {
            stored = try run("look for the uniqueness conflicts of a save") { client in
                var stored: [[(primaryKey: Int64, entityCode: Int64)]] = []
                for probe in probes {
                    var rows: [(primaryKey: Int64, entityCode: Int64)] = []
                    for try await row in try await client.query(Self.query(probe.sql, probe.arguments)) {
                        let (key, code) = try row.decode((Int64, Int64).self)
                        rows.append((key, code))
                    }
                    stored.append(rows)
                }
                return stored
            }
        } catch {
            return  // the caller throws the constraint error the server reported
        }
        if let failure = layout.uniquenessFailure(probes, stored: stored, ids: storeIDs) { throw failure }
    }

    /// One statement of a save (a version check proven by its `RETURNING` row, see
    /// ``run(_:connection:logger:)``).
    typealias SaveStatement = SQLSavePlan.Statement

    /// Phases 2 and 3 of a save (``SQLSavePlan``) as steps: a run of ``copyMinimumRows`` or
    /// more new objects of one entity is streamed with COPY straight from its rows; other
    /// statements go through ``saveSteps(_:)``, which merges short runs of inserts into
    /// multi-row INSERTs.
    func saveSteps(inserting runs: [SQLSavePlan.InsertRun], then statements: [SaveStatement]) -> [SaveStep] {
        var steps: [SaveStep] = []
        var pending: [SaveStatement] = []
        for run in runs {
            let entity = run.entity
            let width = 3 + entity.insertColumns.reduce(0) { $0 + Int($1) }
            if run.rows.count >= Self.copyMinimumRows, let target = InsertTarget(entity.insertSQL, width: width), target.suffix.isEmpty {
                steps.append(contentsOf: Self.saveSteps(pending))
                pending.removeAll()
                steps.append(.copyInserts(CopyInserts(table: target.table, columns: target.columns, entity: entity, rows: run.rows, layout: layout)))
            } else {
                for write in run.rows { pending.append(insertStatement(write, entity: entity)) }
            }
        }
        pending.append(contentsOf: statements)
        steps.append(contentsOf: Self.saveSteps(pending))
        return steps
    }

    /// The INSERT of one new object of `entity`.
    private func insertStatement(_ write: SaveChanges.RowWrite, entity: SQLStoreLayout.Entity) -> SaveStatement {
        var arguments: [SQLValue] = [.integer(write.id.primaryKey), .integer(Int64(entity.code)), .integer(1)]
        for field in entity.insertFields {
            let value = write.values[field.slot]
            arguments.append(value.sqlValue)
            if field.withEntity { arguments.append(layout.entityCode(of: value)) }
        }
        return SaveStatement(sql: entity.insertSQL, arguments: arguments)
    }
}

/// The history transaction a save is recording, shared between the save and its task.
final class RecordedTransaction: Sendable {
    let number = Mutex<Int64?>(nil)
}
