import Foundation
import GRDB

extension SQLiteStore {
    /// Runs one batch request's SQL: every batch write goes through here.
    ///
    /// `body` runs in one write transaction (rolled back when it throws), while no context of
    /// this process saves (``serializingSaves(_:)``), and returns what it changed; then
    /// ``didChangeRows(_:)`` hears of it. A uniqueness constraint broken by the SQL becomes
    /// ``ObjectGraphError/Code/constraintConflict``.
    func performBatchWrite<T>(_ what: String, _ body: (Database) throws -> (BatchChanges, T)) throws -> (BatchChanges, T) {
        let outcome = try serializingSaves {
            do {
                return try storeOperation(.write, what) {
                    try writeTransaction { db in
                        let outcome = try body(db)
                        // Recorded after the writes, in their transaction, with the tombstones
                        // a batch delete read before its rows went.
                        if tracksHistory {
                            let changes = layout.historyChanges(of: outcome.0, writer: HistoryWriter.current, model: managedObjectModel, runs: false)
                            try recordHistory(in: db, changes, tombstones: outcome.0.tombstones)
                        }
                        return outcome
                    }
                }
            } catch let error as ObjectGraphError {
                if let cause = error.cause,
                    cause.extendedResultCode == ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue
                        || cause.extendedResultCode == ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY.rawValue
                {
                    throw ObjectGraphError(
                        .constraintConflict,
                        "could not \(what): it breaks a uniqueness constraint (\(cause.message)); nothing was written",
                        file: path
                    )
                }
                throw error
            }
        }
        didChangeRows(outcome.0)
        return outcome
    }

    /// Called after every batch write with the rows it inserted, updated and deleted (cascades
    /// and nullified rows included): the one place for caches of rows to forget them and for
    /// persistent history to record them.
    func didChangeRows(_ changes: BatchChanges) {
        rowCache.removeAll()
    }

    // MARK: Batch insert

    /// Inserts `objects` into the entity named `entityName` in one transaction; upserts on
    /// the entity's uniqueness constraints. Returns each object's ID in order.
    func batchInsert(entityName: String, objects: [[String: Any]]) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        let (entity, entityPlan) = try batchEntity(entityName, for: "batch insert into")
        try entity.checkBatchInsertable()
        // Every value is converted and checked before anything is written.
        let rows = try objects.enumerated().map { index, object in try entity.batchRow(object, index: index) }
        return try batchInsert(rows, into: entity, plan: entityPlan)
    }

    /// Inserts the objects `handler` sets up (each a new object of no context), one per call,
    /// until it returns `true`.
    func batchInsert(entityName: String, objectsFrom handler: (ManagedObject) -> Bool) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID])
    {
        let (entity, entityPlan) = try batchEntity(entityName, for: "batch insert into")
        try entity.checkBatchInsertable()
        let rows = try entity.batchRows(objectsFrom: handler)
        return try batchInsert(rows, into: entity, plan: entityPlan)
    }

    /// Inserts rows already converted (values by slot, and the slots the caller gave, which an
    /// upsert writes) into `entity`.
    func batchInsert(
        _ rows: [(values: ContiguousArray<Value>, given: [Int])],
        into entity: EntityDescription,
        plan entityPlan: StorePlan.EntityPlan
    ) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        let constraints = uniquenessLookups(for: entity, plan: entityPlan)
        let table = entityPlan.mapping.table
        // An upsert that replaces a value kept in an external file removes the file once the
        // transaction commits (new values are kept in the row).
        let (changes, ids) = try withExternalFiles { files in
            try performBatchWrite("batch insert \(rows.count) \(entity.name) objects") {
                db -> (BatchChanges, [ManagedObjectID]) in
                var changes = BatchChanges()
                var ids: [ManagedObjectID] = []
                ids.reserveCapacity(rows.count)
                var nextKey = try reserveKeys(rows.count, root: entityPlan.rootCode, in: db)
                let insert = try db.cachedStatement(sql: entityPlan.insertSQL)
                for row in rows {
                    if let existing = try existingRow(matching: row.values, constraints, table: table, in: db) {
                        if !entityPlan.externalSlots.isEmpty {
                            try noteExternalFiles(ofRows: [existing], entity: entityPlan, slots: row.given, in: db, files: &files)
                        }
                        try update(existing.primaryKey, table: table, slots: row.given, values: row.values, plan: entityPlan, in: db)
                        changes.updated.append(existing)
                        ids.append(existing)
                        continue
                    }
                    var arguments: [DatabaseValue] = [nextKey.databaseValue, entityPlan.code.databaseValue, 1.databaseValue]
                    for (slot, count) in entityPlan.insertColumns.enumerated() where count > 0 {
                        let value = row.values[slot]
                        arguments.append((entityPlan.externalSlots.contains(slot) ? ExternalBinaryStorage.inline(value) : value).databaseValue)
                        if count == 2 { arguments.append(.null) }
                    }
                    try insert.execute(arguments: StatementArguments(arguments))
                    let id = ManagedObjectID(storeIdentifier: identifier, entityName: entity.name, primaryKey: nextKey)
                    nextKey += 1
                    changes.inserted.append(id)
                    ids.append(id)
                }
                return (changes, ids)
            }
        }
        return (changes, ids)
    }

    /// Reserves `count` primary keys of the tree rooted at `root` inside the transaction; returns
    /// the first.
    private func reserveKeys(_ count: Int, root: Int, in db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?", arguments: [count, root])
        let end = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? Int64(count)
        return end - Int64(count) + 1
    }

    /// One uniqueness constraint as a lookup: its slots, and the query of a stored row with
    /// the same values (over the entity codes its index covers).
    struct UniquenessLookup {
        let slots: [Int]
        let sql: String
    }

    /// The lookups of `entity`'s uniqueness constraints and its super-entities', as the engine
    /// writes them for every store.
    private func uniquenessLookups(for entity: EntityDescription, plan entityPlan: StorePlan.EntityPlan) -> [UniquenessLookup] {
        layout.uniquenessLookups(for: entity, table: entityPlan.mapping.table).map { UniquenessLookup(slots: $0.slots, sql: $0.sql) }
    }

    /// The stored row whose constrained values equal `values`' (constraints with a NULL value
    /// match nothing, as SQLite's unique indexes allow many NULLs).
    private func existingRow(
        matching values: ContiguousArray<Value>,
        _ lookups: [UniquenessLookup],
        table: String,
        in db: Database
    ) throws -> ManagedObjectID? {
        for lookup in lookups {
            let arguments = lookup.slots.map { values[$0] }
            if arguments.contains(where: \.isNull) { continue }
            if let row = try Row.fetchOne(db.cachedStatement(sql: lookup.sql), arguments: StatementArguments(arguments.map(\.databaseValue))) {
                let code: Int = row[1]
                guard let name = schema.entityNames[code] else { continue }
                return ManagedObjectID(storeIdentifier: identifier, entityName: name, primaryKey: row[0])
            }
        }
        return nil
    }

    /// Writes `slots` of one row and gives it a new version.
    private func update(
        _ pk: Int64,
        table: String,
        slots: [Int],
        values: ContiguousArray<Value>,
        plan entityPlan: StorePlan.EntityPlan,
        in db: Database
    ) throws {
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        for slot in slots.sorted() {
            guard let column = entityPlan.updateColumns[slot] else { continue }
            assignments.append("\(column) = ?")
            let value = entityPlan.externalSlots.contains(slot) ? ExternalBinaryStorage.inline(values[slot]) : values[slot]
            arguments.append(value.databaseValue)
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        arguments.append(pk.databaseValue)
        try db.execute(sql: "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?", arguments: StatementArguments(arguments))
    }

    // MARK: Shared

    /// The entity named `name` and its plan, or an error naming the request.
    func batchEntity(_ name: String, for request: String) throws -> (EntityDescription, StorePlan.EntityPlan) {
        let entity = try layout.batchEntity(name, model: managedObjectModel, for: request)
        guard let entityPlan = plan.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "cannot \(request) '\(name)': the model has no such entity")
        }
        return (entity, entityPlan)
    }

    /// `SELECT t0.Z_PK, t0.Z_ENT FROM table t0 … WHERE …` for the rows `descriptor` matches (in
    /// its order with a limit or offset), with its arguments, as the engine writes it from the
    /// request's plan (compiled now when it has none from this store). A predicate SQLite
    /// cannot express is refused.
    func matchingSQL(_ descriptor: FetchDescriptor, refusing request: String) throws -> (String, [DatabaseValue]) {
        let compiled: FetchPlan
        if let given = descriptor.plan, canUse(given) { compiled = given } else { compiled = try fetchPlan(for: descriptor) }
        let (sql, arguments) = try layout.matchingQuery(descriptor, plan: compiled, refusing: request)
        return (sql, arguments.databaseValues)
    }

    /// The IDs a `SELECT Z_PK, Z_ENT …` returns, inside a transaction.
    func matchingIDs(_ query: (String, [DatabaseValue]), in db: Database) throws -> [ManagedObjectID] {
        var ids: [ManagedObjectID] = []
        let rows = try Row.fetchCursor(db, sql: query.0, arguments: StatementArguments(query.1))
        while let row = try rows.next() {
            let code: Int = row[1]
            guard let name = schema.entityNames[code] else { continue }
            ids.append(ManagedObjectID(storeIdentifier: identifier, entityName: name, primaryKey: row[0]))
        }
        return ids
    }
}
