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

    /// A join table for a to-many relationship whose inverse is not to-one, named from its
    /// owning side (Core Data: `Z_<n><REL>`, `n` the owner's entity number).
    struct JoinTable: Sendable {
        let name: String
        /// The tables of the owning side's entity and of its destination (their roots').
        let sourceTable: String
        let destinationTable: String
        /// The column holding the owning side's primary keys (Core Data: `Z_<n><INVERSE>`).
        let sourceColumn: String
        /// The column holding the members' primary keys (Core Data: `Z_<m><REL>`).
        let destinationColumn: String
        /// The order of the owning side's members, for an ordered owning relationship (Core
        /// Data: `Z_FOK_<m><REL>`).
        let sourceOrderColumn: String?
        /// The order of the inverse side's members, for an ordered inverse.
        let destinationOrderColumn: String?

        /// Whether the owning side's members are ordered.
        var sourceOrdered: Bool { sourceOrderColumn != nil }
        /// Whether the inverse side's members are ordered.
        var destinationOrdered: Bool { destinationOrderColumn != nil }

        /// Seen from one side: the column holding that side's objects, the column holding
        /// their members, and the members' order column (`nil` when that side is unordered).
        func columns(isOwner: Bool) -> (mine: String, theirs: String, order: String?) {
            isOwner ? (sourceColumn, destinationColumn, sourceOrderColumn) : (destinationColumn, sourceColumn, destinationOrderColumn)
        }
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

    /// The layout the schema spells.
    let layout: StoreLayout

    /// The schema of `model` in `layout`. For a store that exists, `existingTables` (its tables'
    /// names) decides which side of a many-to-many relationship names its join table where the
    /// rule and the file disagree: the file's table is the one read and written (see
    /// ``joinTableOwners(of:layout:existingTables:)``).
    ///
    /// `existingJoinColumns` (a store's join tables' columns, by table) keeps the members' column
    /// of a relationship that is its own inverse where an earlier ObjectGraph put it
    /// (`Z_<n><REL>1`) when the file has no `REFLEXIVE` column yet.
    init(
        model: ManagedObjectModel,
        layout: StoreLayout,
        existingTables: Set<String>? = nil,
        existingJoinColumns: [String: Set<String>] = [:]
    ) {
        self.layout = layout
        let entities = model.entities
        for entity in entities { entityNames[entity.entityCode] = entity.name }
        let roots = entities.filter { $0.superentity == nil }
        for root in roots {
            let table = Self.tableName(of: root)
            var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var definitions: [(name: String, definition: String, group: Int)] = []
            var indexes: [String] = []
            /// Adds a column named `base` (numbered on a clash: `ZNAME1`, `ZNAME2`, …).
            func column(_ base: String, _ definition: String, group: Int) -> String {
                var candidate = base
                var suffix = 1
                while used.contains(candidate) {
                    candidate = base + String(suffix)
                    suffix += 1
                }
                used.insert(candidate)
                definitions.append((candidate, definition, group))
                return candidate
            }
            let tree = Self.treeOrder(entities.filter { $0.rootEntity === root }, layout: layout)
            for entity in tree {
                var columns = entity.superentity.flatMap { mappings[$0.name]?.columns } ?? [:]
                var entityColumns = entity.superentity.flatMap { mappings[$0.name]?.entityColumns } ?? [:]
                for property in Self.storedProperties(of: entity, layout: layout) {
                    let slot = property.slot
                    switch property {
                    case let attribute as AttributeDescription:
                        let type = attribute.attributeType
                        columns[slot] = column(
                            "Z" + attribute.name.uppercased(),
                            Self.columnDefinition(type, layout: layout),
                            group: Self.columnGroup(type)
                        )
                        if attribute.isIndexed { indexes.append(columns[slot]!) }
                    case let relationship as RelationshipDescription where !relationship.isToMany:
                        let name = column("Z" + relationship.name.uppercased(), "INTEGER", group: 0)
                        columns[slot] = name
                        indexes.append(name)
                        if let destination = relationship.destinationEntity, !destination.subentities.isEmpty || destination.isAbstract {
                            entityColumns[slot] = column(
                                layout == .coreData
                                    ? "Z\(destination.entityCode)_" + relationship.name.uppercased()
                                    : "Z" + relationship.name.uppercased() + "_ENT",
                                "INTEGER",
                                group: 0
                            )
                        }
                        // Core Data keeps an ordered one-to-many's order beside the to-one.
                        if layout == .coreData, let inverse = relationship.inverseRelationship, inverse.isToMany, inverse.isOrdered,
                            !inverse.isTransient
                        {
                            _ = column("Z_FOK_" + name.dropFirst(), "INTEGER", group: 0)
                        }
                    default:
                        break
                    }
                }
                mappings[entity.name] = EntityMapping(entityName: entity.name, table: table, columns: columns, entityColumns: entityColumns)
            }
            if tree.count > 1 { indexes.append("Z_ENT") }
            // Core Data orders a table's columns by type: integers, reals, decimals, strings,
            // blobs (each group in entity and property order).
            let ordered = layout == .coreData ? Self.stableSorted(definitions) { $0.group < $1.group } : definitions
            tables[table] = Table(name: table, columns: ordered.map { ($0.name, $0.definition) }, indexes: indexes)
        }
        // Relationships stored outside their own entity's row: join tables first (named by
        // their owning side), then where each to-many side finds its members.
        let toManyRelationships = entities.sorted { $0.entityCode < $1.entityCode }.flatMap { entity in
            entity.properties.compactMap { $0 as? RelationshipDescription }.filter { $0.isToMany && !$0.isTransient }
                .sorted { $0.name < $1.name }
        }
        let owners = Self.joinTableOwners(of: toManyRelationships, layout: layout, existingTables: existingTables)
        /// Whether this side of a join table writes it and names it.
        func ownsJoinTable(_ relationship: RelationshipDescription) -> Bool {
            relationship.inverseRelationship == nil || owners.contains(RelationshipKey(relationship))
        }
        var joinColumns: Set<String> = []
        /// A join table column named `base`, numbered on a clash with any other join table's.
        func joinColumn(_ base: String) -> String {
            guard layout == .coreData else { return base }
            var candidate = base
            var suffix = 1
            while joinColumns.contains(candidate) {
                candidate = base + String(suffix)
                suffix += 1
            }
            joinColumns.insert(candidate)
            return candidate
        }
        for relationship in toManyRelationships
        where Self.usesJoinTable(relationship) && ownsJoinTable(relationship) {
            guard let entity = relationship.entity, let destination = relationship.destinationEntity else { continue }
            let inverse = relationship.inverseRelationship
            let sourceColumn: String
            let destinationColumn: String
            var sourceOrderColumn: String?
            var destinationOrderColumn: String?
            switch layout {
            case .coreData where inverse === relationship:
                // Its own inverse (a symmetric `friends`): both of Core Data's column names
                // would be `Z_<n><REL>`, and Core Data names the members' column `REFLEXIVE`.
                // Each pair is a row from each side, as each side's members are.
                sourceColumn = joinColumn("Z_\(entity.entityCode)" + relationship.name.uppercased())
                let legacy = Self.legacyReflexiveColumn(of: sourceColumn)
                let existing = existingJoinColumns[Self.joinTableName(of: relationship)] ?? []
                destinationColumn = existing.contains(legacy) && !existing.contains(Self.reflexiveColumn) ? legacy : Self.reflexiveColumn
                if relationship.isOrdered {
                    sourceOrderColumn = "Z_FOK_" + destinationColumn.replacingOccurrences(of: "Z_", with: "")
                    destinationOrderColumn = "Z_FOK_" + sourceColumn.dropFirst(2)
                }
            case .coreData:
                let inverseName = inverse?.name ?? relationship.name + "Inverse"
                sourceColumn = joinColumn("Z_\(entity.entityCode)" + inverseName.uppercased())
                destinationColumn = joinColumn("Z_\((inverse?.entity ?? destination).entityCode)" + relationship.name.uppercased())
                if relationship.isOrdered { sourceOrderColumn = "Z_FOK_" + destinationColumn.dropFirst(2) }
                if inverse?.isOrdered == true { destinationOrderColumn = "Z_FOK_" + sourceColumn.dropFirst(2) }
            case .objectGraph:
                sourceColumn = "Z_SOURCE"
                destinationColumn = "Z_DESTINATION"
                if relationship.isOrdered { sourceOrderColumn = "Z_FOK_SOURCE" }
                if inverse?.isOrdered == true { destinationOrderColumn = "Z_FOK_DESTINATION" }
            }
            joinTables[RelationshipKey(relationship)] = JoinTable(
                name: Self.joinTableName(of: relationship),
                sourceTable: Self.tableName(of: entity),
                destinationTable: Self.tableName(of: destination),
                sourceColumn: sourceColumn,
                destinationColumn: destinationColumn,
                sourceOrderColumn: sourceOrderColumn,
                destinationOrderColumn: destinationOrderColumn
            )
        }
        for relationship in toManyRelationships {
            let key = RelationshipKey(relationship)
            if Self.usesJoinTable(relationship) {
                let isOwner = ownsJoinTable(relationship)
                let owner = isOwner ? relationship : relationship.inverseRelationship!
                if let table = joinTables[RelationshipKey(owner)] { toMany[key] = .joinTable(table, isOwner: isOwner) }
            } else if let inverse = relationship.inverseRelationship, let owner = inverse.entity,
                let column = mappings[owner.name]?.columns[inverse.slot], let destination = relationship.destinationEntity
            {
                let table = Self.tableName(of: destination)
                var orderColumn: String?
                if relationship.isOrdered {
                    switch layout {
                    case .coreData:
                        // Added beside the to-one column when the table was laid out.
                        orderColumn = "Z_FOK_" + column.dropFirst()
                    case .objectGraph:
                        orderColumn = "Z_FOK_" + inverse.name.uppercased()
                        tables[table]?.columns.append((orderColumn!, "INTEGER"))
                    }
                }
                toMany[key] = .foreignKey(table: table, column: column, orderColumn: orderColumn)
            }
        }
    }

    /// The entities of one inheritance tree in the order their columns are laid out: Core
    /// Data's entity numbers (each parent before its subentities), or, in ObjectGraph's
    /// former layout, by depth then name.
    private static func treeOrder(_ tree: [EntityDescription], layout: StoreLayout) -> [EntityDescription] {
        switch layout {
        case .coreData:
            return tree.sorted { $0.entityCode < $1.entityCode }
        case .objectGraph:
            func depth(_ entity: EntityDescription) -> Int { entity.superentity.map { depth($0) + 1 } ?? 0 }
            return tree.sorted { depth($0) == depth($1) ? $0.name < $1.name : depth($0) < depth($1) }
        }
    }

    /// An entity's own stored properties in column order: Core Data's (attributes by name,
    /// then relationships by name), or the model's in ObjectGraph's former layout.
    private static func storedProperties(of entity: EntityDescription, layout: StoreLayout) -> [PropertyDescription] {
        let stored = entity.properties.filter { !$0.isTransient }
        guard layout == .coreData else { return stored }
        let attributes = stored.filter { $0 is AttributeDescription }.sorted { $0.name < $1.name }
        let relationships = stored.filter { $0 is RelationshipDescription }.sorted { $0.name < $1.name }
        return attributes + relationships
    }

    /// `elements` sorted by `areInIncreasingOrder`, equal elements kept in their order.
    private static func stableSorted<T>(_ elements: [T], by areInIncreasingOrder: (T, T) -> Bool) -> [T] {
        elements.enumerated().sorted { a, b in
            areInIncreasingOrder(a.element, b.element) || (!areInIncreasingOrder(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
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

    /// Whether `relationship` names its join table by the layout's rule, before any file is
    /// consulted. Core Data names a join table `Z_<n><REL>` from the relationship it set up
    /// first: the ordered side when only one side is ordered (DuckDuckGo's bookmarks:
    /// `Z_1FAVORITES` from the ordered `favorites`, not from its inverse `favoriteFolders`;
    /// Photos' `Z_26ASSETS` from the albums' ordered `assets`, entity 26, to assets, entity 3);
    /// otherwise the side whose entity number is lower (Bear's `Z_5TAGS` from notes, 5, to tags,
    /// 13), and within one entity the relationship whose name sorts first. ObjectGraph's former
    /// layout names it from the side whose "Entity.relationship" sorts first.
    static func namesJoinTable(_ relationship: RelationshipDescription, layout: StoreLayout) -> Bool {
        guard usesJoinTable(relationship), let inverse = relationship.inverseRelationship else { return true }
        switch layout {
        case .coreData:
            if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
            let mine = relationship.entity?.entityCode ?? 0
            let theirs = inverse.entity?.entityCode ?? 0
            return mine == theirs ? relationship.name <= inverse.name : mine < theirs
        case .objectGraph:
            return "\(relationship.entity?.name ?? "").\(relationship.name)" <= "\(inverse.entity?.name ?? "").\(inverse.name)"
        }
    }

    /// The side of each many-to-many pair that names and writes its join table: by
    /// ``namesJoinTable(_:layout:)``, unless `existingTables` (a store's tables) has the table
    /// by the other side's name and not by the rule's, when the file wins — the store was
    /// written by a Core Data that met the relationships in another order, or by an earlier
    /// ObjectGraph with another rule, and its join table is read and written where it is.
    static func joinTableOwners(
        of relationships: [RelationshipDescription],
        layout: StoreLayout,
        existingTables: Set<String>?
    ) -> Set<RelationshipKey> {
        var owners: Set<RelationshipKey> = []
        for relationship in relationships where usesJoinTable(relationship) {
            guard let inverse = relationship.inverseRelationship else { continue }
            var owns = namesJoinTable(relationship, layout: layout)
            if let existingTables, inverse !== relationship {
                let ruleTable = joinTableName(of: owns ? relationship : inverse)
                let otherTable = joinTableName(of: owns ? inverse : relationship)
                if !existingTables.contains(ruleTable) && existingTables.contains(otherTable) { owns.toggle() }
            }
            if owns { owners.insert(RelationshipKey(relationship)) }
        }
        return owners
    }

    /// The members' column of a relationship that is its own inverse, as Core Data names it.
    static let reflexiveColumn = "REFLEXIVE"

    /// The members' column an earlier ObjectGraph gave a relationship that is its own inverse:
    /// its source column's name, numbered.
    static func legacyReflexiveColumn(of sourceColumn: String) -> String { sourceColumn + "1" }

    /// The statements that move the members of each relationship that is its own inverse from
    /// the column an earlier ObjectGraph named to Core Data's `REFLEXIVE`, for a store whose join
    /// tables have `existingJoinColumns`; empty when there is nothing to move. The table is made
    /// anew rather than altered, so its `CREATE` text is Core Data's to the letter.
    func reflexiveColumnRenames(existingJoinColumns: [String: Set<String>]) -> [String] {
        joinTables.values.sorted { $0.name < $1.name }.flatMap { table -> [String] in
            let legacy = Self.legacyReflexiveColumn(of: table.sourceColumn)
            guard layout == .coreData, table.destinationColumn == legacy,
                existingJoinColumns[table.name]?.contains(legacy) == true
            else { return [] }
            let renamed = JoinTable(
                name: table.name,
                sourceTable: table.sourceTable,
                destinationTable: table.destinationTable,
                sourceColumn: table.sourceColumn,
                destinationColumn: Self.reflexiveColumn,
                sourceOrderColumn: table.sourceOrderColumn.map { _ in "Z_FOK_" + Self.reflexiveColumn },
                destinationOrderColumn: table.destinationOrderColumn
            )
            let former = table.name + "_OBJECTGRAPH_FORMER"
            let from = [table.sourceColumn, table.destinationColumn] + [table.sourceOrderColumn, table.destinationOrderColumn].compactMap { $0 }
            let to = [renamed.sourceColumn, renamed.destinationColumn]
                + [renamed.sourceOrderColumn, renamed.destinationOrderColumn].compactMap { $0 }
            return ["DROP INDEX IF EXISTS \(table.name)_\(legacy)_INDEX", "ALTER TABLE \(table.name) RENAME TO \(former)"]
                + Self.coreDataCreationSQL(of: renamed).prefix(1)
                + [
                    "INSERT INTO \(table.name) (\(to.joined(separator: ", "))) SELECT \(from.joined(separator: ", ")) FROM \(former)",
                    "DROP TABLE \(former)",
                ]
                + Self.coreDataCreationSQL(of: renamed).suffix(1)
        }
    }

    /// The join table `relationship` names when it owns one: `Z_<n><REL>`, `n` its entity's number.
    static func joinTableName(of relationship: RelationshipDescription) -> String {
        "Z_\(relationship.entity?.entityCode ?? 0)" + relationship.name.uppercased()
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
            if joinTable.sourceTable == table { statements.append("DELETE FROM \(joinTable.name) WHERE \(joinTable.sourceColumn) = ?") }
            if joinTable.destinationTable == table {
                statements.append("DELETE FROM \(joinTable.name) WHERE \(joinTable.destinationColumn) = ?")
            }
        }
        return statements
    }

    /// The type of an attribute's column: Core Data's spelling (`VARCHAR`, `TIMESTAMP`,
    /// `FLOAT`, `BLOB`, …), or SQLite's in ObjectGraph's former layout; decimals are exact text
    /// ordered by a numeric collation in both.
    static func columnDefinition(_ type: AttributeType, layout: StoreLayout) -> String {
        switch (layout, type) {
        case (.coreData, .string), (.coreData, .uri): "VARCHAR"
        case (.coreData, .date): "TIMESTAMP"
        case (.coreData, .double), (.coreData, .float): "FLOAT"
        case (.objectGraph, .string), (.objectGraph, .uri): "TEXT"
        case (.objectGraph, .double), (.objectGraph, .float), (.objectGraph, .date): "REAL"
        // The one deliberate difference from Core Data, whose `DECIMAL` column turns a decimal
        // into a double: ObjectGraph keeps decimals exact (text in numeric order), so sums and
        // comparisons of money stay exact. Core Data's stores' `DECIMAL` columns read as they are.
        case (_, .decimal): "TEXT COLLATE \(SQLiteFunctions.decimalCollation)"
        case (_, .boolean), (_, .integer16), (_, .integer32), (_, .integer64): "INTEGER"
        case (_, .binaryData), (_, .uuid), (_, .transformable): "BLOB"
        }
    }

    /// Where Core Data puts a column of `type` in its table: integers (and to-one keys) first,
    /// then dates and floating-point numbers, decimals, strings, UUIDs, other blobs (as in the
    /// fixtures' `ZBOOK`: `… ZPRICE DECIMAL, ZTITLE VARCHAR, ZUNIQUEID BLOB, ZCOVER BLOB`).
    private static func columnGroup(_ type: AttributeType) -> Int {
        switch type {
        case .boolean, .integer16, .integer32, .integer64: 0
        case .date, .double, .float: 1
        case .decimal: 2
        case .string, .uri: 3
        case .uuid: 4
        case .binaryData, .transformable: 5
        }
    }
}
