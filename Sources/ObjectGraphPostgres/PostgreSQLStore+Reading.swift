import Foundation
package import ObjectGraph
import PostgresNIO

// Every read runs one statement, atomic on its own, on a connection leased from the pool.
extension PostgreSQLStore {
    package func row(for id: ManagedObjectID) throws -> StoredRow? {
        try rows(for: [id])[id]
    }

    /// The rows of `ids`, one query per entity (its keys bound as one array).
    package func rows(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow] {
        guard !ids.isEmpty else { return [:] }
        let byEntity = try Dictionary(grouping: ids, by: \.entityName).map { name, ids in (try entity(named: name), ids) }
        let layout = layout
        let identifier = identifier
        let what = ids.count == 1 ? "read \(ids[0])" : "read \(ids.count) objects"
        let rows: [StoredRow] = try run(what) { client in
            var rows: [StoredRow] = []
            for (entity, ids) in byEntity {
                var bindings = PostgresBindings()
                bindings.append(ids.map(\.primaryKey))
                let sql = #"SELECT \#(entity.selectList) FROM \#(entity.table) WHERE "Z_PK" = ANY($1) AND "Z_ENT" = \#(entity.code)"#
                let sequence = try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings))
                for try await row in sequence {
                    if let decoded = Self.decode(row, layout: layout, storeIdentifier: identifier) { rows.append(decoded) }
                }
            }
            return rows
        }
        var result: [ManagedObjectID: StoredRow] = [:]
        for row in rows { result[row.id] = row }
        return result
    }

    package func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan {
        try layout.fetchPlan(for: request, model: managedObjectModel, storeIdentifier: identifier)
    }

    package func canUse(_ plan: FetchPlan) -> Bool {
        plan.storeIdentifier == identifier && plan.model === managedObjectModel
    }

    package func rows(matching request: FetchDescriptor) throws -> [StoredRow] {
        let layout = layout
        let (sql, arguments) = try query(request) { layout.aliasedSelectList($0) }
        let identifier = identifier
        return try run("fetch \(request.entity) objects") { client in
            var rows: [StoredRow] = []
            for try await row in try await client.query(Self.query(sql, arguments)) {
                if let decoded = Self.decode(row, layout: layout, storeIdentifier: identifier) { rows.append(decoded) }
            }
            return rows
        }
    }

    package func objectIDs(matching request: FetchDescriptor) throws -> [ManagedObjectID] {
        let (sql, arguments) = try query(request) { _ in #"t0."Z_PK", t0."Z_ENT""# }
        let layout = layout
        let identifier = identifier
        return try run("fetch \(request.entity) object IDs") { client in
            var ids: [ManagedObjectID] = []
            for try await row in try await client.query(Self.query(sql, arguments)) {
                let cells = row.makeRandomAccess()
                guard let pk = Self.integer(cells, 0), let code = Self.integer(cells, 1),
                    let id = layout.objectID(storeIdentifier: identifier, code: code, primaryKey: pk)
                else { continue }
                ids.append(id)
            }
            return ids
        }
    }

    package func count(matching request: FetchDescriptor) throws -> Int {
        let (inner, arguments) = try query(request, ordered: false) { _ in #"t0."Z_PK""# }
        return try run("count \(request.entity) objects") { client in
            let rows = try await client.query(Self.query("SELECT COUNT(*) FROM (\(inner)) AS matching", arguments)).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    package func dictionaries(matching request: FetchDescriptor, properties: [String], distinct: Bool) throws -> [[String: Value]] {
        let columns = try layout.columns(of: properties, entity: request.entity, model: managedObjectModel)
        // What each column decodes to: an attribute's type, or a to-one's destination.
        enum Reading: Sendable {
            case attribute(AttributeType)
            case toOne(entityName: String)
            case none
        }
        let readings: [Reading] = columns.map { column in
            switch column.property {
            case let attribute as AttributeDescription: .attribute(attribute.attributeType)
            case let relationship as RelationshipDescription: .toOne(entityName: relationship.destinationEntity?.name ?? "")
            default: .none
            }
        }
        let (sql, arguments) = try query(request, ordered: true, distinct: distinct) { _ in columns.map(\.column).joined(separator: ", ") }
        let identifier = identifier
        return try run("fetch \(request.entity) dictionaries") { client in
            var results: [[String: Value]] = []
            for try await row in try await client.query(Self.query(sql, arguments)) {
                let cells = row.makeRandomAccess()
                var dictionary: [String: Value] = [:]
                for (index, reading) in readings.enumerated() {
                    switch reading {
                    case .attribute(let type):
                        dictionary[properties[index]] = Self.value(cells, index, type: type)
                    case .toOne(let name):
                        if let key = Self.integer(cells, index) {
                            dictionary[properties[index]] = .objectID(ManagedObjectID(storeIdentifier: identifier, entityName: name, primaryKey: key))
                        }
                    case .none:
                        break
                    }
                }
                results.append(dictionary)
            }
            return results
        }
    }

    package func members(of id: ManagedObjectID, relationship: RelationshipKey) throws -> [ManagedObjectID] {
        try members(ofAll: [id], relationship: relationship)[id] ?? []
    }

    package func members(ofAll ids: [ManagedObjectID], relationship: RelationshipKey) throws -> [ManagedObjectID: [ManagedObjectID]] {
        // `SELECT source, member Z_PK, member Z_ENT`, each source's members in order.
        let sql: String
        switch layout.toMany(relationship) {
        case .foreignKey(let table, let column, let orderColumn):
            sql =
                #"SELECT \#(column), "Z_PK", "Z_ENT" FROM \#(table) WHERE \#(column) = ANY($1) ORDER BY \#(column), \#(orderColumn.map { "\($0), " } ?? "")"Z_PK""#
        case .joinTable(let table, let mine, let theirs, let orderColumn, let memberTable, _):
            sql =
                #"SELECT j.\#(mine), d."Z_PK", d."Z_ENT" FROM \#(table) j JOIN \#(memberTable) d ON d."Z_PK" = j.\#(theirs) WHERE j.\#(mine) = ANY($1) ORDER BY j.\#(mine), \#(orderColumn.map { "j.\($0), " } ?? "")d."Z_PK""#
        case nil:
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(serverDescription) stores no members for \(layout.relationshipName(relationship, model: managedObjectModel))"
            )
        }
        var sources: [Int64: ManagedObjectID] = [:]
        for id in ids { sources[id.primaryKey] = id }
        let keys = Array(sources.keys)
        let layout = layout
        let identifier = identifier
        let found: [(Int64, ManagedObjectID)] = try run(
            "read \(layout.relationshipName(relationship, model: managedObjectModel)) of \(ids.count) objects"
        ) {
            client in
            var bindings = PostgresBindings()
            bindings.append(keys)
            var found: [(Int64, ManagedObjectID)] = []
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings)) {
                let cells = row.makeRandomAccess()
                guard let source = Self.integer(cells, 0), let pk = Self.integer(cells, 1), let code = Self.integer(cells, 2),
                    let member = layout.objectID(storeIdentifier: identifier, code: code, primaryKey: pk)
                else { continue }
                found.append((source, member))
            }
            return found
        }
        var members: [ManagedObjectID: [ManagedObjectID]] = [:]
        for id in ids { members[id] = [] }
        for (source, member) in found {
            if let id = sources[source] { members[id, default: []].append(member) }
        }
        return members
    }

    // MARK: Helpers

    /// How the entity named `name` is stored; throws for an entity the store does not know.
    func entity(named name: String) throws -> SQLStoreLayout.Entity {
        guard let entity = layout.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the store at \(serverDescription) has no table for entity '\(name)'")
        }
        return entity
    }

    /// Decodes a full-table row (`Z_PK, Z_ENT, Z_OPT, columns…`).
    static func decode(_ row: PostgresRow, layout: SQLStoreLayout, storeIdentifier: String) -> StoredRow? {
        let cells = row.makeRandomAccess()
        return layout.decodeRow(
            storeIdentifier: storeIdentifier,
            integer: { integer(cells, $0) },
            attribute: { value(cells, $0, type: $1) }
        )
    }

    /// The SQL and arguments of a fetch, from the request's plan (compiled now when it has
    /// none from this store).
    func query(
        _ request: FetchDescriptor,
        ordered: Bool = true,
        distinct: Bool = false,
        columns: (String) -> String
    ) throws -> (String, [SQLValue]) {
        let plan: FetchPlan
        if let given = request.plan, canUse(given) { plan = given } else { plan = try fetchPlan(for: request) }
        let query = try layout.query(request, plan: plan, ordered: ordered, distinct: distinct, columns: columns)
        return (query.sql, query.arguments)
    }
}
