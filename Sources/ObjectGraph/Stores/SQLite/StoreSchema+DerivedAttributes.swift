import Foundation

/// The triggers that keep derived attributes, as Core Data creates them.
///
/// Core Data keeps a derived attribute that counts a to-many relationship (`count:(pages)`,
/// `pages.@count`) with triggers on both tables: the count follows every insert, move and
/// delete of a member, whoever writes it (a context's save, a batch request, another
/// process), and each trigger reports the new value (see `DerivedAttributeLog`). A store this
/// library creates gets the same triggers, under Core Data's names, so it behaves as one Core
/// Data created. Other derivations are kept as text and not evaluated (the model's import
/// report says so).
extension StoreSchema {
    /// The `CREATE TRIGGER` statements for the derived attributes of `model` that the store
    /// keeps (idempotent).
    func derivedAttributeTriggers(model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = mappings[entity.name] else { continue }
            for attribute in entity.attributesByName.values.sorted(by: { $0.name < $1.name }) {
                // An inherited attribute's triggers are its own entity's.
                guard attribute.entity === entity, let derivation = attribute.derivationExpression,
                    let relationship = Self.countedRelationship(derivation, of: entity),
                    case .foreignKey(let memberTable, let foreignKey, _)? = storage(of: relationship),
                    let slot = entity.slotByName[attribute.name], let column = mapping.columns[slot]
                else { continue }
                // The count as the members say, for rows that are there already (a migration
                // adding the attribute, or copying rows before the triggers exist).
                sql.append(
                    "UPDATE \(mapping.table) SET \(column) = (SELECT COUNT(\(foreignKey)) FROM \(memberTable) WHERE \(foreignKey) = \(mapping.table).Z_PK)\(Self.entityFilter(entity))"
                )
                sql += Self.countTriggers(
                    table: mapping.table,
                    entity: entity.name,
                    attribute: attribute.name,
                    column: column,
                    memberTable: memberTable,
                    foreignKey: foreignKey
                )
            }
        }
        return sql
    }

    /// Whether `statement` is one of ``derivedAttributeTriggers(model:)``: a migration runs
    /// them once the rows are copied and the old tables (with their triggers) dropped.
    static func isDerivedAttributeStatement(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_") || statement.hasPrefix("UPDATE ")
    }

    /// ` WHERE Z_ENT IN (…)` for an entity sharing its table with others; empty otherwise.
    private static func entityFilter(_ entity: EntityDescription) -> String {
        entity.superentity == nil && entity.subentities.isEmpty
            ? "" : " WHERE Z_ENT IN (\(entity.fetchableEntityCodes.map(String.init).joined(separator: ", ")))"
    }

    /// The key a derivation counts (`pages` of `count:(pages)` or `pages.@count`), if that is
    /// what it does.
    static func countedKey(_ derivation: String) -> String? {
        guard let node = try? FetchPredicate(parsing: "\(derivation) == nil").node, case .comparison(let comparison) = node else { return nil }
        var counted = comparison.lhs
        if case .function(.count, let arguments) = counted, arguments.count == 1 { counted = .aggregate(arguments[0], .count) }
        guard case .aggregate(.keyPath(.evaluatedObject, let name), .count) = counted else { return nil }
        return name
    }

    /// The to-many relationship of `entity` a derivation counts, if that is what it does.
    static func countedRelationship(_ derivation: String, of entity: EntityDescription) -> RelationshipDescription? {
        guard let name = countedKey(derivation), let relationship = entity.relationshipsByName[name], relationship.isToMany,
            !relationship.isTransient
        else { return nil }
        return relationship
    }

    /// Core Data's five triggers for a count of the members whose `foreignKey` (in
    /// `memberTable`) names a row of `table`.
    private static func countTriggers(
        table: String,
        entity: String,
        attribute: String,
        column: String,
        memberTable: String,
        foreignKey: String
    ) -> [String] {
        let prefix = "Z_DA_\(memberTable)_\(entity)_\(attribute)_PARAMETER"
        func report(_ key: String, insert: Bool = false) -> String {
            let function = insert ? "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue" : "NSCoreDataDATriggerUpdatedAffectedObjectValue"
            return "SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table) WHERE Z_PK = \(key);"
        }
        func step(_ key: String, _ change: String) -> String {
            "UPDATE \(table) SET \(column) = \(change) WHERE Z_PK = \(key); \(report(key))"
        }
        return [
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(step("NEW.\(foreignKey)", "IFNULL(\(column), 0) + 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(foreignKey) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(step("NEW.\(foreignKey)", "\(column) + 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(foreignKey) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL) BEGIN \(step("OLD.\(foreignKey)", "\(column) - 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL) BEGIN \(step("OLD.\(foreignKey)", "\(column) - 1")) END",
            "CREATE TRIGGER IF NOT EXISTS Z_DA_\(table)_\(entity)_\(attribute)_SOURCE_INSERT AFTER INSERT ON \(table) FOR EACH ROW BEGIN UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(foreignKey)), 0) FROM \(memberTable) WHERE \(foreignKey) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(report("NEW.Z_PK", insert: true)) END",
        ]
    }
}
