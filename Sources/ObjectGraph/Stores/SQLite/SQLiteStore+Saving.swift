import Foundation
import GRDB

extension SQLiteStore {
    func save(_ changes: SaveChanges) throws {
        // Large binary values' files: written in the transaction, removed if it rolls back;
        // the files of values it replaces or deletes removed once it has committed.
        var files = ExternalFileChanges()
        var committed = false
        defer { committed ? files.committed() : files.rolledBack() }
        do {
            try failureInjection.check(.write)
            try writer.write { db in
                // History first, in the save's own transaction: it reads deleted rows' tombstones.
                if tracksHistory {
                    try recordHistory(in: db, author: changes.transactionAuthor, contextName: changes.contextName, changes: HistoryChanges(changes))
                }
                // Optimistic locking: a checked row is written only at the version its context
                // read (`… AND Z_OPT = ?`); rows that were not are conflicts, and the save stops
                // before its inserts, its transaction rolled back.
                var expected: [ManagedObjectID: Int64] = [:]
                for check in changes.versionChecks { expected[check.id] = check.version }
                var missed: [SaveChanges.VersionCheck] = []
                for delete in changes.deletes {
                    try self.delete(delete, expecting: expected[delete.id], in: db, missed: &missed, files: &files)
                }
                for write in changes.updates { try update(write, expecting: expected[write.id], in: db, missed: &missed, files: &files) }
                if !missed.isEmpty { try throwConflicts(missed, in: db) }
                // Inserts of one entity share one prepared statement per save.
                var insertStatements: [Statement?] = Array(repeating: nil, count: plan.entities.count)
                for write in changes.inserts { try insert(write, in: db, statements: &insertStatements, files: &files) }
                // Members before orders: an order is written on join rows that must exist.
                for change in changes.relationshipChanges { try writeMembers(change, in: db) }
                for change in changes.relationshipChanges where change.order != nil { try writeOrder(change, in: db) }
            }
            committed = true
            rowCache.removeAll()
            noteSaveWritten()
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            // Which objects conflict, read after the rollback: the context's merge policy
            // resolves them (the happy path runs no query for it).
            try findUniquenessConflicts(changes)
            throw ObjectGraphError(
                .constraintConflict,
                "the save breaks a uniqueness constraint: \(describeConstraint(error.message ?? ""))",
                underlying: error,
                file: path
            )
        } catch {
            throw ObjectGraphError.passedOn(error)
                ?? ObjectGraphError(
                    .persistentStoreOperation,
                    "the save could not be written to the store at \(path ?? ":memory:"); nothing was saved",
                    underlying: error,
                    file: path
                )
        }
    }

    /// Throws ``OptimisticLockingFailure`` with the store's versions of the `missed` rows
    /// (read in the save's transaction, which holds SQLite's write lock).
    private func throwConflicts(_ missed: [SaveChanges.VersionCheck], in db: Database) throws {
        var byTable: [String: [SaveChanges.VersionCheck]] = [:]
        for check in missed {
            byTable[try entityPlan(check.entity, of: check.id).mapping.table, default: []].append(check)
        }
        var conflicts: [ManagedObjectID: Int64?] = [:]
        for (table, checks) in byTable {
            for start in stride(from: 0, to: checks.count, by: 500) {
                let chunk = checks[start..<min(start + 500, checks.count)]
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(placeholders))"),
                    arguments: StatementArguments(chunk.map(\.id.primaryKey))
                )
                var versions: [Int64: Int64] = [:]
                for row in rows { versions[row[0]] = row[1] }
                for check in chunk { conflicts[check.id] = versions[check.id.primaryKey] }
            }
        }
        throw OptimisticLockingFailure(storeVersions: conflicts)
    }

    /// Inserts one row with every stored column of its entity, bound straight from the row's
    /// values (no argument array per row).
    private func insert(
        _ write: SaveChanges.RowWrite,
        in db: Database,
        statements: inout [Statement?],
        files: inout ExternalFileChanges
    ) throws {
        let entity = try entityPlan(write.entity, of: write.id)
        let statement: Statement
        if let prepared = statements[entity.code] {
            statement = prepared
        } else {
            statement = try db.cachedStatement(sql: entity.insertSQL)
            statement.prepareForDirectBinding()
            statements[entity.code] = statement
        }
        var binder = statement.directBinder()
        try binder.bind(.int(write.id.primaryKey))
        try binder.bind(.int(Int64(entity.code)))
        try binder.bind(.int(1))
        for (slot, count) in entity.insertColumns.enumerated() where count > 0 {
            var value = write.values[slot]
            if !entity.externalSlots.isEmpty, entity.externalSlots.contains(slot) { value = try externalStorage.encode(value, files: &files) }
            try binder.bind(value)
            if count == 2 { try binder.bind(entityCode(of: value)) }
        }
        try statement.execute()
    }

    /// Writes the changed stored columns of one row and bumps its version — also for a change
    /// of only to-many slots, so that every saved change of an object is a new version (as
    /// Core Data's `Z_OPT`), which is what optimistic locking compares.
    ///
    /// With `version`, the row is written only at that version; a row that is not is added to
    /// `missed`.
    private func update(
        _ write: SaveChanges.RowWrite,
        expecting version: Int64?,
        in db: Database,
        missed: inout [SaveChanges.VersionCheck],
        files: inout ExternalFileChanges
    ) throws {
        let entity = try entityPlan(write.entity, of: write.id)
        let replaced = (write.changedSlots ?? []).filter { entity.externalSlots.contains($0) }
        if !replaced.isEmpty { try noteExternalFiles(of: write.id, entity: entity, slots: replaced, in: db, files: &files) }
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        for slot in write.changedSlots ?? [] {
            guard let column = entity.updateColumns[slot] else { continue }
            var value = write.values[slot]
            if replaced.contains(slot) { value = try externalStorage.encode(value, files: &files) }
            assignments.append("\(column) = ?")
            arguments.append(value.databaseValue)
            if let entityColumn = entity.mapping.entityColumns[slot] {
                assignments.append("\(entityColumn) = ?")
                arguments.append(entityCode(of: value))
            }
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        let condition = version == nil ? "Z_PK = ?" : "Z_PK = ? AND Z_OPT = ?"
        let statement = try db.cachedStatement(
            sql: "UPDATE \(entity.mapping.table) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
        )
        arguments.append(write.id.primaryKey.databaseValue)
        if let version { arguments.append(version.databaseValue) }
        statement.prepareForDirectBinding()
        try arguments.withUnsafeBufferPointer { try statement.executeBinding($0) }
        if let version, db.changesCount == 0 {
            missed.append(SaveChanges.VersionCheck(id: write.id, entity: write.entity, version: version))
        }
    }

    /// Deletes a row and its join rows, whichever side it is on. With `version`, the row is
    /// deleted only at that version; a row that is not (or is gone) is added to `missed`.
    private func delete(
        _ delete: SaveChanges.RowDelete,
        expecting version: Int64?,
        in db: Database,
        missed: inout [SaveChanges.VersionCheck],
        files: inout ExternalFileChanges
    ) throws {
        let entity = try entityPlan(delete.entity, of: delete.id)
        if !entity.externalSlots.isEmpty {
            try noteExternalFiles(of: delete.id, entity: entity, slots: entity.externalSlots, in: db, files: &files)
        }
        for (index, sql) in entity.deleteStatements.enumerated() {
            if index == 0, let version {
                try db.cachedStatement(sql: sql + " AND Z_OPT = ?").execute(arguments: [delete.id.primaryKey, version])
                if db.changesCount == 0 {
                    missed.append(SaveChanges.VersionCheck(id: delete.id, entity: delete.entity, version: version))
                }
            } else {
                try db.cachedStatement(sql: sql).execute(arguments: [delete.id.primaryKey])
            }
        }
    }

    /// Notes as obsolete the files the row of `id` refers to in `slots` (binary attributes
    /// kept in external storage): removed once the save that replaces or deletes them commits.
    private func noteExternalFiles(
        of id: ManagedObjectID,
        entity: StorePlan.EntityPlan,
        slots: [Int],
        in db: Database,
        files: inout ExternalFileChanges
    ) throws {
        let columns = slots.compactMap { entity.updateColumns[$0] }
        guard !columns.isEmpty else { return }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.mapping.table) WHERE Z_PK = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id.primaryKey]) else { return }
        let storage = externalStorage
        for index in columns.indices {
            if let blob = row[index] as Data?, let url = storage.file(referencedBy: blob) { files.obsolete.append(url) }
        }
    }

    /// Adds and removes join rows for a relationship stored in a join table, from its owning
    /// side (the inverse side's change mirrors it). A relationship stored as the destination's
    /// foreign key was written with the destinations' rows.
    private func writeMembers(_ change: SaveChanges.RelationshipChange, in db: Database) throws {
        switch try storage(of: change) {
        case .joinTable(let table, isOwner: true):
            let source = change.source.primaryKey
            if !change.removed.isEmpty {
                let statement = try db.cachedStatement(
                    sql: "DELETE FROM \(table.name) WHERE \(table.sourceColumn) = ? AND \(table.destinationColumn) = ?"
                )
                for member in change.removed { try statement.execute(arguments: [source, member.primaryKey]) }
            }
            if !change.added.isEmpty {
                let statement = try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO \(table.name) (\(table.sourceColumn), \(table.destinationColumn)) VALUES (?, ?)"
                )
                for member in change.added { try statement.execute(arguments: [source, member.primaryKey]) }
            }
        case .joinTable, .foreignKey:
            break
        }
    }

    /// Writes an ordered relationship's order: in the destinations' order column (one-to-many)
    /// or on the join rows. Core Data's layout keeps positions 1024 apart (1024, 2048, …).
    private func writeOrder(_ change: SaveChanges.RelationshipChange, in db: Database) throws {
        let members = change.order ?? []
        let step = schema.layout == .coreData ? 1024 : 1
        let first = schema.layout == .coreData ? 1024 : 0
        switch try storage(of: change) {
        case .foreignKey(let table, _, let orderColumn?):
            let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?")
            for (index, member) in members.enumerated() { try statement.execute(arguments: [first + index * step, member.primaryKey]) }
        case .joinTable(let table, let isOwner) where table.columns(isOwner: isOwner).order != nil:
            let (mine, theirs, order) = table.columns(isOwner: isOwner)
            let statement = try db.cachedStatement(sql: "UPDATE \(table.name) SET \(order ?? "") = ? WHERE \(mine) = ? AND \(theirs) = ?")
            for (index, member) in members.enumerated() {
                try statement.execute(arguments: [first + index * step, change.source.primaryKey, member.primaryKey])
            }
        case .foreignKey, .joinTable:
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(path ?? ":memory:") keeps no order for \(relationshipName(change.relationship)); nothing was saved",
                file: path
            )
        }
    }

    /// The plan of entity code `code`; a row of an entity the store does not have must not
    /// make the save succeed without writing it.
    private func entityPlan(_ code: Int, of id: ManagedObjectID) throws -> StorePlan.EntityPlan {
        guard let entity = plan.entity(code: code) else {
            throw ObjectGraphError(
                .entityNotFound,
                "the store at \(path ?? ":memory:") has no entity '\(id.entityName)' (code \(code)); nothing was saved",
                file: path
            )
        }
        return entity
    }

    /// Where the members of the changed relationship are stored.
    private func storage(of change: SaveChanges.RelationshipChange) throws -> StoreSchema.ToManyStorage {
        guard let storage = schema.toMany[change.relationship] else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(path ?? ":memory:") stores no members for \(relationshipName(change.relationship)); nothing was saved",
                file: path
            )
        }
        return storage
    }

    /// "Entity.relationship", for errors.
    func relationshipName(_ key: RelationshipKey) -> String {
        guard let entity = plan.entity(code: key.entity), let model = managedObjectModel.entity(named: entity.name),
            key.slot >= 0, key.slot < model.allProperties.count
        else { return "relationship \(key.slot) of entity \(key.entity)" }
        return "\(entity.name).\(model.allProperties[key.slot].name)"
    }

    /// The entity code column's value for a to-one value: the destination's `Z_ENT`, or NULL.
    private func entityCode(of value: Value) -> DatabaseValue {
        if case .objectID(let id) = value, let target = plan.entity(named: id.entityName) {
            return target.code.databaseValue
        }
        return .null
    }

    /// Turns SQLite's "UNIQUE constraint failed: ZTAG.ZNAME" into entity and property names.
    private func describeConstraint(_ message: String) -> String {
        var text = message
        for entity in managedObjectModel.entities {
            guard let mapping = schema.mappings[entity.name] else { continue }
            for (slot, column) in mapping.columns {
                text = text.replacingOccurrences(
                    of: "\(mapping.table).\(column)",
                    with: "\(entity.rootEntity.name).\(entity.allProperties[slot].name)"
                )
            }
        }
        return text
    }
}
