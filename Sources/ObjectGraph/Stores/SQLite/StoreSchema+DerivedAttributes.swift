import Foundation

/// The triggers that keep derived attributes, as Core Data keeps them: in SQL, whoever writes.
///
/// Each ``Derivation`` gets triggers on the tables its value depends on, so the column follows
/// every write (a context's save, a batch request, another process), and each trigger reports
/// the new value (see `DerivedAttributeLog`) for the saving context's objects.
/// - A count of a to-many relationship stored by a foreign key gets Core Data's own five
///   triggers, under Core Data's names, so such a store behaves as one Core Data created.
/// - The other forms (a replicated value, a string function of one, a sum, a count through a
///   join table, `now()`) get triggers named the same way (`Z_DA_<table>_<Entity>_<attribute>_…`)
///   that recompute the value; string functions call `og_lowercase`, `og_uppercase` and
///   `og_fold` (`SQLiteFunctions`), the evaluator's own definitions.
extension StoreSchema {
    /// The statements creating the triggers for the derived attributes of `model`, each
    /// followed by a statement setting the rows already there (idempotent; a derivation the
    /// store cannot keep is left out: ``checkDerivations(of:)`` refuses the model first).
    func derivedAttributeTriggers(model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = mappings[entity.name] else { continue }
            for attribute in entity.attributesByName.values.sorted(by: { $0.name < $1.name }) {
                // An inherited attribute's triggers are its own entity's.
                guard attribute.entity === entity, attribute.derivationExpression != nil,
                    let derivation = try? Derivation(of: attribute, in: entity),
                    let slot = entity.slotByName[attribute.name], let column = mapping.columns[slot]
                else { continue }
                let target = DerivedTarget(entity: entity, attribute: attribute.name, table: mapping.table, column: column)
                sql += statements(for: derivation, of: target)
            }
        }
        return sql
    }

    /// Refuses a model with a derived attribute an SQL store cannot keep, as Core Data refuses
    /// to add such a store.
    ///
    /// - Throws: ``ObjectGraphError/Code/persistentStoreIncompatibleSchema``, naming the
    ///   attribute and its expression.
    static func checkDerivations(of model: ManagedObjectModel) throws(ObjectGraphError) {
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            for attribute in entity.attributesByName.values.sorted(by: { $0.name < $1.name })
            where attribute.entity === entity && attribute.derivationExpression != nil {
                _ = try Derivation(of: attribute, in: entity)
            }
        }
    }

    /// Whether `statement` is one of ``derivedAttributeTriggers(model:)``: a migration runs
    /// them once the rows are copied and the old tables (with their triggers) dropped.
    static func isDerivedAttributeStatement(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE TRIGGER IF NOT EXISTS Z_DA_") || statement.hasPrefix("UPDATE ")
    }

    /// The derived attribute's column and where it lives.
    private struct DerivedTarget {
        let entity: EntityDescription
        let attribute: String
        let table: String
        let column: String

        /// `Z_DA_<table>_<Entity>_<attribute>`: Core Data's trigger names, from the table the
        /// trigger is on.
        func name(on table: String, _ suffix: String) -> String {
            "Z_DA_\(table)_\(entity.name)_\(attribute)_\(suffix)"
        }

        /// Reports the value of the rows of the target's table that `filter` selects.
        func report(_ filter: String, insert: Bool = false) -> String {
            let function = insert ? "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue" : "NSCoreDataDATriggerUpdatedAffectedObjectValue"
            return "SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table) WHERE \(filter);"
        }

        /// Sets the column of the rows `filter` selects to `value` and reports them.
        func set(_ value: String, where filter: String, insert: Bool = false) -> String {
            "UPDATE \(table) SET \(column) = \(value) WHERE \(filter); \(report(filter, insert: insert))"
        }

        /// ` WHEN NEW.Z_ENT IN (…)` for an entity sharing its table with others; empty otherwise.
        var ownRows: String {
            sharesTable ? " WHEN NEW.Z_ENT IN (\(codes))" : ""
        }

        /// ` WHERE Z_ENT IN (…)` (or `AND`, after a filter) for an entity sharing its table.
        func restricted(_ filter: String?) -> String {
            let own = sharesTable ? "Z_ENT IN (\(codes))" : nil
            let parts = [filter, own].compactMap { $0 }
            return parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")
        }

        private var sharesTable: Bool { entity.superentity != nil || !entity.subentities.isEmpty }
        private var codes: String { entity.fetchableEntityCodes.map(String.init).joined(separator: ", ") }
    }

    private func statements(for derivation: Derivation, of target: DerivedTarget) -> [String] {
        let (table, column) = (target.table, target.column)
        let trigger = "CREATE TRIGGER IF NOT EXISTS"
        switch derivation {
        case .now:
            let now = "(julianday('now') - 2451910.5) * 86400.0"
            // Z_OPT changes exactly when a save or a batch update changes the object; the
            // triggers' own updates leave it alone.
            return [
                "UPDATE \(table) SET \(column) = \(now)\(target.restricted("\(column) IS NULL"))",
                "\(trigger) \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(now, where: "Z_PK = NEW.Z_PK", insert: true)) END",
                "\(trigger) \(target.name(on: table, "SOURCE_UPDATE")) AFTER UPDATE OF Z_OPT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(now, where: "Z_PK = NEW.Z_PK")) END",
            ]
        case .value(let through, let attribute, let function):
            func applied(_ value: String) -> String {
                switch function {
                case nil: value
                case .canonical?: "\(SQLiteFunctions.fold)(\(value), 3)"
                case .lowercase?: "\(SQLiteFunctions.lowercase)(\(value))"
                case .uppercase?: "\(SQLiteFunctions.uppercase)(\(value))"
                }
            }
            guard let sourceColumn = storedColumn(of: attribute) else { return [] }
            guard let through else {
                return [
                    "UPDATE \(table) SET \(column) = \(applied(sourceColumn))\(target.restricted(nil))",
                    "\(trigger) \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(applied("NEW.\(sourceColumn)"), where: "Z_PK = NEW.Z_PK", insert: true)) END",
                    "\(trigger) \(target.name(on: table, "SOURCE_UPDATE")) AFTER UPDATE OF \(sourceColumn) ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(applied("NEW.\(sourceColumn)"), where: "Z_PK = NEW.Z_PK")) END",
                ]
            }
            guard let foreignKey = storedColumn(of: through), let destination = through.destinationEntity,
                let destinationTable = mappings[destination.name]?.table
            else { return [] }
            // Aliased: the destination may be the source's own table (`parent.name`).
            let lookup = { (key: String) in "(SELECT \(applied("og_d.\(sourceColumn)")) FROM \(destinationTable) AS og_d WHERE og_d.Z_PK = \(key))" }
            return [
                "UPDATE \(table) SET \(column) = \(lookup("\(table).\(foreignKey)"))\(target.restricted(nil))",
                "\(trigger) \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(lookup("NEW.\(foreignKey)"), where: "Z_PK = NEW.Z_PK", insert: true)) END",
                "\(trigger) \(target.name(on: table, "SOURCE_UPDATE")) AFTER UPDATE OF \(foreignKey) ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(lookup("NEW.\(foreignKey)"), where: "Z_PK = NEW.Z_PK")) END",
                "\(trigger) \(target.name(on: destinationTable, "PARAMETER_INSERT")) AFTER INSERT ON \(destinationTable) FOR EACH ROW BEGIN \(target.set(applied("NEW.\(sourceColumn)"), where: "\(foreignKey) = NEW.Z_PK")) END",
                "\(trigger) \(target.name(on: destinationTable, "PARAMETER_UPDATE")) AFTER UPDATE OF \(sourceColumn) ON \(destinationTable) FOR EACH ROW BEGIN \(target.set(applied("NEW.\(sourceColumn)"), where: "\(foreignKey) = NEW.Z_PK")) END",
                "\(trigger) \(target.name(on: destinationTable, "PARAMETER_DELETE")) AFTER DELETE ON \(destinationTable) FOR EACH ROW BEGIN \(target.set("NULL", where: "\(foreignKey) = OLD.Z_PK")) END",
            ]
        case .count(let relationship):
            switch storage(of: relationship) {
            case .foreignKey(let memberTable, let foreignKey, _)?:
                return [
                    "UPDATE \(table) SET \(column) = (SELECT COUNT(\(foreignKey)) FROM \(memberTable) WHERE \(foreignKey) = \(table).Z_PK)\(target.restricted(nil))"
                ] + Self.countTriggers(target, memberTable: memberTable, foreignKey: foreignKey)
            case .joinTable(let joinTable, let isOwner)?:
                let mine = joinTable.columns(isOwner: isOwner).mine
                return recomputing(target, joinTable: joinTable, mine: mine) { key in "(SELECT COUNT(*) FROM \(joinTable.name) WHERE \(mine) = \(key))" }
            case nil:
                return []
            }
        case .sum(let relationship, let attribute):
            guard let memberColumn = storedColumn(of: attribute), let destination = relationship.destinationEntity,
                let memberTable = mappings[destination.name]?.table
            else { return [] }
            // The members' table is aliased: it may be the source's own (`children.@sum.size`).
            let sum = "IFNULL(\(SQLiteFunctions.sum)(og_m.\(memberColumn)), 0)"
            switch storage(of: relationship) {
            case .foreignKey(_, let foreignKey, _)?:
                let total = { (key: String) in "(SELECT \(sum) FROM \(memberTable) AS og_m WHERE og_m.\(foreignKey) = \(key))" }
                let refresh = { (key: String) in target.set(total(key), where: "Z_PK = \(key)") }
                let prefix = target.name(on: memberTable, "PARAMETER")
                return [
                    "UPDATE \(table) SET \(column) = \(total("\(table).Z_PK"))\(target.restricted(nil))",
                    "\(trigger) \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(refresh("NEW.\(foreignKey)")) END",
                    "\(trigger) \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(foreignKey), \(memberColumn) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(refresh("NEW.\(foreignKey)")) END",
                    "\(trigger) \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(foreignKey) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL AND OLD.\(foreignKey) IS NOT NEW.\(foreignKey)) BEGIN \(refresh("OLD.\(foreignKey)")) END",
                    "\(trigger) \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL) BEGIN \(refresh("OLD.\(foreignKey)")) END",
                    "\(trigger) \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(total("NEW.Z_PK"), where: "Z_PK = NEW.Z_PK", insert: true)) END",
                ]
            case .joinTable(let joinTable, let isOwner)?:
                let (mine, theirs, _) = joinTable.columns(isOwner: isOwner)
                let total = { (key: String) in
                    "(SELECT \(sum) FROM \(joinTable.name) AS og_j JOIN \(memberTable) AS og_m ON og_m.Z_PK = og_j.\(theirs) WHERE og_j.\(mine) = \(key))"
                }
                let sources = "Z_PK IN (SELECT \(mine) FROM \(joinTable.name) WHERE \(theirs) = NEW.Z_PK)"
                return recomputing(target, joinTable: joinTable, mine: mine, total: total) + [
                    "\(trigger) \(target.name(on: memberTable, "PARAMETER_UPDATE")) AFTER UPDATE OF \(memberColumn) ON \(memberTable) FOR EACH ROW BEGIN \(target.set(total("\(table).Z_PK"), where: sources)) END"
                ]
            case nil:
                return []
            }
        }
    }

    /// The column of a stored attribute or to-one relationship, in its entity's table.
    private func storedColumn(of property: PropertyDescription) -> String? {
        guard let entity = property.entity, let slot = entity.slotByName[property.name] else { return nil }
        return mappings[entity.name]?.columns[slot]
    }

    /// A value over the members listed in a join table, recomputed whenever a join row comes or
    /// goes, and when the source row is inserted.
    private func recomputing(
        _ target: DerivedTarget,
        joinTable: JoinTable,
        mine: String,
        total: (String) -> String
    ) -> [String] {
        let (table, column, trigger) = (target.table, target.column, "CREATE TRIGGER IF NOT EXISTS")
        func refresh(_ key: String) -> String { target.set(total(key), where: "Z_PK = \(key)") }
        return [
            "UPDATE \(table) SET \(column) = \(total("\(table).Z_PK"))\(target.restricted(nil))",
            "\(trigger) \(target.name(on: joinTable.name, "PARAMETER_INSERT")) AFTER INSERT ON \(joinTable.name) FOR EACH ROW BEGIN \(refresh("NEW.\(mine)")) END",
            "\(trigger) \(target.name(on: joinTable.name, "PARAMETER_DELETE")) AFTER DELETE ON \(joinTable.name) FOR EACH ROW BEGIN \(refresh("OLD.\(mine)")) END",
            "\(trigger) \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW\(target.ownRows) BEGIN \(target.set(total("NEW.Z_PK"), where: "Z_PK = NEW.Z_PK", insert: true)) END",
        ]
    }

    /// Core Data's five triggers for a count of the members whose `foreignKey` (in
    /// `memberTable`) names a row of the target's table.
    private static func countTriggers(_ target: DerivedTarget, memberTable: String, foreignKey: String) -> [String] {
        let (table, column) = (target.table, target.column)
        let prefix = target.name(on: memberTable, "PARAMETER")
        func step(_ key: String, _ change: String) -> String {
            target.set(change, where: "Z_PK = \(key)")
        }
        return [
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(step("NEW.\(foreignKey)", "IFNULL(\(column), 0) + 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(foreignKey) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL) BEGIN \(step("NEW.\(foreignKey)", "\(column) + 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(foreignKey) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL) BEGIN \(step("OLD.\(foreignKey)", "\(column) - 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL) BEGIN \(step("OLD.\(foreignKey)", "\(column) - 1")) END",
            "CREATE TRIGGER IF NOT EXISTS \(target.name(on: table, "SOURCE_INSERT")) AFTER INSERT ON \(table) FOR EACH ROW BEGIN UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(foreignKey)), 0) FROM \(memberTable) WHERE \(foreignKey) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(target.report("Z_PK = NEW.Z_PK", insert: true)) END",
        ]
    }
}
