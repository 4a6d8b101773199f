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
    /// Join tables, by "Entity.relationship" of the owning side.
    private(set) var joinTables: [String: JoinTable] = [:]
    /// Order columns of ordered one-to-many relationships, by "Entity.relationship" (to-many side).
    private(set) var orderColumns: [String: String] = [:]
    /// Entity names by `Z_ENT` code.
    private(set) var entityNames: [Int: String] = [:]

    init(model: ManagedObjectModel) {
        let entities = model.entities
        for entity in entities { entityNames[entity.entityCode] = entity.name }
        let roots = entities.filter { $0.superentity == nil }
        for root in roots {
            let table = "Z" + root.name.uppercased()
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
        // Relationships stored outside their own entity's row.
        for entity in entities {
            for case let relationship as RelationshipDescription in entity.properties where relationship.isToMany && !relationship.isTransient {
                let key = "\(entity.name).\(relationship.name)"
                if relationship.usesJoinTable {
                    guard relationship.ownsJoinTable else { continue }
                    let name = "Z_\(entity.entityCode)" + relationship.name.uppercased()
                    joinTables[key] = JoinTable(
                        name: name,
                        sourceOrdered: relationship.isOrdered,
                        destinationOrdered: relationship.inverseRelationship?.isOrdered ?? false
                    )
                } else if relationship.isOrdered, let inverse = relationship.inverseRelationship,
                    let destination = relationship.destinationEntity
                {
                    let tableName = "Z" + destination.rootEntity.name.uppercased()
                    let column = "Z_FOK_" + inverse.name.uppercased()
                    tables[tableName]?.columns.append((column, "INTEGER"))
                    orderColumns[key] = column
                }
            }
        }
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

    /// The join table of a to-many relationship (either side), and whether `relationship` is
    /// its owning side.
    func joinTable(for relationship: RelationshipDescription) -> (JoinTable, owner: Bool)? {
        let owner = relationship.joinTableOwner
        guard let entity = owner.entity, let table = joinTables["\(entity.name).\(owner.name)"] else { return nil }
        return (table, owner === relationship)
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
