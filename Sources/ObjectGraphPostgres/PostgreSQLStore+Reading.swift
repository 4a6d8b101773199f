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
        let storeIDs = storeIDs
        let what = ids.count == 1 ? "read \(ids[0])" : "read \(ids.count) objects"
        let rows: [StoredRow] = try run(what) { client in
            var rows: [StoredRow] = []
            for (entity, ids) in byEntity {
                var bindings = PostgresBindings()
                bindings.append(ids.map(\.primaryKey))
                let sql = #"SELECT \#(entity.selectList) FROM \#(entity.table) WHERE "Z_PK" = ANY($1) AND "Z_ENT" = \#(entity.code)"#
                let sequence = try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings))
                for try await row in sequence {
                    if let decoded = Self.decode(row, layout: layout, ids: storeIDs) { rows.append(decoded) }
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

    package func cachedFetchPlan(for request: FetchDescriptor, key: FetchPlanKey) throws -> FetchPlan {
        try fetchPlans.plan(for: key) { try fetchPlan(for: request) }
    }

    package func rows(matching request: FetchDescriptor) throws -> [StoredRow] {
        let layout = layout
        let (sql, arguments, sort) = try query(request) { layout.aliasedSelectList($0) }
        let storeIDs = storeIDs
        let rows: [(row: StoredRow, keys: [Value])] = try run("fetch \(request.entity) objects") { client in
            var rows: [(row: StoredRow, keys: [Value])] = []
            for try await row in try await client.query(Self.query(sql, arguments)) {
                guard let decoded = Self.decode(row, layout: layout, ids: storeIDs) else { continue }
                rows.append((decoded, sort.map { Self.sortKeys(row.makeRandomAccess(), $0, distinct: false) } ?? []))
            }
            return rows
        }
        guard let sort else { return rows.map(\.row) }
        return sort.arrange(rows, keys: \.keys, primaryKey: \.row.id.primaryKey, offset: request.fetchOffset, limit: request.fetchLimit).map(\.row)
    }

    package func objectIDs(matching request: FetchDescriptor) throws -> [ManagedObjectID] {
        let (sql, arguments, sort) = try query(request) { _ in #"t0."Z_PK", t0."Z_ENT""# }
        let storeIDs = storeIDs
        let ids: [(id: ManagedObjectID, keys: [Value])] = try run("fetch \(request.entity) object IDs") { client in
            var ids: [(id: ManagedObjectID, keys: [Value])] = []
            for try await row in try await client.query(Self.query(sql, arguments)) {
                let cells = row.makeRandomAccess()
                guard let pk = Self.integer(cells, 0), let code = Self.integer(cells, 1),
                    let id = storeIDs.objectID(code: Int(code), primaryKey: pk)
                else { continue }
                ids.append((id, sort.map { Self.sortKeys(cells, $0, distinct: false) } ?? []))
            }
            return ids
        }
        guard let sort else { return ids.map(\.id) }
        return sort.arrange(ids, keys: \.keys, primaryKey: \.id.primaryKey, offset: request.fetchOffset, limit: request.fetchLimit).map(\.id)
    }

    package func count(matching request: FetchDescriptor) throws -> Int {
        let (inner, arguments, _) = try query(request, ordered: false) { _ in #"t0."Z_PK""# }
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
        let (sql, arguments, sort) = try query(request, ordered: true, distinct: distinct) { _ in columns.map(\.column).joined(separator: ", ") }
        let storeIDs = storeIDs
        let results: [[String: Value]] = try run("fetch \(request.entity) dictionaries") { client in
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
                            dictionary[properties[index]] = .objectID(storeIDs.objectID(entityName: name, primaryKey: key))
                        }
                    case .none:
                        break
                    }
                }
                if let sort {
                    // The sort keys (and primary key) follow the properties; kept under names
                    // no property has until the rows are sorted.
                    for (index, key) in Self.sortKeys(cells, sort, distinct: distinct).enumerated() { dictionary[Self.sortKeyName(index)] = key }
                    if !distinct { dictionary[Self.sortKeyName(-1)] = Self.integer(cells, cells.count - 1).map { .int($0) } ?? .null }
                }
                results.append(dictionary)
            }
            return results
        }
        guard let sort else { return results }
        let names = sort.keys.indices.map(Self.sortKeyName)
        let primaryKey = Self.sortKeyName(-1)
        var arranged = sort.arrange(
            results,
            keys: { row in names.map { row[$0] ?? .null } },
            primaryKey: { row in if case .int(let pk)? = row[primaryKey] { pk } else { nil } },
            offset: 0,
            limit: 0
        )
        arranged = arranged.map { row in row.filter { !names.contains($0.key) && $0.key != primaryKey } }
        if distinct {
            // Rows that differ only in their sort keys are one row: the first in order.
            var seen = Set<[String: Value]>()
            arranged = arranged.filter { seen.insert($0).inserted }
        }
        if request.fetchOffset > 0 { arranged = Array(arranged.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { arranged = Array(arranged.prefix(request.fetchLimit)) }
        return arranged
    }

    package func members(of id: ManagedObjectID, relationship: RelationshipKey) throws -> [ManagedObjectID] {
        try members(ofAll: [id], relationship: relationship)[0]
    }

    package func members(ofAll ids: [ManagedObjectID], relationship: RelationshipKey) throws -> [[ManagedObjectID]] {
        // `SELECT source, member Z_PK, member Z_ENT … ORDER BY source, …`, the keys bound as
        // one range when dense (a fetch's), else as one array: each row goes to its source in
        // key order (`SourceMembers`).
        guard let query = layout.membersQuery(relationship) else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(serverDescription) stores no members for \(layout.relationshipName(relationship, model: managedObjectModel))"
            )
        }
        var members = SourceMembers(sources: ids)
        guard !ids.isEmpty else { return [] }
        let dialect = layout.dialect
        let ranged = members.readsRange
        let sql = query.sql(
            keys: ranged ? "BETWEEN \(dialect.placeholder(1)) AND \(dialect.placeholder(2))" : dialect.keyMembership(count: 0)
        )
        let keys = members.keys
        let storeIDs = storeIDs
        let found: [(Int64, ManagedObjectID)] = try run(
            "read \(layout.relationshipName(relationship, model: managedObjectModel)) of \(ids.count) objects"
        ) {
            client in
            var bindings = PostgresBindings()
            if ranged {
                bindings.append(keys.first!)
                bindings.append(keys.last!)
            } else {
                bindings.append(keys)
            }
            var found: [(Int64, ManagedObjectID)] = []
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings)) {
                let cells = row.makeRandomAccess()
                guard let source = Self.integer(cells, 0), let pk = Self.integer(cells, 1), let code = Self.integer(cells, 2),
                    let member = storeIDs.objectID(code: Int(code), primaryKey: pk)
                else { continue }
                found.append((source, member))
            }
            return found
        }
        for (source, member) in found { members.add(member, ofSource: source) }
        return members.members
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
    static func decode(_ row: PostgresRow, layout: SQLStoreLayout, ids: StoreObjectIDs) -> StoredRow? {
        let cells = row.makeRandomAccess()
        return layout.decodeRow(
            ids: ids,
            integer: { integer(cells, $0) },
            attribute: { value(cells, $0, type: $1) }
        )
    }

    /// The SQL and arguments of a fetch, from the request's plan (compiled now when it has
    /// none from this store), and the sort to apply in memory when PostgreSQL cannot order
    /// as the evaluator does (the SQL then selects the sort keys after `columns`, and has no
    /// ORDER BY, LIMIT or OFFSET).
    func query(
        _ request: FetchDescriptor,
        ordered: Bool = true,
        distinct: Bool = false,
        columns: (String) -> String
    ) throws -> (String, [SQLValue], FetchPlan.InMemorySort?) {
        let plan: FetchPlan
        if let given = request.plan, canUse(given) { plan = given } else { plan = try fetchPlan(for: request) }
        let query = try layout.sortableQuery(request, plan: plan, ordered: ordered, distinct: distinct, columns: columns)
        return (query.sql, query.arguments, query.inMemory)
    }

    /// The sort keys `sort` selected: the last columns of `row`, but for the primary key after
    /// them unless `distinct`.
    static func sortKeys(_ row: PostgresRandomAccessRow, _ sort: FetchPlan.InMemorySort, distinct: Bool) -> [Value] {
        let first = row.count - sort.keys.count - (distinct ? 0 : 1)
        return sort.types.enumerated().map { index, type in
            guard let type else { return integer(row, first + index).map { .int($0) } ?? .null }
            return value(row, first + index, type: type)
        }
    }

    /// The dictionary key a sort key is kept under until the rows are sorted.
    static func sortKeyName(_ index: Int) -> String {
        "\u{0}sortKey\(index)"
    }
}
