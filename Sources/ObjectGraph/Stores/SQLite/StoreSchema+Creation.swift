import Foundation

/// The `CREATE` statements of a schema, in the layout it spells.
extension StoreSchema {
    /// The statements that create the schema (idempotent: each says `IF NOT EXISTS`, which
    /// SQLite leaves out of the `sqlite_master` text it keeps).
    func creationSQL(model: ManagedObjectModel) -> [String] {
        switch layout {
        case .coreData: coreDataCreationSQL(model: model)
        case .objectGraph: objectGraphCreationSQL(model: model)
        }
    }

    /// The statements that create a join table and its index as Core Data creates them.
    static func coreDataCreationSQL(of table: JoinTable) -> [String] {
        let (source, destination) = (table.sourceColumn, table.destinationColumn)
        let columns = [source, destination] + [table.sourceOrderColumn, table.destinationOrderColumn].compactMap { $0 }
        return [
            "CREATE TABLE IF NOT EXISTS \(table.name) ( \(columns.map { "\($0) INTEGER" }.joined(separator: ", ")), PRIMARY KEY (\(source), \(destination)) )",
            "CREATE INDEX IF NOT EXISTS \(table.name)_\(destination)_INDEX ON \(table.name) (\(destination), \(source))",
        ]
    }

    /// The statements that create the schema as Core Data creates it, to the spacing of its
    /// `CREATE TABLE` text.
    private func coreDataCreationSQL(model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns.map { "\($0.name) \($0.definition)" }
            sql.append("CREATE TABLE IF NOT EXISTS \(table.name) ( \(columns.joined(separator: ", ")) )")
            for column in table.indexes {
                sql.append("CREATE INDEX IF NOT EXISTS \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
            }
        }
        for table in joinTables.values.sorted(by: { $0.name < $1.name }) {
            sql += Self.coreDataCreationSQL(of: table)
        }
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = mappings[entity.name] else { continue }
            let inherited = entity.superentity
            for constraint in entity.uniquenessConstraints where !(inherited?.uniquenessConstraints.contains(constraint) ?? false) {
                let columns = constraint.compactMap { entity.slotByName[$0].flatMap { mapping.columns[$0] } }
                guard columns.count == constraint.count, !columns.isEmpty else { continue }
                let name = "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_")
                let list = columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")
                sql.append("CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(mapping.table) (\(list))")
            }
            for index in entity.indexes where !(inherited?.indexes.contains(index) ?? false) {
                let elements = index.elements.compactMap { element in
                    entity.slotByName[element.propertyName].flatMap { mapping.columns[$0] }.map { (column: $0, ascending: element.isAscending) }
                }
                guard !elements.isEmpty else { continue }
                if index.name.hasPrefix("\(entity.name)_compoundIndex") {
                    // An Xcode model's older `compoundIndexes`: named from the table and columns.
                    let columns = elements.map(\.column)
                    sql.append(
                        "CREATE INDEX IF NOT EXISTS \(([mapping.table] + columns).joined(separator: "_")) ON \(mapping.table) (\(columns.joined(separator: ", ")))"
                    )
                } else {
                    let list = elements.map { "\($0.column) COLLATE BINARY \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
                    sql.append("CREATE INDEX IF NOT EXISTS Z_\(entity.name)_\(index.name) ON \(mapping.table) (\(list))")
                }
            }
        }
        return sql + derivedAttributeTriggers(model: model)
    }

    /// The statements that create the schema in ObjectGraph's former layout.
    private func objectGraphCreationSQL(model: ManagedObjectModel) -> [String] {
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
