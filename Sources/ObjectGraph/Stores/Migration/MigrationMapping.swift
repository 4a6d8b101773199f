import Foundation

/// How the data of a store laid out for one model moves into the layout of the next, inferred
/// as Core Data infers a lightweight mapping model.
///
/// An entity of the new model takes its rows from the old entity its `renamingIdentifier`
/// (else its name) names; a property takes its values from the old property of the source
/// entity its `renamingIdentifier` (else its name) names. Anything without a source starts
/// empty (attributes get their default value). Relationship members are read from wherever
/// the old layout kept them (a foreign-key column, a destination's column, a join table) as
/// (source, destination, order) pairs, and written wherever the new layout keeps them.
///
/// The mapping only computes names and SQL, in its ``dialect``; ``run(in:handler:)`` executes
/// it on SQLite, ``run(on:creation:handler:)`` wherever an executor runs its statements.
struct MigrationMapping {
    /// The prefix of an old table while a migration runs (its rows are copied from there).
    static let oldTablePrefix = "Z_OLD_"

    let oldModel: ManagedObjectModel
    let newModel: ManagedObjectModel
    let oldSchema: StoreSchema
    let newSchema: StoreSchema
    /// The version names, for messages.
    let sourceVersion: String
    let destinationVersion: String
    /// The dialect of the SQL the mapping writes: SQLite's, or PostgreSQL's for the PostgreSQL
    /// store (quoted identifiers, its literals).
    let dialect: any SQLDialect
    /// The old entity each new entity's rows come from, by new entity name.
    private(set) var sources: [String: EntityDescription] = [:]

    /// The mapping of a store of `oldModel` laid out in `oldLayout` to `newModel` laid out in
    /// `newLayout`.
    init(
        from oldModel: ManagedObjectModel,
        to newModel: ManagedObjectModel,
        sourceVersion: String,
        destinationVersion: String,
        oldLayout: StoreLayout,
        newLayout: StoreLayout,
        dialect: any SQLDialect = SQLiteDialect()
    ) {
        self.dialect = dialect
        self.oldModel = oldModel
        self.newModel = newModel
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        oldSchema = StoreSchema(model: oldModel, layout: oldLayout)
        newSchema = StoreSchema(model: newModel, layout: newLayout)
        for entity in newModel.entities {
            let source = entity.renamingIdentifier.flatMap { oldModel.entity(named: $0) } ?? oldModel.entity(named: entity.name)
            if let source { sources[entity.name] = source }
        }
    }

    /// Whether the two models share no entity: the store then holds another model's data, not
    /// an older version of this one, and is refused rather than emptied.
    var sharesNoEntity: Bool { sources.isEmpty && !oldModel.entities.isEmpty }

    // MARK: Names

    /// The name an old table has while the migration runs.
    func oldTable(_ name: String) -> String { Self.oldTablePrefix + name }

    /// The old table holding `entity`'s rows (an entity of the old model), renamed.
    func oldTable(of entity: EntityDescription) -> String {
        oldTable(oldSchema.mappings[entity.name]?.table ?? "Z" + entity.rootEntity.name.uppercased())
    }

    /// The new table holding `entity`'s rows (an entity of the new model).
    func newTable(of entity: EntityDescription) -> String {
        newSchema.mappings[entity.name]?.table ?? "Z" + entity.rootEntity.name.uppercased()
    }

    /// Every table of the old layout (entity tables and join tables), by their own names.
    var oldTables: [String] {
        (oldSchema.tables.keys.sorted() + oldSchema.joinTables.values.map(\.name).sorted())
    }

    /// `identifier` quoted in the dialect (as it is in SQLite).
    func q(_ identifier: String) -> String { dialect.quoted(identifier) }

    /// A query of no rows with the pair columns; typed, so PostgreSQL can add keys to them.
    var noPairs: String {
        "SELECT CAST(NULL AS BIGINT) AS src, CAST(NULL AS BIGINT) AS dst, CAST(NULL AS BIGINT) AS ord WHERE \(dialect.falseLiteral)"
    }

    /// The old property of `oldEntity` that `property` (of the new model) takes its values from.
    func oldProperty(for property: PropertyDescription, in oldEntity: EntityDescription) -> PropertyDescription? {
        let candidates = [property.renamingIdentifier, property.name].compactMap { $0 }
        for name in candidates {
            if let slot = oldEntity.slotByName[name], !oldEntity.allProperties[slot].isTransient {
                return oldEntity.allProperties[slot]
            }
        }
        return nil
    }

    /// The old column of `slot` of `oldEntity`, quoted and qualified with the alias `o`.
    func oldColumn(_ property: PropertyDescription, of oldEntity: EntityDescription) -> String? {
        guard let slot = oldEntity.slotByName[property.name] else { return nil }
        return oldSchema.mappings[oldEntity.name]?.columns[slot].map { "o." + q($0) }
    }

    /// A SQL list of `codes`.
    static func list(_ codes: [Int]) -> String { codes.map(String.init).joined(separator: ", ") }

    // MARK: Relationship members

    /// One source of a relationship's members in the old layout: a SELECT of `src`, `dst` and
    /// `ord` (the order, or NULL) in old primary keys, and the old tables the keys belong to.
    struct Pairs {
        let sql: String
        let sourceTable: String
        let destinationTable: String
        /// Whether `sql` reads an old to-one column of the source rows directly.
        let directColumn: String?
    }

    /// Every (source, destination, order) pair of `old` (a relationship of the old model).
    func basePairs(_ old: RelationshipDescription) -> String {
        guard let owner = old.entity else { return noPairs }
        if !old.isToMany {
            guard let column = oldSchema.mappings[owner.name]?.columns[old.slot].map(q) else { return noPairs }
            return
                "SELECT \(q("Z_PK")) AS src, \(column) AS dst, CAST(NULL AS BIGINT) AS ord FROM \(q(oldTable(of: owner))) WHERE \(column) IS NOT NULL"
        }
        switch oldSchema.storage(of: old) {
        case .foreignKey(let table, let column, let orderColumn):
            return
                "SELECT \(q(column)) AS src, \(q("Z_PK")) AS dst, \(orderColumn.map(q) ?? "CAST(NULL AS BIGINT)") AS ord FROM \(q(oldTable(table))) WHERE \(q(column)) IS NOT NULL"
        case .joinTable(let table, let isOwner):
            let (mine, theirs, order) = table.columns(isOwner: isOwner)
            return "SELECT \(q(mine)) AS src, \(q(theirs)) AS dst, \(order.map(q) ?? "CAST(NULL AS BIGINT)") AS ord FROM \(q(oldTable(table.name)))"
        case nil:
            return noPairs
        }
    }

    /// Where the members of `relationship` (of the new model) for objects of new entity `entity`
    /// come from: the old relationship it maps to, else the old inverse read backwards.
    func pairs(of relationship: RelationshipDescription, for entity: EntityDescription) -> [Pairs] {
        guard let oldEntity = sources[entity.name], let destination = relationship.destinationEntity else { return [] }
        let ownRows = "src IN (SELECT \(q("Z_PK")) FROM \(q(oldTable(of: oldEntity))) WHERE \(q("Z_ENT")) = \(oldEntity.entityCode))"
        if let old = oldProperty(for: relationship, in: oldEntity) as? RelationshipDescription, let oldDestination = old.destinationEntity {
            let direct = old.isToMany ? nil : oldColumn(old, of: oldEntity)
            return [
                Pairs(
                    sql: "SELECT src, dst, ord FROM (\(basePairs(old))) AS b WHERE \(ownRows)",
                    sourceTable: oldTable(of: oldEntity),
                    destinationTable: oldTable(of: oldDestination),
                    directColumn: direct
                )
            ]
        }
        guard let inverse = relationship.inverseRelationship else { return [] }
        return newModel.entities.filter { $0.isKindOf(entity: destination) }.compactMap { member in
            guard let oldMember = sources[member.name],
                let oldInverse = oldProperty(for: inverse, in: oldMember) as? RelationshipDescription,
                let target = oldInverse.destinationEntity, oldEntity.isKindOf(entity: target)
            else { return nil }
            return Pairs(
                sql: """
                    SELECT dst AS src, src AS dst, CAST(NULL AS BIGINT) AS ord FROM (\(basePairs(oldInverse))) AS b \
                    WHERE src IN (SELECT \(q("Z_PK")) FROM \(q(oldTable(of: oldMember))) WHERE \(q("Z_ENT")) = \(oldMember.entityCode)) \
                    AND dst IN (SELECT \(q("Z_PK")) FROM \(q(oldTable(of: oldEntity))) WHERE \(q("Z_ENT")) = \(oldEntity.entityCode))
                    """,
                sourceTable: oldTable(of: oldEntity),
                destinationTable: oldTable(of: oldMember),
                directColumn: nil
            )
        }
    }

    /// The CASE expression turning an old entity code in `column` (an SQL expression) into the new one.
    func entityCodeMapping(_ column: String) -> String {
        let cases = newModel.entities.compactMap { entity in
            sources[entity.name].map { "WHEN \($0.entityCode) THEN \(entity.entityCode)" }
        }
        return cases.isEmpty ? "NULL" : "CASE \(column) \(cases.joined(separator: " ")) END"
    }
}
