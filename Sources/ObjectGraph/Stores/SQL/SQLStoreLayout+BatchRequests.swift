import Foundation

// Batch requests for every SQL store: the model's side of them — checking and converting the
// input, the uniqueness lookups of an upsert, the rows a predicate matches, the values an
// update sets, the delete rules — as SQL and values, so a store only runs statements. Keys of
// many rows go as the dialect binds them (``SQLDialect/keyMembership(count:)``); the SQLite store
// takes the lookups, the matching query and the assignments, and binds keys in chunks itself.
extension SQLStoreLayout {
    /// A batch insert, checked and converted, ready to run.
    package struct BatchInsert: Sendable {
        /// One object to insert.
        package struct Row: Sendable {
            /// The INSERT's arguments after `Z_PK` (see ``SQLStoreLayout/Entity/insertSQL``).
            package let insertArguments: [SQLValue]
            /// The lookups of a stored row with this object's constrained values, in order
            /// (constraints with a `nil` value left out: they never conflict):
            /// `SELECT "Z_PK", "Z_ENT" … LIMIT 1`.
            package let lookups: [(sql: String, arguments: [SQLValue])]
            /// The UPDATE writing the values the caller gave (and a new version) into the row of
            /// the key bound last, for an upsert; its arguments before the key.
            package let updateSQL: String
            package let updateArguments: [SQLValue]
            /// Per column of ``BatchInsert/columns``: the object's value, in its storage form.
            package let values: [SQLValue]
            /// The columns (indexes into ``BatchInsert/columns``) the object gave, ascending:
            /// those an upsert writes (``updateSQL``'s assignments).
            package let given: [Int]
        }

        /// A column of the entity's row an upsert can write or a constraint compares.
        package struct Column: Sendable {
            /// Quoted.
            package let name: String
            /// The dialect's type (``SQLDialect/columnType(_:)``), for casts.
            package let type: String
            /// Where its value is in a row's ``Row/insertArguments``.
            package let insertArgument: Int
        }

        /// A uniqueness constraint, in the order ``Row/lookups`` try them.
        package struct Constraint: Sendable {
            /// Indexes into ``BatchInsert/columns``, in the constraint's order.
            package let columns: [Int]
            /// The entity codes its lookup (and the unique index) covers.
            package let entityCodes: [Int]
        }

        /// The entity inserted into, as the layout stores it.
        package let entity: Entity
        package let rows: [Row]
        /// The columns rows' ``Row/values`` hold.
        package let columns: [Column]
        /// The uniqueness constraints, as ``Row/lookups`` try them.
        package let constraints: [Constraint]
    }

    /// The batch insert of `objects` into the entity named `entityName`.
    ///
    /// - Throws: ``ObjectGraphError`` for an unknown or abstract entity, an unknown key, a
    ///   relationship or transient key, a value of the wrong type, a missing required value.
    package func batchInsert(entityName: String, objects: [[String: Any]], model: ManagedObjectModel) throws -> BatchInsert {
        let entity = try batchEntity(entityName, model: model, for: "batch insert into")
        try entity.checkBatchInsertable()
        let rows = try objects.enumerated().map { index, object in try entity.batchRow(object, index: index) }
        return try batchInsert(rows, into: entity)
    }

    /// The batch insert of the objects `handler` sets up, one per call, until it returns `true`.
    package func batchInsert(entityName: String, objectsFrom handler: (ManagedObject) -> Bool, model: ManagedObjectModel) throws -> BatchInsert {
        let entity = try batchEntity(entityName, model: model, for: "batch insert into")
        try entity.checkBatchInsertable()
        return try batchInsert(try entity.batchRows(objectsFrom: handler), into: entity)
    }

    private func batchInsert(_ rows: [(values: ContiguousArray<Value>, given: [Int])], into entity: EntityDescription) throws -> BatchInsert {
        guard let stored = self.entity(named: entity.name), let entityPlan = plan.entity(named: entity.name) else {
            throw ObjectGraphError(.entityNotFound, "cannot batch insert into '\(entity.name)': the store has no table for it")
        }
        let constraints = uniquenessLookups(for: entity, table: stored.table)
        let q = dialect.quoted
        // Every slot the row stores in a column of its own: what an upsert writes.
        var columns: [BatchInsert.Column] = []
        var columnOfSlot = [Int?](repeating: nil, count: entityPlan.insertColumns.count)
        var argument = 2
        for (slot, count) in entityPlan.insertColumns.enumerated() where count > 0 {
            if let column = stored.updateColumns[slot]?.column {
                let type = (entity.allProperties[slot] as? AttributeDescription).map { dialect.columnType($0.attributeType) } ?? "BIGINT"
                columnOfSlot[slot] = columns.count
                columns.append(BatchInsert.Column(name: column, type: type, insertArgument: argument))
            }
            argument += Int(count)
        }
        let batchConstraints = constraints.map { lookup in
            BatchInsert.Constraint(columns: lookup.slots.compactMap { columnOfSlot[$0] }, entityCodes: lookup.codes)
        }
        return BatchInsert(
            entity: stored,
            rows: rows.map { row in
                var arguments: [SQLValue] = [.integer(Int64(entityPlan.code)), .integer(1)]
                for (slot, count) in entityPlan.insertColumns.enumerated() where count > 0 {
                    arguments.append(row.values[slot].sqlValue)
                    if count == 2 { arguments.append(.null) }
                }
                let lookups = constraints.compactMap { lookup -> (sql: String, arguments: [SQLValue])? in
                    let values = lookup.slots.map { row.values[$0] }
                    return values.contains(where: \.isNull) ? nil : (lookup.sql, values.map(\.sqlValue))
                }
                var assignments: [String] = []
                var updateArguments: [SQLValue] = []
                var given: [Int] = []
                for slot in row.given.sorted() {
                    guard let column = stored.updateColumns[slot]?.column else { continue }
                    updateArguments.append(row.values[slot].sqlValue)
                    assignments.append("\(column) = \(dialect.placeholder(updateArguments.count))")
                    if let index = columnOfSlot[slot] { given.append(index) }
                }
                assignments.append("\(q("Z_OPT")) = \(q("Z_OPT")) + 1")
                let key = dialect.placeholder(updateArguments.count + 1)
                var values: [SQLValue] = []
                values.reserveCapacity(columns.count)
                for (slot, index) in columnOfSlot.enumerated() where index != nil { values.append(row.values[slot].sqlValue) }
                return BatchInsert.Row(
                    insertArguments: arguments,
                    lookups: lookups,
                    updateSQL: "UPDATE \(stored.table) SET \(assignments.joined(separator: ", ")) WHERE \(q("Z_PK")) = \(key)",
                    updateArguments: updateArguments,
                    values: values,
                    given: given
                )
            },
            columns: columns,
            constraints: batchConstraints
        )
    }

    /// The lookups of `entity`'s uniqueness constraints and its super-entities', each over the
    /// entity codes its constraint covers; `table` is the entity's, quoted.
    func uniquenessLookups(for entity: EntityDescription, table: String) -> [(slots: [Int], codes: [Int], sql: String)] {
        guard let mapping = schema.mappings[entity.name] else { return [] }
        let q = dialect.quoted
        var lookups: [(slots: [Int], codes: [Int], sql: String)] = []
        var current: EntityDescription? = entity
        while let owner = current {
            for constraint in owner.uniquenessConstraints {
                let slots = constraint.compactMap { owner.slotByName[$0] }
                let columns = slots.compactMap { mapping.columns[$0] }
                guard !slots.isEmpty, columns.count == constraint.count else { continue }
                let codes = owner.fetchableEntityCodes.map(String.init).joined(separator: ", ")
                let conditions = columns.enumerated().map { "\(q($1)) = \(dialect.placeholder($0 + 1))" }.joined(separator: " AND ")
                lookups.append(
                    (slots, owner.fetchableEntityCodes, "SELECT \(q("Z_PK")), \(q("Z_ENT")) FROM \(table) WHERE \(q("Z_ENT")) IN (\(codes)) AND \(conditions) LIMIT 1")
                )
            }
            current = owner.superentity
        }
        return lookups
    }

    // MARK: Batch update

    /// A batch update: the rows it changes and the UPDATE that changes them.
    package struct BatchUpdate: Sendable {
        /// `SELECT t0."Z_PK", t0."Z_ENT"` of the matching rows, and its arguments.
        package let select: (sql: String, arguments: [SQLValue])
        /// `UPDATE … SET columns, "Z_OPT" = "Z_OPT" + 1 WHERE "Z_PK" = ANY(…)`: the keys are
        /// bound, as one `bigint[]`, after ``arguments``.
        package let updateSQL: String
        package let arguments: [SQLValue]
        /// The slots it sets, for persistent history.
        package let slots: [Int]
    }

    /// The batch update setting `values` (attribute names to caller values) on the rows of
    /// `entityName` that `predicate` matches.
    ///
    /// - Throws: ``ObjectGraphError`` for an unknown entity, a bad key or value, or a predicate
    ///   the dialect cannot express (the update is refused rather than run in memory).
    package func batchUpdate(
        entityName: String,
        predicate: PredicateNode?,
        includesSubentities: Bool,
        values: [String: Any],
        model: ManagedObjectModel,
        storeIdentifier: String
    ) throws -> BatchUpdate {
        let (entity, descriptor, assignments) = try batchUpdateAssignments(
            entityName: entityName,
            predicate: predicate,
            includesSubentities: includesSubentities,
            values: values,
            model: model
        )
        guard let stored = self.entity(named: entity.name) else {
            throw ObjectGraphError(.entityNotFound, "cannot batch update '\(entity.name)': the store has no table for it")
        }
        let q = dialect.quoted
        var columns: [String] = []
        for (index, assignment) in assignments.enumerated() {
            columns.append("\(assignment.column) = \(dialect.placeholder(index + 1))")
        }
        columns.append("\(q("Z_OPT")) = \(q("Z_OPT")) + 1")
        let arguments = assignments.map(\.value.sqlValue)
        return BatchUpdate(
            select: try matchingQuery(descriptor, model: model, storeIdentifier: storeIdentifier, refusing: "batch update"),
            updateSQL:
                "UPDATE \(stored.table) SET \(columns.joined(separator: ", ")) WHERE \(q("Z_PK")) = ANY(\(dialect.placeholder(arguments.count + 1)))",
            arguments: arguments,
            slots: assignments.map(\.slot)
        )
    }

    /// One value a batch update sets: the attribute's slot, its column (quoted) and the value,
    /// checked and converted.
    struct BatchAssignment {
        let slot: Int
        let column: String
        let value: Value
    }

    /// The rules of a batch update, for every store: the entity, the fetch of the rows it
    /// changes, and the values it sets, in key order (keys of attributes the store keeps in no
    /// column of the row left out).
    ///
    /// - Throws: ``ObjectGraphError`` for an unknown entity, a key that is not a stored
    ///   attribute, or a value of the wrong type.
    func batchUpdateAssignments(
        entityName: String,
        predicate: PredicateNode?,
        includesSubentities: Bool,
        values: [String: Any],
        model: ManagedObjectModel
    ) throws -> (entity: EntityDescription, descriptor: FetchDescriptor, assignments: [BatchAssignment]) {
        let entity = try batchEntity(entityName, model: model, for: "batch update of")
        let stored = self.entity(named: entity.name)
        var assignments: [BatchAssignment] = []
        for (key, input) in values.sorted(by: { $0.key < $1.key }) {
            let attribute = try entity.batchAttribute(key, where: "the batch update of \(entity.name)")
            let value = try attribute.batchValue(input, where: "the batch update of \(entity.name)")
            guard let column = stored?.updateColumns[attribute.slot]?.column else { continue }
            assignments.append(BatchAssignment(slot: attribute.slot, column: column, value: value))
        }
        let descriptor = FetchDescriptor(
            entity: entity.name,
            predicate: predicate,
            sortDescriptors: [],
            fetchLimit: 0,
            fetchOffset: 0,
            includesSubentities: includesSubentities
        )
        return (entity, descriptor, assignments)
    }

    // MARK: Batch delete

    /// `SELECT t0."Z_PK", t0."Z_ENT"` of the rows `descriptor` matches (in its order when it
    /// has a limit or offset), and its arguments.
    ///
    /// - Throws: ``ObjectGraphError`` for an unknown entity, or a predicate the dialect cannot
    ///   express: `request` ("batch delete") is refused rather than run in memory.
    package func matchingQuery(
        _ descriptor: FetchDescriptor,
        model: ManagedObjectModel,
        storeIdentifier: String,
        refusing request: String
    ) throws -> (sql: String, arguments: [SQLValue]) {
        try matchingQuery(descriptor, plan: try fetchPlan(for: descriptor, model: model, storeIdentifier: storeIdentifier), refusing: request)
    }

    /// The matching query of ``matchingQuery(_:model:storeIdentifier:refusing:)`` from a plan
    /// the store already has (the SQLite store reuses the plan a request carries).
    func matchingQuery(_ descriptor: FetchDescriptor, plan compiled: FetchPlan, refusing request: String) throws -> (sql: String, arguments: [SQLValue]) {
        do {
            return try query(descriptor, plan: compiled, ordered: descriptor.fetchLimit > 0 || descriptor.fetchOffset > 0) { _ in
                "\(dialect.column("t0", "Z_PK")), \(dialect.column("t0", "Z_ENT"))"
            }
        } catch let error as NeedsInMemoryEvaluation {
            throw ObjectGraphError(
                .invalidRequest,
                "a \(request) of \(descriptor.entity) runs its predicate in \(dialect.databaseName), which cannot express it (\(error.reason)); fetch the objects and change them in a context instead. Nothing was written"
            )
        }
    }

    // MARK: Shared

    /// The entity named `name`, or an error naming `request` ("batch delete").
    package func batchEntity(_ name: String, model: ManagedObjectModel, for request: String) throws -> EntityDescription {
        guard let entity = model.entity(named: name), plan.entity(named: name) != nil else {
            throw ObjectGraphError(.entityNotFound, "cannot \(request) '\(name)': the model has no such entity")
        }
        return entity
    }
}
