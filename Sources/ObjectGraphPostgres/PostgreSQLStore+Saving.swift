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
        let steps = try saveSteps(for: changes)
        let logger = logger
        let history = tracksHistory ? historyStatements(changes) : nil
        // Deleted rows whose tombstones are read before the statements delete them.
        let deleted = history == nil ? [] : changes.deletes.map { TombstoneKey(entity: $0.entity, key: $0.id.primaryKey) }
        let channel = notificationChannel
        // The history transaction's number, noted as this store's before the commit (another
        // instance's monitor may read it the moment it commits) and forgotten if it rolls back.
        let recorded = RecordedTransaction()
        do {
            try run("write the save; nothing was saved", meanwhile: meanwhile) { client in
                try await Self.inTransaction(client, logger: logger) { connection in
                    var history = history
                    if !deleted.isEmpty { history?.tombstones = try await self.readTombstones(deleted, connection: connection, logger: logger) }
                    let missed = try await Self.run(steps, connection: connection, logger: logger)
                    if !missed.isEmpty { throw try await Self.conflicts(missed, layout: self.layout, connection: connection, logger: logger) }
                    // Every listener is notified when the transaction commits, never before: by
                    // the statement recording its history, or on its own.
                    if let history, let number = try await self.recordHistory(history, notifying: channel, connection: connection, logger: logger) {
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

    /// One statement of a save, with the version check its `RETURNING` row proves.
    struct SaveStatement: Sendable {
        let sql: String
        let arguments: [SQLValue]
        /// Set for an UPDATE or DELETE that must find its row at the context's version: no row
        /// returned is a conflict.
        var versionCheck: SaveChanges.VersionCheck? = nil
    }

    /// The writes of a save, in order: deletes, updates, inserts, join rows, orders. A run of
    /// ``copyMinimumRows`` or more new objects of one entity is streamed with COPY straight
    /// from `changes`; other statements go through ``saveSteps(_:)``, which merges short runs
    /// of inserts into multi-row INSERTs.
    func saveSteps(for changes: SaveChanges) throws -> [SaveStep] {
        var steps: [SaveStep] = []
        var statements = try rowStatements(changes)
        let inserts = changes.inserts
        var index = inserts.startIndex
        while index < inserts.endIndex {
            let code = inserts[index].entity
            var end = index + 1
            while end < inserts.endIndex, inserts[end].entity == code { end += 1 }
            let entity = try entity(code: code, of: inserts[index].id)
            let width = 3 + entity.insertColumns.reduce(0) { $0 + Int($1) }
            if end - index >= Self.copyMinimumRows, let target = InsertTarget(entity.insertSQL, width: width), target.suffix.isEmpty {
                steps.append(contentsOf: Self.saveSteps(statements))
                statements.removeAll()
                steps.append(
                    .copyInserts(CopyInserts(table: target.table, columns: target.columns, entity: entity, rows: inserts[index..<end], layout: layout))
                )
            } else {
                for write in inserts[index..<end] { statements.append(insertStatement(write, entity: entity)) }
            }
            index = end
        }
        statements.append(contentsOf: try relationshipStatements(changes))
        steps.append(contentsOf: Self.saveSteps(statements))
        return steps
    }

    /// The INSERT of one new object of `entity`.
    private func insertStatement(_ write: SaveChanges.RowWrite, entity: SQLStoreLayout.Entity) -> SaveStatement {
        var arguments: [SQLValue] = [.integer(write.id.primaryKey), .integer(Int64(entity.code)), .integer(1)]
        for (slot, count) in entity.insertColumns.enumerated() where count > 0 {
            let value = write.values[slot]
            arguments.append(value.sqlValue)
            if count == 2 { arguments.append(layout.entityCode(of: value)) }
        }
        return SaveStatement(sql: entity.insertSQL, arguments: arguments)
    }

    /// The DELETEs and UPDATEs of a save's rows, in order, with their version checks.
    private func rowStatements(_ changes: SaveChanges) throws -> [SaveStatement] {
        var expected: [ManagedObjectID: Int64] = [:]
        for check in changes.versionChecks { expected[check.id] = check.version }
        var statements: [SaveStatement] = []
        for delete in changes.deletes {
            let entity = try entity(code: delete.entity, of: delete.id)
            let key = SQLValue.integer(delete.id.primaryKey)
            if let version = expected[delete.id] {
                statements.append(
                    SaveStatement(
                        sql: #"DELETE FROM \#(entity.table) WHERE "Z_PK" = $1 AND "Z_OPT" = $2 RETURNING "Z_PK""#,
                        arguments: [key, .integer(version)],
                        versionCheck: SaveChanges.VersionCheck(id: delete.id, entity: delete.entity, version: version)
                    )
                )
            } else {
                statements.append(SaveStatement(sql: #"DELETE FROM \#(entity.table) WHERE "Z_PK" = $1"#, arguments: [key]))
            }
            for (table, column) in entity.joinRows {
                statements.append(SaveStatement(sql: "DELETE FROM \(table) WHERE \(column) = $1", arguments: [key]))
            }
        }
        for write in changes.updates {
            let entity = try entity(code: write.entity, of: write.id)
            var assignments: [String] = []
            var arguments: [SQLValue] = []
            for slot in write.changedSlots ?? [] {
                guard slot < entity.updateColumns.count, let columns = entity.updateColumns[slot] else { continue }
                let value = write.values[slot]
                arguments.append(value.sqlValue)
                assignments.append("\(columns.column) = $\(arguments.count)")
                if let entityColumn = columns.entityColumn {
                    arguments.append(layout.entityCode(of: value))
                    assignments.append("\(entityColumn) = $\(arguments.count)")
                }
            }
            assignments.append(#""Z_OPT" = "Z_OPT" + 1"#)
            arguments.append(.integer(write.id.primaryKey))
            var sql = "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = $\(arguments.count)"
            var check: SaveChanges.VersionCheck?
            if let version = expected[write.id] {
                arguments.append(.integer(version))
                sql += " AND \"Z_OPT\" = $\(arguments.count) RETURNING \"Z_PK\""
                check = SaveChanges.VersionCheck(id: write.id, entity: write.entity, version: version)
            }
            statements.append(SaveStatement(sql: sql, arguments: arguments, versionCheck: check))
        }
        return statements
    }

    /// The join rows and orders of a save's changed to-many relationships: members before
    /// orders, as an order is written on join rows that must exist.
    private func relationshipStatements(_ changes: SaveChanges) throws -> [SaveStatement] {
        var statements: [SaveStatement] = []
        for change in changes.relationshipChanges {
            guard case .joinTable(let table, let mine, let theirs, _, _, isOwner: true) = try storage(of: change) else { continue }
            let source = SQLValue.integer(change.source.primaryKey)
            for member in change.removed {
                statements.append(
                    SaveStatement(
                        sql: "DELETE FROM \(table) WHERE \(mine) = $1 AND \(theirs) = $2",
                        arguments: [source, .integer(member.primaryKey)]
                    )
                )
            }
            for member in change.added {
                statements.append(
                    SaveStatement(
                        sql: "INSERT INTO \(table) (\(mine), \(theirs)) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                        arguments: [source, .integer(member.primaryKey)]
                    )
                )
            }
        }
        for change in changes.relationshipChanges {
            guard let order = change.order else { continue }
            switch try storage(of: change) {
            case .foreignKey(let table, _, let orderColumn?):
                for (index, member) in order.enumerated() {
                    statements.append(
                        SaveStatement(
                            sql: #"UPDATE \#(table) SET \#(orderColumn) = $1 WHERE "Z_PK" = $2"#,
                            arguments: [.integer(Int64(index)), .integer(member.primaryKey)]
                        )
                    )
                }
            case .joinTable(let table, let mine, let theirs, let orderColumn?, _, _):
                for (index, member) in order.enumerated() {
                    statements.append(
                        SaveStatement(
                            sql: "UPDATE \(table) SET \(orderColumn) = $1 WHERE \(mine) = $2 AND \(theirs) = $3",
                            arguments: [.integer(Int64(index)), .integer(change.source.primaryKey), .integer(member.primaryKey)]
                        )
                    )
                }
            case .foreignKey, .joinTable:
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "the store at \(serverDescription) keeps no order for \(layout.relationshipName(change.relationship, model: managedObjectModel)); nothing was saved"
                )
            }
        }
        return statements
    }

    /// The ``OptimisticLockingFailure`` of the `missed` rows, with their versions in the store
    /// now (read in the save's transaction).
    static func conflicts(
        _ missed: [SaveChanges.VersionCheck],
        layout: SQLStoreLayout,
        connection: PostgresConnection,
        logger: Logger
    ) async throws -> OptimisticLockingFailure {
        var versions: [ManagedObjectID: Int64?] = [:]
        for check in missed {
            guard let entity = layout.entity(code: check.entity) else {
                versions[check.id] = .some(nil)
                continue
            }
            let rows = try await connection.query(
                query(#"SELECT "Z_OPT" FROM \#(entity.table) WHERE "Z_PK" = $1"#, [.integer(check.id.primaryKey)]),
                logger: logger
            ).collect()
            versions[check.id] = .some(try rows.first?.decode(Int64.self))
        }
        return OptimisticLockingFailure(storeVersions: versions)
    }

    /// The entity of code `code`; a row of an entity the store does not have must not make the
    /// save succeed without writing it.
    private func entity(code: Int, of id: ManagedObjectID) throws -> SQLStoreLayout.Entity {
        guard let entity = layout.entity(code: code) else {
            throw ObjectGraphError(
                .entityNotFound,
                "the store at \(serverDescription) has no entity '\(id.entityName)' (code \(code)); nothing was saved"
            )
        }
        return entity
    }

    /// Where the members of the changed relationship are stored.
    private func storage(of change: SaveChanges.RelationshipChange) throws -> SQLStoreLayout.ToMany {
        guard let storage = layout.toMany(change.relationship) else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(serverDescription) stores no members for \(layout.relationshipName(change.relationship, model: managedObjectModel)); nothing was saved"
            )
        }
        return storage
    }
}

/// The history transaction a save is recording, shared between the save and its task.
final class RecordedTransaction: Sendable {
    let number = Mutex<Int64?>(nil)
}
