import Foundation

/// A model's tables as a SQL store on another database sees them, in that database's
/// ``SQLDialect``: Core Data's layout (``StoreSchema``), with identifiers quoted, placeholders
/// numbered and column types of the dialect — and the queries every SQL store runs.
///
/// The SQLite store reads its ``StorePlan`` directly; a store in another module (the
/// PostgreSQL store) gets everything it needs to read, write and create the layout from here,
/// so both lay a model out alike and share one predicate compiler.
package struct SQLStoreLayout: Sendable {
    /// How one entity's rows are stored.
    package struct Entity: Sendable {
        package let name: String
        package let code: Int
        /// The code and name of the root of the entity's inheritance tree, whose keys it shares.
        package let rootCode: Int
        package let rootName: String
        /// The tree's table, quoted.
        package let table: String
        /// `"Z_PK", "Z_ENT", "Z_OPT", columns…` of the table, quoted, as every row SELECT lists
        /// them (and ``SQLStoreLayout/decodeRow(integer:attribute:)`` decodes them).
        package let selectList: String
        /// The INSERT of a new row: `Z_PK`, `Z_ENT`, `Z_OPT`, then per stored slot one column
        /// (two for a to-one into an inheritance tree: the key, then the entity code).
        package let insertSQL: String
        /// Per slot: how many columns the INSERT writes for it (0: not stored).
        package let insertColumns: [UInt8]
        /// The stored slots in the INSERT's order after `Z_PK`, `Z_ENT`, `Z_OPT` (1), each
        /// followed by the destination's entity code when `withEntity` (a to-one into an
        /// inheritance tree): what every store's bulk path writes for a new row.
        package let insertFields: [(slot: Int, withEntity: Bool)]
        /// Per slot: the quoted column an UPDATE writes, and its entity-code column; `nil` for
        /// a slot not stored in the row.
        package let updateColumns: [(column: String, entityColumn: String?)?]
        /// The join tables holding this entity's objects, and the quoted column naming them.
        package let joinRows: [(table: String, column: String)]
        /// The slots of binary attributes kept in Core Data's external binary storage format
        /// (a SQLite store in Core Data's layout; empty otherwise).
        package let externalSlots: [Int]
    }

    /// Where a to-many relationship's members are stored, quoted.
    package enum ToMany: Sendable {
        /// In a join table: the object's key in `mine`, the member's in `theirs`; the member
        /// rows are in `memberTable`; ordered by `orderColumn` when ordered. `isOwner` says
        /// whether this side writes the join rows.
        case joinTable(table: String, mine: String, theirs: String, orderColumn: String?, memberTable: String, isOwner: Bool)
        /// In the destination's foreign key `column` back to the source, in `table`; ordered by
        /// `orderColumn` when ordered.
        case foreignKey(table: String, column: String, orderColumn: String?)
    }

    let plan: StorePlan
    /// The dialect every statement is written in.
    package let dialect: any SQLDialect
    /// By entity code; index 0 unused.
    private let entities: [Entity?]

    /// The layout of `model` in `dialect`.
    package init(model: ManagedObjectModel, dialect: any SQLDialect) {
        // The layout the PostgreSQL DDL (SQLStoreLayout+Schema) writes: join tables with
        // Z_SOURCE / Z_DESTINATION, as ObjectGraph's stores had before Core Data's layout.
        self.init(plan: StorePlan(model: model, layout: .objectGraph), dialect: dialect)
    }

    /// The layout `plan` describes, in `dialect`: how the SQLite store shares the engine's
    /// statements (uniqueness probes, batch rules, fetch queries) over its file's own layout.
    init(plan: StorePlan, dialect: any SQLDialect) {
        self.plan = plan
        self.dialect = dialect
        let q = dialect.quoted
        entities = plan.entities.map { entity in
            entity.map { entity in
                let mapping = entity.mapping
                var names = ["Z_PK", "Z_ENT", "Z_OPT"]
                var update: [(column: String, entityColumn: String?)?] = []
                for slot in entity.insertColumns.indices {
                    guard let column = mapping.columns[slot] else {
                        update.append(nil)
                        continue
                    }
                    names.append(column)
                    let entityColumn = mapping.entityColumns[slot]
                    if let entityColumn { names.append(entityColumn) }
                    update.append((q(column), entityColumn.map(q)))
                }
                let placeholders = names.indices.map { dialect.placeholder($0 + 1) }.joined(separator: ", ")
                let table = plan.schema.tables[mapping.table]
                let selectColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + (table?.columns.map(\.name) ?? [])
                var joinRows: [(table: String, column: String)] = []
                for joinTable in plan.schema.joinTables.values.sorted(by: { $0.name < $1.name }) {
                    if joinTable.sourceTable == mapping.table { joinRows.append((q(joinTable.name), q(joinTable.sourceColumn))) }
                    if joinTable.destinationTable == mapping.table { joinRows.append((q(joinTable.name), q(joinTable.destinationColumn))) }
                }
                return Entity(
                    name: entity.name,
                    code: entity.code,
                    rootCode: entity.rootCode,
                    rootName: entity.rootName,
                    table: q(mapping.table),
                    selectList: selectColumns.map(q).joined(separator: ", "),
                    insertSQL: "INSERT INTO \(q(mapping.table)) (\(names.map(q).joined(separator: ", "))) VALUES (\(placeholders))",
                    insertColumns: entity.insertColumns,
                    insertFields: entity.insertColumns.enumerated().compactMap { slot, count in count > 0 ? (slot, count == 2) : nil },
                    updateColumns: update,
                    joinRows: joinRows,
                    externalSlots: entity.externalSlots
                )
            }
        }
    }

    /// The schema the SQL compiler reads.
    var schema: StoreSchema { plan.schema }

    /// The entity of code `code`, or `nil` for a code the model does not have.
    package func entity(code: Int) -> Entity? {
        code > 0 && code < entities.count ? entities[code] : nil
    }

    /// The entity named `name`, or `nil`.
    package func entity(named name: String) -> Entity? {
        plan.entity(named: name).flatMap { entity(code: $0.code) }
    }

    /// Every entity, by code.
    package var allEntities: [Entity] { entities.compactMap { $0 } }

    /// Where the members of to-many `relationship` are stored; `nil` for none.
    package func toMany(_ relationship: RelationshipKey) -> ToMany? {
        let q = dialect.quoted
        switch schema.toMany[relationship] {
        case .foreignKey(let table, let column, let orderColumn):
            return .foreignKey(table: q(table), column: q(column), orderColumn: orderColumn.map(q))
        case .joinTable(let joinTable, let isOwner):
            let (mine, theirs, order) = joinTable.columns(isOwner: isOwner)
            return .joinTable(
                table: q(joinTable.name),
                mine: q(mine),
                theirs: q(theirs),
                orderColumn: order.map(q),
                memberTable: q(isOwner ? joinTable.destinationTable : joinTable.sourceTable),
                isOwner: isOwner
            )
        case nil:
            return nil
        }
    }

    /// `SELECT source, member "Z_PK", member "Z_ENT"` of the members of to-many `relationship`
    /// of the rows whose keys are bound, each source's members in order (by the order column
    /// where there is one, then by key); `nil` when the store keeps no members for it. Both
    /// stores read members with it, SQLite one object (`= ?`) or a chunk at a time.
    package func membersQuery(_ relationship: RelationshipKey) -> KeyedSQL? {
        let q = dialect.quoted
        switch toMany(relationship) {
        case .foreignKey(let table, let column, let orderColumn):
            return KeyedSQL(
                head: "SELECT \(column), \(q("Z_PK")), \(q("Z_ENT")) FROM \(table) WHERE \(column) ",
                tail: " ORDER BY \(column), \(orderColumn.map { "\($0), " } ?? "")\(q("Z_PK"))"
            )
        case .joinTable(let table, let mine, let theirs, let orderColumn, let memberTable, _):
            // Ordered by the join table's own columns (equal to d.Z_PK), which its key and
            // index already hold in order: ordering by d.Z_PK made SQLite sort every member.
            return KeyedSQL(
                head: "SELECT j.\(mine), d.\(q("Z_PK")), d.\(q("Z_ENT")) FROM \(table) j JOIN \(memberTable) d ON d.\(q("Z_PK")) = j.\(theirs) WHERE j.\(mine) ",
                tail: " ORDER BY j.\(mine), \(orderColumn.map { "j.\($0), " } ?? "")j.\(theirs)"
            )
        case nil:
            return nil
        }
    }

    /// "Entity.relationship", for errors.
    package func relationshipName(_ key: RelationshipKey, model: ManagedObjectModel) -> String {
        guard let entity = plan.entity(code: key.entity), let described = model.entity(named: entity.name),
            key.slot >= 0, key.slot < described.allProperties.count
        else { return "relationship \(key.slot) of entity \(key.entity)" }
        return "\(entity.name).\(described.allProperties[key.slot].name)"
    }

    /// Decodes a full-table row (`Z_PK, Z_ENT, Z_OPT, columns…`) whose column `i` is read by
    /// `integer(i)` (`nil` when it holds no integer) and `attribute(i, type)`.
    package func decodeRow(ids: StoreObjectIDs, integer: (Int) -> Int64?, attribute: (Int, AttributeType) -> Value) -> StoredRow? {
        guard let pk = integer(0), let code = integer(1), let entity = plan.entity(code: Int(code)) else { return nil }
        var values = ContiguousArray<Value>.nulls(count: entity.read.slotCount)
        for item in entity.read.columns {
            switch item {
            case .attribute(let slot, let index, let type):
                values[slot] = attribute(index, type)
            case .toOne(let slot, let index, let entityIndex, let destination):
                guard let key = integer(index) else { continue }
                var id = ids.objectID(code: destination, primaryKey: key)
                if let entityIndex, let code = integer(entityIndex), let concrete = ids.objectID(code: Int(code), primaryKey: key) { id = concrete }
                if let id { values[slot] = .objectID(id) }
            }
        }
        guard let id = ids.objectID(code: entity.code, primaryKey: pk) else { return nil }
        return StoredRow(id: id, version: integer(2) ?? 0, values: values)
    }

    /// The IDs of the store `storeIdentifier` laid out like this.
    package func objectIDs(storeIdentifier: String) -> StoreObjectIDs {
        plan.objectIDs(storeIdentifier: storeIdentifier)
    }

    /// The entity-code column's value for a to-one value: the destination's `Z_ENT`, or NULL.
    package func entityCode(of value: Value) -> SQLValue {
        if case .objectID(let id) = value, let target = plan.entity(named: id.entityName) { return .integer(Int64(target.code)) }
        return .null
    }

    // MARK: Fetching

    /// Compiles the plan of `request` against this layout (see ``FetchPlan``).
    package func fetchPlan(for request: FetchDescriptor, model: ManagedObjectModel, storeIdentifier: String) throws -> FetchPlan {
        try FetchPlan(compiling: request, schema: schema, model: model, dialect: dialect, storeIdentifier: storeIdentifier)
    }

    /// The SQL of a fetch — `SELECT columns FROM table t0 joins WHERE … ORDER BY … LIMIT …` —
    /// and its arguments, from `plan`.
    ///
    /// - Parameter columns: The select list, given the fetched table (quoted).
    /// - Throws: ``NeedsInMemoryEvaluation`` when the request applies a predicate the dialect
    ///   cannot express (check ``FetchPlan/needsInMemoryEvaluation`` first) or is sorted in
    ///   memory (use ``sortableQuery(_:plan:distinct:columns:)`` to read such a fetch), or the
    ///   error compiling the predicate or the sort.
    package func query(
        _ request: FetchDescriptor,
        plan: FetchPlan,
        ordered: Bool = true,
        distinct: Bool = false,
        columns: (String) -> String
    ) throws -> (sql: String, arguments: [SQLValue]) {
        let query = try sortableQuery(request, plan: plan, ordered: ordered, distinct: distinct, columns: columns)
        if let sort = query.inMemory {
            throw NeedsInMemoryEvaluation(reason: "the sort by \(sort.descriptors.map(\.description).joined(separator: ", ")) is applied in memory")
        }
        return (query.sql, query.arguments)
    }

    /// The SQL of a fetch as ``query(_:plan:ordered:distinct:columns:)`` writes it, except
    /// when the dialect sorts it in memory (``FetchPlan/InMemorySort``): then the SQL has no
    /// ORDER BY, LIMIT or OFFSET and selects each sort key after `columns` (then, unless
    /// `distinct`, the primary key), and the caller orders the rows with `inMemory` and
    /// applies the request's offset and limit.
    package func sortableQuery(
        _ request: FetchDescriptor,
        plan: FetchPlan,
        ordered: Bool = true,
        distinct: Bool = false,
        columns: (String) -> String
    ) throws -> (sql: String, arguments: [SQLValue], inMemory: FetchPlan.InMemorySort?) {
        let clauses: FetchPlan.Clauses
        if request.appliesPredicate, request.predicate != nil {
            switch plan.filtered {
            case .sql(let compiled): clauses = compiled
            case .inMemory(let reason): throw NeedsInMemoryEvaluation(reason: reason)
            case .failed(let error): throw error
            }
        } else {
            clauses = plan.unfiltered
        }
        var joins = clauses.whereJoins
        var arguments = clauses.whereArguments
        var orderClause = ""
        var inMemory: FetchPlan.InMemorySort?
        if ordered {
            let order = try clauses.order.get()
            joins = order.joins
            arguments = order.arguments
            inMemory = order.inMemory
            orderClause = SQLCompiler.orderClause(terms: order.terms, alias: "t0", breakingTies: !distinct, dialect: dialect)
        }
        let table = dialect.quoted(plan.table)
        var selectList = columns(table)
        if let inMemory {
            selectList += ", " + inMemory.keys.joined(separator: ", ")
            // The primary key last, to break ties as ORDER BY does (DISTINCT rows have none).
            if !distinct { selectList += ", " + dialect.column("t0", "Z_PK") }
        }
        var sql = "SELECT \(distinct ? "DISTINCT " : "")\(selectList) FROM \(table) t0"
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        if inMemory != nil { return (sql + clauses.whereClause, arguments, inMemory) }
        sql += clauses.whereClause + orderClause
        let limit = dialect.limitClause(limit: request.fetchLimit, offset: request.fetchOffset, firstPlaceholder: arguments.count + 1)
        sql += limit.sql
        return (sql, arguments + limit.arguments, nil)
    }

    /// The select list of a fetch's rows from the table `table` (quoted), aliased `t0`.
    package func aliasedSelectList(_ table: String) -> String {
        let name = plan.schema.tables.keys.first { dialect.quoted($0) == table } ?? ""
        let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + (plan.schema.tables[name]?.columns.map(\.name) ?? [])
        return columns.map { dialect.column("t0", $0) }.joined(separator: ", ")
    }

    /// The quoted column of each of `properties` of the entity named `entity`, with the
    /// property's description, for a dictionary fetch.
    package func columns(
        of properties: [String],
        entity name: String,
        model: ManagedObjectModel
    ) throws -> [(column: String, property: PropertyDescription)] {
        guard let entity = model.entity(named: name), let mapping = schema.mappings[name] else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(name)'")
        }
        return try properties.map { key in
            guard let slot = entity.slotByName[key], let column = mapping.columns[slot] else {
                throw ObjectGraphError(.unknownKey, "\(name) has no stored attribute or to-one relationship '\(key)' to fetch")
            }
            return (dialect.column("t0", column), entity.allProperties[slot])
        }
    }
}
