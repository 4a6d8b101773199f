import Foundation
import GRDB

extension SQLiteStore {
    func save(_ changes: SaveChanges) throws {
        // Large binary values' files: written in the transaction, removed if it rolls back;
        // the files of values it replaces or deletes removed once it has committed.
        var files = ExternalFileChanges()
        var committed = false
        defer { committed ? files.committed() : files.rolledBack() }
        derivedAttributes.startRecording()
        defer { if !committed { _ = derivedAttributes.stopRecording() } }
        do {
            try failureInjection.check(.write)
            // The engine plans the writes; this runs them on GRDB's connection (see
            // ``SQLSavePlan``). New large binary values are written to their files here.
            let storage = externalStorage
            let writes = try layout.savePlan(changes, model: managedObjectModel, store: path ?? ":memory:", file: path) { value in
                try storage.encode(value, files: &files)
            }
            try writeTransaction { db in
                // History first, in the save's own transaction: it reads deleted rows' tombstones.
                if tracksHistory {
                    try recordHistory(in: db, layout.historyChanges(changes, model: managedObjectModel, runs: false))
                }
                // Optimistic locking: a checked row is written only at the version its context
                // read; rows that were not are conflicts, and the save stops before its
                // inserts, its transaction rolled back.
                var missed: [SaveChanges.VersionCheck] = []
                for step in writes.rowSteps {
                    switch step {
                    case .statement(let statement):
                        try execute(statement, in: db)
                        if let check = statement.versionCheck, db.changesCount == 0 { missed.append(check) }
                    case .obsoleteFiles(let statement):
                        try noteObsoleteFiles(read: statement, in: db, files: &files)
                    }
                }
                if !missed.isEmpty {
                    // Read in the save's transaction, which holds SQLite's write lock.
                    let versions = try missed.map { check in
                        try layout.versionRead(check).flatMap { read in
                            try Int64.fetchOne(db.cachedStatement(sql: read.sql), arguments: StatementArguments(read.arguments.databaseValues))
                        }
                    }
                    throw writes.conflicts(missed, versions: versions)
                }
                // Inserts of one entity share one prepared statement per save.
                var insertStatements: [Statement?] = Array(repeating: nil, count: plan.entities.count)
                for run in writes.inserts { try insert(run, in: db, statements: &insertStatements, files: &files) }
                for statement in writes.relationshipStatements { try execute(statement, in: db) }
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

    /// The values Core Data's derived-attribute triggers gave rows during the last save (for
    /// the saving context's objects), once.
    func takeDerivedAttributeUpdates() -> [DerivedAttributeUpdate] {
        derivedAttributes.stopRecording().compactMap { entry in
            guard let entity = plan.entity(code: entry.entityCode), let id = objectID(code: entry.entityCode, primaryKey: entry.primaryKey),
                let model = managedObjectModel.entity(named: entity.name), let slot = model.slotByName[entry.property],
                let attribute = model.allProperties[slot] as? AttributeDescription
            else { return nil }
            return DerivedAttributeUpdate(id: id, key: entry.property, value: Value(entry.value, type: attribute.attributeType))
        }
    }

    /// Runs one statement of a save, its arguments bound straight to SQLite.
    private func execute(_ statement: SQLSavePlan.Statement, in db: Database) throws {
        let prepared = try db.cachedStatement(sql: statement.sql)
        prepared.prepareForDirectBinding()
        try statement.arguments.databaseValues.withUnsafeBufferPointer { try prepared.executeBinding($0) }
    }

    /// Inserts a run of new rows of one entity, each bound straight from its values (no
    /// argument array per row) to the entity's one prepared INSERT.
    private func insert(
        _ run: SQLSavePlan.InsertRun,
        in db: Database,
        statements: inout [Statement?],
        files: inout ExternalFileChanges
    ) throws {
        let entity = run.entity
        let statement: Statement
        if let prepared = statements[entity.code] {
            statement = prepared
        } else {
            statement = try db.cachedStatement(sql: entity.insertSQL)
            statement.prepareForDirectBinding()
            statements[entity.code] = statement
        }
        let code = Int64(entity.code)
        for write in run.rows {
            var binder = statement.directBinder()
            try binder.bind(.int(write.id.primaryKey))
            try binder.bind(.int(code))
            try binder.bind(.int(1))
            for field in entity.insertFields {
                var value = write.values[field.slot]
                if !entity.externalSlots.isEmpty, entity.externalSlots.contains(field.slot) {
                    value = try externalStorage.encode(value, files: &files)
                }
                try binder.bind(value)
                if field.withEntity { try binder.bind(layout.entityCode(of: value).databaseValue) }
            }
            try statement.execute()
        }
    }

    /// Notes as obsolete the files a row refers to in the columns `read` selects (binary
    /// attributes kept in external storage): removed once the save that replaces or deletes
    /// them commits.
    private func noteObsoleteFiles(read: SQLSavePlan.Statement, in db: Database, files: inout ExternalFileChanges) throws {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: read.sql), arguments: StatementArguments(read.arguments.databaseValues)) else {
            return
        }
        let storage = externalStorage
        for index in 0..<row.count {
            if let blob = row[index] as Data?, let url = storage.file(referencedBy: blob) { files.obsolete.append(url) }
        }
    }

    /// "Entity.relationship", for errors.
    func relationshipName(_ key: RelationshipKey) -> String {
        layout.relationshipName(key, model: managedObjectModel)
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
