import Foundation

/// How a model is laid out in SQLite, as Core Data lays it out: one table per inheritance tree
/// (`ZPHOTO`, with `Z_PK`, `Z_ENT`, `Z_OPT` and a `Z…` column per stored property), to-one
/// relationships as foreign-key columns, many-to-many relationships as join tables.
struct StoreSchema: Sendable {
    /// Where an entity's values live.
    struct EntityMapping: Sendable {
        let entityName: String
        let table: String
        /// The column of each stored slot (attributes and to-one relationships).
        let columns: [Int: String]
        /// For to-one relationships into an inheritance tree: the column holding the
        /// destination's entity code.
        let entityColumns: [Int: String]
    }

    /// A join table for a to-many relationship whose inverse is not to-one.
    struct JoinTable: Sendable {
        let name: String
        /// The tables of the owning side's entity and of its destination (their roots').
        let sourceTable: String
        let destinationTable: String
        /// Ordering of the owning side's members (ordered relationships).
        let sourceOrdered: Bool
        /// Ordering of the inverse side's members.
        let destinationOrdered: Bool
    }

    struct Table: Sendable {
        let name: String
        /// Column definitions after `Z_PK`, `Z_ENT`, `Z_OPT`.
        var columns: [(name: String, definition: String)]
        var indexes: [String]
    }

    private(set) var mappings: [String: EntityMapping] = [:]
    private(set) var tables: [String: Table] = [:]
    /// Where a to-many relationship's members are stored.
    enum ToManyStorage: Sendable {
        /// In a join table, whose `Z_SOURCE` side is the relationship when `isOwner`.
        case joinTable(JoinTable, isOwner: Bool)
        /// In the destination's foreign-key `column` back to the source (the inverse is to-one),
        /// in `table`; ordered by `orderColumn` for an ordered relationship.
        case foreignKey(table: String, column: String, orderColumn: String?)
    }

    /// Join tables, by the owning side's relationship.
    private(set) var joinTables: [RelationshipKey: JoinTable] = [:]
    /// The storage of every stored to-many relationship, by relationship.
    private(set) var toMany: [RelationshipKey: ToManyStorage] = [:]
    /// Entity names by `Z_ENT` code.
    private(set) var entityNames: [Int: String] = [:]

    init(model: ManagedObjectModel) {
        let entities = model.entities
        for entity in entities { entityNames[entity.entityCode] = entity.name }
        let roots = entities.filter { $0.superentity == nil }
        for root in roots {
            let table = Self.tableName(of: root)
            var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var definitions: [(String, String)] = []
            var indexes: [String] = []
            func column(for name: String, _ definition: String) -> String {
                var candidate = "Z" + name.uppercased()
                var suffix = 1
                while used.contains(candidate) {
                    candidate = "Z" + name.uppercased() + String(suffix)
                    suffix += 1
                }
                used.insert(candidate)
                definitions.append((candidate, definition))
                return candidate
            }
            let tree = entities.filter { $0.rootEntity === root }.sorted { depth($0) == depth($1) ? $0.name < $1.name : depth($0) < depth($1) }
            for entity in tree {
                var columns = entity.superentity.flatMap { mappings[$0.name]?.columns } ?? [:]
                var entityColumns = entity.superentity.flatMap { mappings[$0.name]?.entityColumns } ?? [:]
                for property in entity.properties where !property.isTransient {
                    let slot = property.slot
                    switch property {
                    case let attribute as AttributeDescription:
                        columns[slot] = column(for: attribute.name, Self.columnDefinition(attribute.attributeType))
                        if attribute.isIndexed { indexes.append(columns[slot]!) }
                    case let relationship as RelationshipDescription where !relationship.isToMany:
                        let name = column(for: relationship.name, "INTEGER")
                        columns[slot] = name
                        indexes.append(name)
                        if let destination = relationship.destinationEntity, !destination.subentities.isEmpty || destination.isAbstract {
                            entityColumns[slot] = column(for: relationship.name + "_ENT", "INTEGER")
                        }
                    default:
                        break
                    }
                }
                mappings[entity.name] = EntityMapping(entityName: entity.name, table: table, columns: columns, entityColumns: entityColumns)
            }
            if tree.count > 1 { indexes.append("Z_ENT") }
            tables[table] = Table(name: table, columns: definitions, indexes: indexes)
        }
        // Relationships stored outside their own entity's row: join tables first (named by
        // their owning side), then where each to-many side finds its members.
        let toManyRelationships = entities.flatMap { entity in
            entity.properties.compactMap { $0 as? RelationshipDescription }.filter { $0.isToMany && !$0.isTransient }
        }
        for relationship in toManyRelationships where Self.usesJoinTable(relationship) && Self.ownsJoinTable(relationship) {
            guard let entity = relationship.entity, let destination = relationship.destinationEntity else { continue }
            joinTables[RelationshipKey(relationship)] = JoinTable(
                name: "Z_\(entity.entityCode)" + relationship.name.uppercased(),
                sourceTable: Self.tableName(of: entity),
                destinationTable: Self.tableName(of: destination),
                sourceOrdered: relationship.isOrdered,
                destinationOrdered: relationship.inverseRelationship?.isOrdered ?? false
            )
        }
        for relationship in toManyRelationships {
            let key = RelationshipKey(relationship)
            if Self.usesJoinTable(relationship) {
                let isOwner = Self.ownsJoinTable(relationship)
                let owner = isOwner ? relationship : relationship.inverseRelationship!
                if let table = joinTables[RelationshipKey(owner)] { toMany[key] = .joinTable(table, isOwner: isOwner) }
            } else if let inverse = relationship.inverseRelationship, let owner = inverse.entity,
                let column = mappings[owner.name]?.columns[inverse.slot], let destination = relationship.destinationEntity
            {
                let table = Self.tableName(of: destination)
                var orderColumn: String?
                if relationship.isOrdered {
                    orderColumn = "Z_FOK_" + inverse.name.uppercased()
                    tables[table]?.columns.append((orderColumn!, "INTEGER"))
                }
                toMany[key] = .foreignKey(table: table, column: column, orderColumn: orderColumn)
            }
        }
    }

    /// The table of `entity`'s inheritance tree.
    private static func tableName(of entity: EntityDescription) -> String {
        "Z" + entity.rootEntity.name.uppercased()
    }

    /// Whether a to-many relationship is stored in a join table: its inverse is not to-one.
    private static func usesJoinTable(_ relationship: RelationshipDescription) -> Bool {
        guard relationship.isToMany else { return false }
        guard let inverse = relationship.inverseRelationship else { return true }
        return inverse.isToMany
    }

    /// Whether this side of a join table writes it (the other side only mirrors it): the side
    /// whose "Entity.relationship" sorts first.
    private static func ownsJoinTable(_ relationship: RelationshipDescription) -> Bool {
        guard usesJoinTable(relationship), let inverse = relationship.inverseRelationship else { return true }
        return "\(relationship.entity?.name ?? "").\(relationship.name)" <= "\(inverse.entity?.name ?? "").\(inverse.name)"
    }

    /// Where the members of to-many `relationship` are stored; `nil` for a to-one or transient one.
    func storage(of relationship: RelationshipDescription) -> ToManyStorage? {
        toMany[RelationshipKey(relationship)]
    }

    /// The statements deleting the join rows of an object of `entity`, on either side.
    func joinRowDeletes(for entity: EntityDescription) -> [String] {
        let table = Self.tableName(of: entity)
        var statements: [String] = []
        for joinTable in joinTables.values.sorted(by: { $0.name < $1.name }) {
            if joinTable.sourceTable == table { statements.append("DELETE FROM \(joinTable.name) WHERE Z_SOURCE = ?") }
            if joinTable.destinationTable == table { statements.append("DELETE FROM \(joinTable.name) WHERE Z_DESTINATION = ?") }
        }
        return statements
    }

    private func depth(_ entity: EntityDescription) -> Int { entity.superentity.map { depth($0) + 1 } ?? 0 }

    static func columnDefinition(_ type: AttributeType) -> String {
        switch type {
        case .string, .uri: "TEXT"
        case .boolean, .integer16, .integer32, .integer64: "INTEGER"
        case .double, .float, .date: "REAL"
        case .decimal: "TEXT COLLATE \(SQLiteFunctions.decimalCollation)"
        case .binaryData, .uuid, .transformable: "BLOB"
        }
    }

    /// The statements that create the schema (idempotent).
    func creationSQL(model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER NOT NULL", "Z_OPT INTEGER NOT NULL"]
                + table.columns.map { "\($0.name) \($0.definition)" }
            sql.append("CREATE TABLE IF NOT EXISTS \(table.name) (\(columns.joined(separator: ", ")))")
            for column in table.indexes {
                sql.append("CREATE INDEX IF NOT EXISTS \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
            }
        }
        for table in joinTables.values.sorted(by: { $0.name < $1.name }) {
            var columns = ["Z_SOURCE INTEGER NOT NULL", "Z_DESTINATION INTEGER NOT NULL"]
            if table.sourceOrdered { columns.append("Z_FOK_SOURCE INTEGER") }
            if table.destinationOrdered { columns.append("Z_FOK_DESTINATION INTEGER") }
            columns.append("PRIMARY KEY (Z_SOURCE, Z_DESTINATION)")
            sql.append("CREATE TABLE IF NOT EXISTS \(table.name) (\(columns.joined(separator: ", "))) WITHOUT ROWID")
            sql.append("CREATE INDEX IF NOT EXISTS \(table.name)_DESTINATION_INDEX ON \(table.name) (Z_DESTINATION, Z_SOURCE)")
        }
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = mappings[entity.name] else { continue }
            let filter = entity.superentity == nil ? "" : " WHERE Z_ENT IN (\(entity.fetchableEntityCodes.map(String.init).joined(separator: ", ")))"
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                let columns = constraint.compactMap { entity.slotByName[$0].flatMap { mapping.columns[$0] } }
                guard columns.count == constraint.count else { continue }
                sql.append(
                    "CREATE UNIQUE INDEX IF NOT EXISTS \(mapping.table)_\(entity.name.uppercased())_UNIQUE\(number) ON \(mapping.table) (\(columns.joined(separator: ", ")))\(filter)"
                )
            }
            for index in entity.indexes {
                let columns = index.elements.compactMap { element in
                    entity.slotByName[element.propertyName].flatMap { mapping.columns[$0] }.map { "\($0) \(element.isAscending ? "ASC" : "DESC")" }
                }
                guard !columns.isEmpty else { continue }
                let name = index.name.filter { $0.isLetter || $0.isNumber || $0 == "_" }
                sql.append("CREATE INDEX IF NOT EXISTS \(mapping.table)_\(name)_INDEX ON \(mapping.table) (\(columns.joined(separator: ", ")))")
            }
        }
        return sql
    }
}
