import Foundation

extension SQLStoreLayout {
    /// The statements that create the layout's tables and indexes (idempotent), in the
    /// dialect's types: Core Data's storage forms (booleans as integers, dates as seconds since
    /// 2001, UUIDs and data as bytes), which the compiler's arguments match.
    package func creationSQL(model: ManagedObjectModel) -> [String] {
        let q = dialect.quoted
        var sql: [String] = []
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            let columns =
                ["\(q("Z_PK")) BIGINT PRIMARY KEY", "\(q("Z_ENT")) INTEGER NOT NULL", "\(q("Z_OPT")) BIGINT NOT NULL"]
                + table.columns.map { "\(q($0.name)) \(columnType(table: table.name, column: $0.name, model: model))" }
            sql.append("CREATE TABLE IF NOT EXISTS \(q(table.name)) (\(columns.joined(separator: ", ")))")
            for column in table.indexes {
                sql.append("CREATE INDEX IF NOT EXISTS \(q("\(table.name)_\(column)_INDEX")) ON \(q(table.name)) (\(q(column)))")
            }
        }
        for table in schema.joinTables.values.sorted(by: { $0.name < $1.name }) {
            var columns = ["\(q("Z_SOURCE")) BIGINT NOT NULL", "\(q("Z_DESTINATION")) BIGINT NOT NULL"]
            if table.sourceOrdered { columns.append("\(q("Z_FOK_SOURCE")) BIGINT") }
            if table.destinationOrdered { columns.append("\(q("Z_FOK_DESTINATION")) BIGINT") }
            columns.append("PRIMARY KEY (\(q("Z_SOURCE")), \(q("Z_DESTINATION")))")
            sql.append("CREATE TABLE IF NOT EXISTS \(q(table.name)) (\(columns.joined(separator: ", ")))")
            sql.append(
                "CREATE INDEX IF NOT EXISTS \(q("\(table.name)_DESTINATION_INDEX")) ON \(q(table.name)) (\(q("Z_DESTINATION")), \(q("Z_SOURCE")))"
            )
        }
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            guard let mapping = schema.mappings[entity.name] else { continue }
            let filter =
                entity.superentity == nil ? "" : " WHERE \(q("Z_ENT")) IN (\(entity.fetchableEntityCodes.map(String.init).joined(separator: ", ")))"
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                let columns = constraint.compactMap { entity.slotByName[$0].flatMap { mapping.columns[$0] } }
                guard columns.count == constraint.count else { continue }
                let name = "\(mapping.table)_\(entity.name.uppercased())_UNIQUE\(number)"
                sql.append(
                    "CREATE UNIQUE INDEX IF NOT EXISTS \(q(name)) ON \(q(mapping.table)) (\(columns.map(q).joined(separator: ", ")))\(filter)"
                )
            }
        }
        return sql
    }

    /// The dialect's type of a column of `table`: of its attribute's type, or `BIGINT` for keys,
    /// entity codes and order columns.
    private func columnType(table: String, column: String, model: ManagedObjectModel) -> String {
        for entity in model.entities {
            guard let mapping = schema.mappings[entity.name], mapping.table == table else { continue }
            for (slot, name) in mapping.columns where name == column {
                if let attribute = entity.allProperties[slot] as? AttributeDescription {
                    return dialect.columnType(attribute.attributeType)
                }
                return "BIGINT"
            }
        }
        return "BIGINT"
    }
}
