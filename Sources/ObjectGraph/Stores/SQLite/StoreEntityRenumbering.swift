import Foundation
import GRDB

/// Brings a store written when ObjectGraph numbered entities by name alone to Core Data's
/// numbering (roots by name, each followed by its subentities; see
/// `ModelChecker.coreDataEntityOrder`), so its `Z_ENT` values, `Z_PRIMARYKEY` rows and join
/// table names are the ones Core Data gives the same model.
///
/// Models without inheritance number the same both ways; only stores of models with
/// subentities are rewritten, once, in the caller's transaction.
struct StoreEntityRenumbering {
    /// New entity code by old one, for the codes that change.
    private let codes: [Int: Int]
    private let model: ManagedObjectModel
    private let layout: StoreLayout

    /// The renumbering `db` needs for `model` (the model that wrote it), or `nil` when its
    /// `Z_PRIMARYKEY` already numbers every entity as `model` does. `layout` is the store's.
    init?(_ db: Database, model: ManagedObjectModel, layout: StoreLayout) throws {
        guard try db.tableExists("Z_PRIMARYKEY") else { return nil }
        let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
        var codes: [Int: Int] = [:]
        for row in rows {
            guard let old: Int = row["Z_ENT"], let name: String = row["Z_NAME"],
                let entity = model.entitiesByName[name], entity.entityCode != old
            else { continue }
            codes[old] = entity.entityCode
        }
        if codes.isEmpty { return nil }
        self.codes = codes
        self.model = model
        self.layout = layout
    }

    /// Rewrites entity codes in every table and column that holds them, renames the join
    /// tables named after one, and drops the indexes that filter on old codes (the store
    /// creates them again when it opens).
    func run(in db: Database) throws {
        let schema = StoreSchema(model: model, layout: layout)
        let cases = codes.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }.joined(separator: " ")
        let olds = codes.keys.sorted().map(String.init).joined(separator: ", ")
        func renumber(_ table: String, _ column: String) throws {
            guard try db.tableExists(table) else { return }
            try db.execute(sql: "UPDATE \(table) SET \(column) = CASE \(column) \(cases) ELSE \(column) END WHERE \(column) IN (\(olds))")
        }
        var columns: Set<String> = []
        for mapping in schema.mappings.values {
            columns.insert("\(mapping.table) Z_ENT")
            for column in mapping.entityColumns.values { columns.insert("\(mapping.table) \(column)") }
        }
        for pair in columns.sorted() {
            let parts = pair.split(separator: " ").map(String.init)
            try renumber(parts[0], parts[1])
        }
        let filtered = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%Z_ENT IN%'")
        for index in filtered { try db.execute(sql: "DROP INDEX IF EXISTS \(index)") }
        // Join tables are named after their owner's code: move each aside, then into place, so
        // one table's new name may be another's old one.
        let inverse = Dictionary(uniqueKeysWithValues: codes.map { ($0.value, $0.key) })
        var moved: [(from: String, to: String)] = []
        for table in schema.joinTables.values {
            let prefix = "Z_"
            let rest = table.name.dropFirst(prefix.count)
            let digits = rest.prefix { $0.isNumber }
            guard let code = Int(digits), let old = inverse[code] else { continue }
            let oldName = prefix + String(old) + rest.dropFirst(digits.count)
            guard try db.tableExists(oldName) else { continue }
            try db.execute(sql: "DROP INDEX IF EXISTS \(oldName)_DESTINATION_INDEX")
            try db.execute(sql: "ALTER TABLE \(oldName) RENAME TO \(table.name)_RENUMBERED")
            moved.append((table.name + "_RENUMBERED", table.name))
        }
        for table in moved { try db.execute(sql: "ALTER TABLE \(table.from) RENAME TO \(table.to)") }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_ENT = -Z_ENT WHERE Z_ENT IN (\(olds))")
        for (old, new) in codes.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_ENT = ? WHERE Z_ENT = ?", arguments: [new, -old])
        }
        for entity in model.entities {
            try db.execute(
                sql: "UPDATE Z_PRIMARYKEY SET Z_SUPER = ? WHERE Z_ENT = ?",
                arguments: [entity.superentity?.entityCode ?? 0, entity.entityCode]
            )
        }
    }
}
