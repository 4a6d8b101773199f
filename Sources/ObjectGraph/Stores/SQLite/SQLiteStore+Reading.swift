import Foundation
import GRDB

// Every read below runs one SELECT, which SQLite executes atomically on its own: they use
// `unsafeRead` (no BEGIN/COMMIT around the statement), which halves the cost of the small
// reads that faults and relationships make one by one.
extension SQLiteStore {
    func row(for id: ManagedObjectID) throws -> StoredRow? {
        try rows(for: [id])[id]
    }

    /// The rows of `ids`: from the row cache where it has them, the rest read from SQLite (one
    /// query per entity and few hundred IDs) and cached.
    func rows(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow] {
        // Which entities first: an ID from another model throws before anything is read.
        let entities = try Dictionary(grouping: ids, by: \.scope).map { scope, ids in (try entityPlan(named: scope.entityName), ids) }
        let what = ids.count == 1 ? "read \(ids[0])" : "read \(ids.count) objects"
        return try storeOperation(.read, what) {
            try writer.unsafeRead { db in
                // Any commit this connection has not seen yet empties the cache first.
                let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
                let generation = rowCache.validate(connection: ObjectIdentifier(db), dataVersion: version)
                var rows = rowCache.rows(for: ids)
                guard rows.count < ids.count else { return rows }
                rows.reserveCapacity(ids.count)
                var read: [StoredRow] = []
                for (entity, ids) in entities {
                    let missing = rows.isEmpty ? ids : ids.filter { rows[$0] == nil }
                    // Chunks keep each statement under SQLite's parameter limit; their SQL
                    // differs only in the last chunk's length, so statements are reused from
                    // GRDB's cache.
                    var start = 0
                    while start < missing.count {
                        let chunk = missing[start..<min(start + Self.rowsByIDChunk, missing.count)]
                        start += chunk.count
                        let sql =
                            "SELECT \(entity.selectList) FROM \(entity.mapping.table) WHERE Z_PK IN (\(Self.placeholders(chunk.count))) AND Z_ENT = \(entity.code)"
                        let statement = try db.cachedStatement(sql: sql)
                        statement.setUncheckedArguments(StatementArguments(chunk.map(\.primaryKey)))
                        try forEachRow(of: statement) { row in
                            rows[row.id] = row
                            read.append(row)
                        }
                    }
                }
                rowCache.insert(read, readAt: generation)
                return rows
            }
        }
    }

    /// Steps a full-table row SELECT, decoding each row (of an entity the store knows).
    private func forEachRow(of statement: Statement, _ body: (StoredRow) -> Void) throws {
        let sqliteStatement = statement.sqliteStatement
        let cursor = try Row.fetchCursor(statement)
        // The cursor's row reads the statement in place: decode the columns straight from it.
        while try cursor.next() != nil {
            let decoded = try decode(
                integer: { Value.integer(sqliteStatement: sqliteStatement, index: $0) },
                attribute: { Value(sqliteStatement: sqliteStatement, index: $0, type: $1) }
            )
            if let decoded { body(decoded) }
        }
    }

    /// How many IDs one `rows(for:)` statement reads.
    static let rowsByIDChunk = 500

    func rows(matching request: FetchDescriptor) throws -> [StoredRow] {
        let (sql, arguments) = try query(request) { table in plan.aliasedSelectLists[table] ?? "t0.*" }
        return try storeOperation(.read, "fetch \(request.entity) objects") {
            try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: sql)
                statement.setUncheckedArguments(StatementArguments(arguments))
                var rows: [StoredRow] = []
                try forEachRow(of: statement) { rows.append($0) }
                return rows
            }
        }
    }

    func objectIDs(matching request: FetchDescriptor) throws -> [ManagedObjectID] {
        let (sql, arguments) = try query(request) { _ in "t0.Z_PK, t0.Z_ENT" }
        return try storeOperation(.read, "fetch \(request.entity) object IDs") {
            try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: sql)
                statement.setUncheckedArguments(StatementArguments(arguments))
                var ids: [ManagedObjectID] = []
                let cursor = try Row.fetchCursor(statement)
                while try cursor.next() != nil {
                    if let id = objectID(statement.sqliteStatement) { ids.append(id) }
                }
                return ids
            }
        }
    }

    func count(matching request: FetchDescriptor) throws -> Int {
        let (inner, arguments) = try query(request, ordered: false) { _ in "t0.Z_PK" }
        let sql = "SELECT COUNT(*) FROM (\(inner))"
        return try storeOperation(.read, "count \(request.entity) objects") {
            try writer.unsafeRead { db in
                try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) ?? 0
            }
        }
    }

    func dictionaries(matching request: FetchDescriptor, properties: [String], distinct: Bool) throws -> [[String: Value]] {
        guard let entity = managedObjectModel.entity(named: request.entity), let entityPlan = plan.entity(named: entity.name) else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(request.entity)'")
        }
        let mapping = entityPlan.mapping
        let external = Set(entityPlan.externalSlots)
        let storage = externalStorage
        let slots = properties.map { entity.slotByName[$0]! }
        let columns = slots.map { "t0.\(mapping.columns[$0]!)" }
        let (sql, arguments) = try query(request, ordered: true, distinct: distinct) { _ in columns.joined(separator: ", ") }
        return try storeOperation(.read, "fetch \(request.entity) dictionaries") {
            try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: sql)
                statement.setUncheckedArguments(StatementArguments(arguments))
                var results: [[String: Value]] = []
                let cursor = try Row.fetchCursor(statement)
                while let row = try cursor.next() {
                    var dictionary: [String: Value] = [:]
                    for (index, slot) in slots.enumerated() {
                        let databaseValue: DatabaseValue = row[index]
                        switch entity.allProperties[slot] {
                        case let attribute as AttributeDescription:
                            var value = Value(databaseValue, type: attribute.attributeType)
                            if external.contains(slot) {
                                value = try storage.read(
                                    value,
                                    of: objectDescription(entityPlan, column: mapping.columns[slot]!, holding: databaseValue, in: db),
                                    attribute: attribute.name
                                )
                            }
                            dictionary[properties[index]] = value
                        case let relationship as RelationshipDescription:
                            if case .int64(let pk) = databaseValue.storage {
                                dictionary[properties[index]] = .objectID(
                                    ManagedObjectID(storeIdentifier: identifier, entityName: relationship.destinationEntity!.name, primaryKey: pk)
                                )
                            }
                        default: break
                        }
                    }
                    results.append(dictionary)
                }
                return results
            }
        }
    }

    func members(of id: ManagedObjectID, relationship: RelationshipKey) throws -> [ManagedObjectID] {
        let sql = try membersQuery(relationship).sql(keys: "= ?")
        return try storeOperation(.read, "read \(relationshipName(relationship)) of \(id)") {
            try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: sql)
                let cursor = try Row.fetchCursor(statement, arguments: [id.primaryKey])
                var ids: [ManagedObjectID] = []
                while try cursor.next() != nil {
                    if let member = objectID(statement.sqliteStatement, at: 1) { ids.append(member) }
                }
                return ids
            }
        }
    }

    func members(ofAll ids: [ManagedObjectID], relationship: RelationshipKey) throws -> [[ManagedObjectID]] {
        // `SELECT source, member Z_PK, member Z_ENT … ORDER BY source, …`: each row goes to
        // its source in key order (`SourceMembers`). Dense keys (a fetch's) are read as one
        // range; others listed, a few hundred per statement (SQLite's parameter limit).
        let query = try membersQuery(relationship)
        var members = SourceMembers(sources: ids)
        let keys = members.keys
        let ranged = members.readsRange
        var start = 0
        while start < keys.count {
            let chunk = ranged ? keys[...] : keys[start..<min(start + Self.rowsByIDChunk, keys.count)]
            start += chunk.count
            let sql = query.sql(keys: ranged ? "BETWEEN ? AND ?" : SQLiteDialect().keyMembership(count: chunk.count))
            try storeOperation(.read, "read \(relationshipName(relationship)) of \(chunk.count) objects") {
                try writer.unsafeRead { db in
                    let statement = try db.cachedStatement(sql: sql)
                    statement.setUncheckedArguments(StatementArguments(ranged ? [chunk.first!, chunk.last!] : Array(chunk)))
                    let sqliteStatement = statement.sqliteStatement
                    let cursor = try Row.fetchCursor(statement)
                    while try cursor.next() != nil {
                        guard let source = Value.integer(sqliteStatement: sqliteStatement, index: 0),
                            let member = objectID(sqliteStatement, at: 1)
                        else { continue }
                        members.add(member, ofSource: source)
                    }
                }
            }
        }
        return members.members
    }

    /// `?, ?, …`, `count` times.
    static func placeholders(_ count: Int) -> String {
        count > 0 ? String(repeating: "?, ", count: count - 1) + "?" : ""
    }

    // MARK: Helpers

    /// The engine's query of `relationship`'s members (``SQLStoreLayout/membersQuery(_:)``).
    private func membersQuery(_ relationship: RelationshipKey) throws -> SQLStoreLayout.KeyedSQL {
        guard let query = layout.membersQuery(relationship) else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(path ?? ":memory:") stores no members for \(relationshipName(relationship))",
                file: path
            )
        }
        return query
    }

    /// How the entity named `name` is stored; throws for an entity the store does not know
    /// (an ID from another model), rather than treating its objects as missing.
    func entityPlan(named name: String) throws -> StorePlan.EntityPlan {
        guard let entity = plan.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the store at \(path ?? ":memory:") has no table for entity '\(name)'")
        }
        return entity
    }

    /// The ID of the object whose `column` holds `value`, described (for an error: a dictionary
    /// fetch reads no IDs); the entity's name when no row does.
    private func objectDescription(_ entity: StorePlan.EntityPlan, column: String, holding value: DatabaseValue, in db: Database) -> String {
        let sql = "SELECT Z_PK, Z_ENT FROM \(entity.mapping.table) WHERE \(column) = ? LIMIT 1"
        guard let row = try? Row.fetchOne(db, sql: sql, arguments: [value]), let pk = row[0] as Int64?, let code = row[1] as Int?,
            let id = objectID(code: code, primaryKey: pk)
        else { return "a \(entity.name)" }
        return id.description
    }

    /// The ID in the current row of a `SELECT Z_PK, Z_ENT …` statement (columns `index` and
    /// `index + 1`).
    @inline(__always)
    private func objectID(_ statement: SQLiteStatement, at index: Int = 0) -> ManagedObjectID? {
        guard let pk = Value.integer(sqliteStatement: statement, index: index),
            let code = Value.integer(sqliteStatement: statement, index: index + 1)
        else { return nil }
        return objectID(code: Int(code), primaryKey: pk)
    }

    /// Decodes a full-table row (`Z_PK, Z_ENT, Z_OPT, columns…`).
    func decode(_ row: Row) throws -> StoredRow? {
        try decode(
            integer: { index in
                if case .int64(let int) = (row[index] as DatabaseValue).storage { return int }
                return nil
            },
            attribute: { Value(row[$0] as DatabaseValue, type: $1) }
        )
    }

    /// Decodes a full-table row whose column `i` is read by `integer(i)` (an integer column, `nil`
    /// when it holds no integer) and `attribute(i, type)`.
    @inline(__always)
    func decode(integer: (Int) -> Int64?, attribute: (Int, AttributeType) -> Value) throws -> StoredRow? {
        guard let pk = integer(0), let code = integer(1), let entity = plan.entity(code: Int(code)) else { return nil }
        var values = ContiguousArray<Value>.nulls(count: entity.read.slotCount)
        values.withUnsafeMutableBufferPointer { slots in
            guard let base = slots.baseAddress else { return }
            // Each column writes its own slot once, over a `.null`, which owns nothing: writing
            // by initialization skips destroying it (and the array's checks on each write).
            for item in entity.read.columns {
                switch item {
                case .attribute(let slot, let index, let type):
                    (base + slot).initialize(to: attribute(index, type))
                case .toOne(let slot, let index, let entityIndex, let destination):
                    guard let key = integer(index) else { continue }
                    var id = ManagedObjectID(scope: ids.scope(code: destination), primaryKey: key)
                    if let entityIndex, let code = integer(entityIndex), let concrete = objectID(code: Int(code), primaryKey: key) {
                        id = concrete
                    }
                    (base + slot).initialize(to: .objectID(id))
                }
            }
        }
        if !entity.externalSlots.isEmpty {
            let storage = externalStorage
            for slot in entity.externalSlots {
                values[slot] = try storage.read(
                    values[slot],
                    of: ManagedObjectID(scope: ids.scope(code: entity.code), primaryKey: pk).description,
                    attribute: managedObjectModel.entity(named: entity.name)?.allProperties[slot].name ?? "slot \(slot)"
                )
            }
        }
        let version = integer(2) ?? 0
        return StoredRow(id: ManagedObjectID(scope: ids.scope(code: entity.code), primaryKey: pk), version: version, values: values)
    }

    /// The SQL of a fetch: `SELECT columns FROM table t0 joins WHERE … ORDER BY … LIMIT …`, as
    /// the engine assembles it for every store (``SQLStoreLayout/query(_:plan:ordered:distinct:columns:)``),
    /// from the request's plan (compiled now when it has none from this store).
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` when the request applies a predicate SQLite
    ///   cannot express (check ``FetchPlan/needsInMemoryEvaluation`` first), or the error
    ///   compiling the predicate or the sort.
    private func query(
        _ request: FetchDescriptor,
        ordered: Bool = true,
        distinct: Bool = false,
        columns: (String) -> String
    ) throws -> (String, [DatabaseValue]) {
        let plan: FetchPlan
        if let given = request.plan, canUse(given) { plan = given } else { plan = try fetchPlan(for: request) }
        let (sql, arguments) = try layout.query(request, plan: plan, ordered: ordered, distinct: distinct, columns: columns)
        return (sql, arguments.databaseValues)
    }
}
