import Foundation

// A migration rewrites a store's tables through a ``MigrationSQLExecutor``, behind the store
// boundary (nothing of it crosses `ObjectStore`): the SQLite store's runs on its GRDB
// connection, the PostgreSQL store's runs the same statements, in its dialect, on its client.

extension MigrationMapping {
    /// New primary keys: rows keep their key plus the offset of their (old table, new table)
    /// pair, so rows of several old tables merged into one (an entity moved under a parent)
    /// stay unique.
    struct KeyOffsets {
        fileprivate var offsets: [String: Int64] = [:]
        /// The highest key each new table may hold, for `Z_PRIMARYKEY`.
        fileprivate(set) var maxima: [String: Int64] = [:]

        /// What is added to a key of `oldTable` whose row moves into `newTable`.
        func offset(_ oldTable: String, _ newTable: String) -> Int64 { offsets[oldTable + "→" + newTable] ?? 0 }
    }

    /// Migrates the tables through `db`, inside the caller's transaction: renames the old tables,
    /// creates the new ones, copies rows, relationship members and orders with INSERT … SELECT,
    /// runs `handler` (a custom stage) while both layouts exist, drops the old tables, creates
    /// the indexes and rewrites `Z_PRIMARYKEY`.
    ///
    /// - Returns: Every change that could not be migrated, one line each naming entity and
    ///   property (empty on success). Without a `handler`, the caller must roll back when
    ///   there are any; a custom stage takes responsibility for the changes it was written for.
    func run(on db: some MigrationStatementRunner, handler: ((MigrationContext) throws -> Void)?) throws -> [String] {
        try run(on: db, creation: newSchema.creationSQL(model: newModel)) { offsets in
            try handler.map { try $0(MigrationContext(database: db, mapping: self, offsets: offsets)) }
            return handler != nil
        }
    }

    /// Migrates the tables through `db` as ``run(on:handler:)`` does, in the mapping's
    /// dialect: `creation` creates the new layout's tables and indexes, and `handler` (given
    /// the key offsets, between the copy and the checks) says whether it took the changes
    /// that could not be migrated in hand.
    ///
    /// - Returns: Every change that could not be migrated (empty on success).
    func run(on db: some MigrationSQLExecutor, creation: [String], handler: ((KeyOffsets) throws -> Bool)? = nil) throws -> [String] {
        for table in oldTables where try db.tableExists(table) {
            try db.execute("ALTER TABLE \(q(table)) RENAME TO \(q(oldTable(table)))")
        }
        // Indexes, derived attributes' triggers and their recounts come last, once the rows are
        // in and the old tables (whose triggers go with them) are gone.
        let late = { (statement: String) in statement.contains(" INDEX ") || StoreSchema.isDerivedAttributeStatement(statement) }
        for statement in creation where !late(statement) { try db.execute(statement) }
        let offsets = try keyOffsets(in: db)
        var problems: [String] = []
        for entity in newModel.entities.sorted(by: { $0.name < $1.name }) {
            guard let oldEntity = sources[entity.name] else { continue }
            problems += try copyRows(of: entity, from: oldEntity, offsets: offsets, in: db)
        }
        try copyJoinTables(offsets: offsets, in: db)
        if let handler, try handler(offsets) {
            problems = []
        }
        problems += try uniquenessProblems(in: db)
        guard problems.isEmpty else { return problems }
        for table in oldTables where try db.tableExists(oldTable(table)) {
            try db.execute("DROP TABLE \(q(oldTable(table)))")
        }
        for statement in creation where late(statement) { try db.execute(statement) }
        try rewritePrimaryKeys(offsets: offsets, in: db)
        return []
    }

    // MARK: Keys

    private func keyOffsets(in db: some MigrationSQLExecutor) throws -> KeyOffsets {
        var contributors: [String: [String]] = [:]
        for entity in newModel.entities {
            guard let old = sources[entity.name] else { continue }
            let target = newTable(of: entity)
            if contributors[target]?.contains(oldTable(of: old)) != true { contributors[target, default: []].append(oldTable(of: old)) }
        }
        var result = KeyOffsets()
        for (target, tables) in contributors {
            // The table that keeps its name keeps its keys; the others follow it.
            let ordered = tables.sorted { ($0 == oldTable(target) ? 0 : 1, $0) < ($1 == oldTable(target) ? 0 : 1, $1) }
            var next: Int64 = 0
            for table in ordered {
                result.offsets[table + "→" + target] = next
                next += try oldMaximum(table, in: db)
            }
            result.maxima[target] = next
        }
        return result
    }

    /// The highest key an old table holds or has reserved.
    private func oldMaximum(_ table: String, in db: some MigrationSQLExecutor) throws -> Int64 {
        let rows = try db.integer("SELECT MAX(\(q("Z_PK"))) FROM \(q(table))") ?? 0
        let root = oldModel.entities.first { $0.superentity == nil && oldTable(of: $0) == table }
        let reserved =
            try root.flatMap { try db.integer("SELECT \(q("Z_MAX")) FROM \(q("Z_PRIMARYKEY")) WHERE \(q("Z_ENT")) = \($0.entityCode)") } ?? 0
        return max(rows, reserved)
    }

    private func rewritePrimaryKeys(offsets: KeyOffsets, in db: some MigrationSQLExecutor) throws {
        try db.execute("DELETE FROM \(q("Z_PRIMARYKEY"))")
        for entity in newModel.entities {
            var maximum: Int64 = 0
            if entity.superentity == nil {
                let table = newTable(of: entity)
                let used = try db.integer("SELECT MAX(\(q("Z_PK"))) FROM \(q(table))") ?? 0
                maximum = max(offsets.maxima[table] ?? 0, used)
            }
            let columns = ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"].map(q).joined(separator: ", ")
            let values = [String(entity.entityCode), literal(.string(entity.name)), String(entity.superentity?.entityCode ?? 0), String(maximum)]
            try db.execute("INSERT INTO \(q("Z_PRIMARYKEY")) (\(columns)) VALUES (\(values.joined(separator: ", ")))")
        }
    }

    // MARK: Rows

    private func copyRows(
        of entity: EntityDescription,
        from oldEntity: EntityDescription,
        offsets: KeyOffsets,
        in db: some MigrationSQLExecutor
    ) throws -> [String] {
        guard let mapping = newSchema.mappings[entity.name] else { return [] }
        let source = oldTable(of: oldEntity)
        let filter = "o.\(q("Z_ENT")) = \(oldEntity.entityCode)"
        var problems: [String] = []
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["o.\(q("Z_PK")) + \(offsets.offset(source, mapping.table))", "\(entity.entityCode)", "o.\(q("Z_OPT"))"]
        for (slot, column) in mapping.columns.sorted(by: { $0.key < $1.key }) {
            switch entity.allProperties[slot] {
            case let attribute as AttributeDescription:
                columns.append(column)
                values.append(try value(of: attribute, in: entity, from: oldEntity, filter: filter, db: db, problems: &problems))
            case let relationship as RelationshipDescription:
                let (key, code) = try value(of: relationship, in: entity, offsets: offsets, db: db, problems: &problems)
                columns.append(column)
                values.append(key)
                if let entityColumn = mapping.entityColumns[slot] {
                    columns.append(entityColumn)
                    values.append(code)
                }
            default:
                break
            }
        }
        for (column, expression) in orderColumns(of: entity, oldTable: source) {
            columns.append(column)
            values.append(expression)
        }
        try db.execute(
            "INSERT INTO \(q(mapping.table)) (\(columns.map(q).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(q(source)) AS o WHERE \(filter)"
        )
        // A required to-one relationship must have found a destination for every copied row.
        for (slot, column) in mapping.columns.sorted(by: { $0.key < $1.key }) {
            guard let relationship = entity.allProperties[slot] as? RelationshipDescription, !relationship.isOptional else { continue }
            let missing = try count(
                "SELECT COUNT(*) FROM \(q(mapping.table)) WHERE \(q("Z_ENT")) = \(entity.entityCode) AND \(q(column)) IS NULL",
                in: db
            )
            if missing > 0 {
                problems.append(
                    "\(entity.name).\(relationship.name): required, but \(Self.objects(missing)) in the store \(missing == 1 ? "has" : "have") no \(relationship.destinationEntity?.name ?? "destination")"
                )
            }
        }
        return problems
    }

    /// The expression of an attribute's new column, over the old row `o`.
    private func value(
        of attribute: AttributeDescription,
        in entity: EntityDescription,
        from oldEntity: EntityDescription,
        filter: String,
        db: some MigrationSQLExecutor,
        problems: inout [String]
    ) throws -> String {
        let name = "\(entity.name).\(attribute.name)"
        let defaultValue = literal(attribute.defaultStoredValue)
        let source = oldTable(of: oldEntity)
        guard let old = oldProperty(for: attribute, in: oldEntity) as? AttributeDescription, let column = oldColumn(old, of: oldEntity) else {
            if !attribute.isOptional && attribute.defaultStoredValue.isNull {
                let rows = try count("SELECT COUNT(*) FROM \(q(source)) AS o WHERE \(filter)", in: db)
                if rows > 0 {
                    problems.append("\(name): a new required attribute without a default value; \(Self.objects(rows)) in the store would have none")
                }
            }
            return defaultValue
        }
        if old.attributeType != attribute.attributeType {
            problems.append(
                "\(name): the type changed from \(old.attributeType.rawValue) to \(attribute.attributeType.rawValue) (\(oldEntity.name).\(old.name) in the store); a type change is not a lightweight migration"
            )
            return "NULL"
        }
        guard !attribute.isOptional else { return column }
        if !attribute.defaultStoredValue.isNull { return "COALESCE(\(column), \(defaultValue))" }
        let missing = try count("SELECT COUNT(*) FROM \(q(source)) AS o WHERE \(filter) AND \(column) IS NULL", in: db)
        if missing > 0 {
            problems.append(
                "\(name): now required without a default value, but \(Self.objects(missing)) in the store \(missing == 1 ? "has" : "have") no value"
            )
        }
        return column
    }

    /// The expressions of a to-one relationship's new key column and destination-entity column.
    private func value(
        of relationship: RelationshipDescription,
        in entity: EntityDescription,
        offsets: KeyOffsets,
        db: some MigrationSQLExecutor,
        problems: inout [String]
    ) throws -> (key: String, entity: String) {
        guard let destination = relationship.destinationEntity else { return ("NULL", "NULL") }
        var keys: [String] = []
        var codes: [String] = []
        for pairs in pairs(of: relationship, for: entity) {
            let key: String
            if let column = pairs.directColumn {
                key = column
            } else {
                let crowded = try count("SELECT COUNT(*) FROM (SELECT src FROM (\(pairs.sql)) AS p GROUP BY src HAVING COUNT(*) > 1) AS c", in: db)
                if crowded > 0 {
                    problems.append(
                        "\(entity.name).\(relationship.name): a to-many relationship became to-one, but \(Self.objects(crowded)) in the store \(crowded == 1 ? "has" : "have") more than one \(destination.name)"
                    )
                }
                key = "(SELECT p.dst FROM (\(pairs.sql)) AS p WHERE p.src = o.\(q("Z_PK")) ORDER BY p.ord, p.dst LIMIT 1)"
            }
            keys.append("(\(key) + \(offsets.offset(pairs.destinationTable, newTable(of: destination))))")
            codes.append("(SELECT \(entityCodeMapping("d.\(q("Z_ENT"))")) FROM \(q(pairs.destinationTable)) AS d WHERE d.\(q("Z_PK")) = \(key))")
        }
        func first(_ expressions: [String]) -> String {
            expressions.count > 1 ? "COALESCE(\(expressions.joined(separator: ", ")))" : expressions.first ?? "NULL"
        }
        return (first(keys), first(codes))
    }

    /// The order columns of ordered one-to-many relationships that rows of `entity` carry (as
    /// members), with their values: the old order where there was one, else the member's key.
    private func orderColumns(of entity: EntityDescription, oldTable source: String) -> [(String, String)] {
        var result: [(String, String)] = []
        for owner in newModel.entities {
            for case let relationship as RelationshipDescription in owner.properties where relationship.isOrdered {
                guard case .foreignKey(let table, _, let orderColumn?)? = newSchema.storage(of: relationship),
                    table == newTable(of: entity), let destination = relationship.destinationEntity, entity.isKindOf(entity: destination)
                else { continue }
                let orders = pairs(of: relationship, for: owner).filter { $0.destinationTable == source }
                    .map { "(SELECT p.ord FROM (\($0.sql)) AS p WHERE p.dst = o.\(q("Z_PK")) LIMIT 1)" }
                result.append((orderColumn, "COALESCE(\((orders + ["o.\(q("Z_PK"))"]).joined(separator: ", ")))"))
            }
        }
        return result
    }

    private func copyJoinTables(offsets: KeyOffsets, in db: some MigrationSQLExecutor) throws {
        for (key, table) in newSchema.joinTables.sorted(by: { $0.value.name < $1.value.name }) {
            guard let owner = newModel.entities.first(where: { $0.entityCode == key.entity }),
                let relationship = owner.allProperties[key.slot] as? RelationshipDescription,
                let destination = relationship.destinationEntity
            else { continue }
            let destinationTable = newTable(of: destination)
            for member in newModel.entities where member.isKindOf(entity: owner) {
                for pairs in pairs(of: relationship, for: member) {
                    let source = "(p.src + \(offsets.offset(pairs.sourceTable, newTable(of: member))))"
                    let target = "(p.dst + \(offsets.offset(pairs.destinationTable, destinationTable)))"
                    var columns = [q(table.sourceColumn), q(table.destinationColumn)]
                    var values = [source, target]
                    if let order = table.sourceOrderColumn {
                        columns.append(q(order))
                        values.append("COALESCE(p.ord, \(target))")
                    }
                    if let order = table.destinationOrderColumn {
                        columns.append(q(order))
                        values.append(source)
                    }
                    // A pair read twice (from both sides) is written once.
                    let (insert, ignoring) = dialect.insertIgnoringConflicts
                    try db.execute(
                        """
                        \(insert) INTO \(q(table.name)) (\(columns.joined(separator: ", "))) \
                        SELECT \(values.joined(separator: ", ")) FROM (\(pairs.sql)) AS p \
                        WHERE \(source) IN (SELECT \(q("Z_PK")) FROM \(q(newTable(of: member))) WHERE \(q("Z_ENT")) = \(member.entityCode)) \
                        AND \(target) IN (SELECT \(q("Z_PK")) FROM \(q(destinationTable)))\(ignoring)
                        """
                    )
                }
            }
        }
    }

    // MARK: Checks

    /// Uniqueness constraints of the new model that the migrated rows break.
    private func uniquenessProblems(in db: some MigrationSQLExecutor) throws -> [String] {
        var problems: [String] = []
        for entity in newModel.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = newSchema.mappings[entity.name] else { continue }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap { entity.slotByName[$0].flatMap { mapping.columns[$0] }.map(q) }
                guard columns.count == constraint.count, !columns.isEmpty else { continue }
                let filter = (columns.map { "\($0) IS NOT NULL" } + ["\(q("Z_ENT")) IN (\(Self.list(entity.fetchableEntityCodes)))"]).joined(
                    separator: " AND "
                )
                let list = columns.joined(separator: ", ")
                let shared = try count(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM \(q(mapping.table)) WHERE \(filter) GROUP BY \(list) HAVING COUNT(*) > 1) AS c",
                    in: db
                )
                if shared > 0 {
                    problems.append(
                        "\(entity.name).\(constraint.joined(separator: "+")): the new uniqueness constraint cannot hold: \(shared) value\(shared == 1 ? " is" : "s are") shared by several objects in the store"
                    )
                }
            }
        }
        return problems
    }

    // MARK: SQL text

    /// The count a `SELECT COUNT(*)` query returns.
    private func count(_ sql: String, in db: some MigrationSQLExecutor) throws -> Int {
        Int(try db.integer(sql) ?? 0)
    }

    /// "1 object", "3 objects".
    static func objects(_ count: Int) -> String { count == 1 ? "1 object" : "\(count) objects" }

    /// `value` as an SQL literal, stored as the store stores it (a decimal as its exact text).
    static func literal(_ value: Value) -> String {
        switch value.sqlValue {
        case .null: "NULL"
        case .integer(let int): String(int)
        case .real(let double): double.isFinite ? "\(double)" : (double > 0 ? "9e999" : "-9e999")
        case .text(let string): quoted(string)
        case .decimal(let decimal): quoted(decimal.description)
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// `string` as an SQL string literal.
    private static func quoted(_ string: String) -> String {
        "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `value` as a literal of the mapping's dialect.
    func literal(_ value: Value) -> String {
        dialect.literal(value) ?? Self.literal(value)
    }
}
