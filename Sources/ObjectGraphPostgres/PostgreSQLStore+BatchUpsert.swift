import Foundation
import Logging
import NIOCore
import ObjectGraph
import PostgresNIO

// A batch insert into an entity with uniqueness constraints, set-based: per chunk of rows one
// query finds every stored row that has a chunk object's constrained values, the objects are
// matched in memory in order (as the per-row lookups would match them), and the chunk is
// written with one UPDATE … FROM unnest(…) per set of columns written and the new rows' COPY
// or multi-row INSERTs: a few round trips per chunk instead of one or two per object.
extension PostgreSQLStore {
    /// Objects one chunk of a batch upsert takes: one lookup query and one write per chunk.
    static let batchUpsertChunkRows = 2_000

    /// Where a batch insert stands: the next reserved key, and what it changed so far.
    struct BatchInsertProgress: Sendable {
        var nextKey: Int64
        var changes = BatchChanges.none
        var ids: [ManagedObjectID] = []
    }

    /// Writes `insert.rows[range]`, upserting on the entity's constraints: in memory from one
    /// lookup of the stored rows they match when that gives what the per-row lookups would
    /// (no update changes a constrained value), else object by object
    /// (``upsertRowByRow(_:range:progress:connection:logger:)``).
    func upsertChunk(
        _ insert: SQLStoreLayout.BatchInsert,
        range: Range<Int>,
        progress: inout BatchInsertProgress,
        connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let plan = BatchUpsertPlan(insert: insert, range: range)
        let stored = try await plan.storedRows(connection: connection, logger: logger)
        guard let outcome = plan.resolve(stored: stored, progress: progress, layout: layout, ids: storeIDs) else {
            try await upsertRowByRow(insert, range: range, progress: &progress, connection: connection, logger: logger)
            return
        }
        for update in plan.updateStatements(outcome.updates) {
            try await connection.query(PostgresQuery(unsafeSQL: update.sql, binds: update.binds), logger: logger)
        }
        let inserts = outcome.inserts.map { SaveStatement(sql: insert.entity.insertSQL, arguments: $0) }
        _ = try await Self.run(Self.saveSteps(inserts), connection: connection, logger: logger)
        progress = outcome.progress
    }

    /// Writes `insert.rows[range]` object by object: each object's lookups, in order, then its
    /// UPDATE or (with the next new rows, written before the next lookup) its INSERT.
    func upsertRowByRow(
        _ insert: SQLStoreLayout.BatchInsert,
        range: Range<Int>,
        progress: inout BatchInsertProgress,
        connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let entity = insert.entity
        // New rows wait here to go in multi-row INSERTs; written before any lookup, which
        // must see them.
        var pending: [SaveStatement] = []
        func flush() async throws {
            _ = try await Self.run(Self.saveSteps(pending), connection: connection, logger: logger)
            pending.removeAll()
        }
        rowLoop: for row in insert.rows[range] {
            if !row.lookups.isEmpty { try await flush() }
            for lookup in row.lookups {
                let found = try await connection.query(Self.query(lookup.sql, lookup.arguments), logger: logger).collect()
                guard let match = found.first else { continue }
                let (key, code) = try match.decode((Int64, Int64).self)
                guard let existing = storeIDs.objectID(code: Int(code), primaryKey: key) else { continue }
                try await connection.query(Self.query(row.updateSQL, row.updateArguments + [.integer(key)]), logger: logger)
                progress.changes.updated.append(existing)
                progress.ids.append(existing)
                continue rowLoop
            }
            pending.append(SaveStatement(sql: entity.insertSQL, arguments: [.integer(progress.nextKey)] + row.insertArguments))
            let id = storeIDs.objectID(entityName: entity.name, primaryKey: progress.nextKey)
            progress.nextKey += 1
            progress.changes.inserted.append(id)
            progress.ids.append(id)
        }
        try await flush()
    }
}

/// One chunk of a batch upsert: its objects' constrained values, the query of the stored rows
/// that have them, and the matching of objects to rows.
struct BatchUpsertPlan {
    let insert: SQLStoreLayout.BatchInsert
    let range: Range<Int>
    /// The columns any constraint compares (indexes into the insert's columns), ascending.
    let compared: [Int]
    /// Per column of the insert: its position in `compared`, or `nil`.
    let comparedPosition: [Int?]
    /// Per constraint, per object of the chunk: its values, or `nil` when one is NULL (a
    /// constraint with a NULL value never matches).
    let tuples: [[[MatchValue]?]]

    init(insert: SQLStoreLayout.BatchInsert, range: Range<Int>) {
        self.insert = insert
        self.range = range
        compared = Set(insert.constraints.flatMap(\.columns)).sorted()
        var position = [Int?](repeating: nil, count: insert.columns.count)
        for (index, column) in compared.enumerated() { position[column] = index }
        comparedPosition = position
        tuples = insert.constraints.map { constraint in
            insert.rows[range].map { row in
                var tuple: [MatchValue] = []
                tuple.reserveCapacity(constraint.columns.count)
                for column in constraint.columns {
                    let value = row.values[column]
                    if value.isSQLNull { return nil }
                    tuple.append(MatchValue(value))
                }
                return tuple
            }
        }
    }

    /// A stored row one of the chunk's objects may match: its key, entity code and values of
    /// the compared columns.
    struct StoredRow {
        let key: Int64
        let code: Int
        let values: [SQLValue]
    }

    /// The stored rows whose values of some constraint an object of the chunk has, by one
    /// query (a branch per constraint, each against `unnest` of the distinct values).
    func storedRows(connection: PostgresConnection, logger: Logger) async throws -> [StoredRow] {
        let table = insert.entity.table
        let list = (["\"Z_PK\"", "\"Z_ENT\""] + compared.map { insert.columns[$0].name }).joined(separator: ", ")
        var branches: [String] = []
        var bindings = PostgresBindings()
        var parameter = 0
        for (index, constraint) in insert.constraints.enumerated() {
            var seen = Set<[MatchValue]>()
            var arrays = [[SQLValue]](repeating: [], count: constraint.columns.count)
            for tuple in tuples[index] {
                guard let tuple, seen.insert(tuple).inserted else { continue }
                for (position, value) in tuple.enumerated() { arrays[position].append(value.value) }
            }
            guard !seen.isEmpty else { continue }
            var casts: [String] = []
            for (position, column) in constraint.columns.enumerated() {
                parameter += 1
                let type = insert.columns[column].type
                casts.append("$\(parameter)::\(type)[]")
                bindings.append(SQLValueArray(type: type, values: arrays[position]))
            }
            let columns = constraint.columns.map { insert.columns[$0].name }.joined(separator: ", ")
            let codes = constraint.entityCodes.map(String.init).joined(separator: ", ")
            branches.append(
                "SELECT \(list) FROM \(table) WHERE \"Z_ENT\" IN (\(codes)) AND (\(columns)) IN (SELECT * FROM unnest(\(casts.joined(separator: ", "))))"
            )
        }
        guard !branches.isEmpty else { return [] }
        let sql = branches.joined(separator: " UNION ALL ")
        var rows: [StoredRow] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
            let random = PostgresRandomAccessRow(row)
            let key = try random[0].decode(Int64.self)
            let code = try random[1].decode(Int64.self)
            let values = compared.enumerated().map { position, column in
                SQLValueArray.value(random[position + 2], type: insert.columns[column].type)
            }
            rows.append(StoredRow(key: key, code: Int(code), values: values))
        }
        return rows
    }

    /// What a chunk writes: the merged updates of stored rows, the new rows' INSERTs (with
    /// later objects' updates of them folded in) and where the batch stands after it.
    struct Outcome {
        var updates: [Int64: Update] = [:]
        /// The new rows' INSERT arguments (`Z_PK`, then a row's insert arguments).
        var inserts: [[SQLValue]] = []
        var progress: PostgreSQLStore.BatchInsertProgress
    }

    /// The writes to one stored row: each column's last value, and how many updates.
    struct Update {
        /// The columns written: indexes into the insert's columns.
        var values: [Int: SQLValue] = [:]
        var count: Int64 = 0
        /// The first object that updated it, for a stable statement order.
        var order: Int
    }

    /// Matches the chunk's objects in order against `stored` and the rows inserted before them,
    /// as the per-row lookups do: constraints in order, the first that finds a row wins; the
    /// object updates that row with the values it gave, else inserts a row. `nil` when this
    /// cannot stand for the per-row lookups: an update changes a constrained value (later
    /// lookups, and the unique indexes while the rows are written, would see the change), or
    /// an object's values are a row's that no lookup finds.
    func resolve(
        stored: [StoredRow],
        progress start: PostgreSQLStore.BatchInsertProgress,
        layout: SQLStoreLayout,
        ids storeIDs: StoreObjectIDs
    ) -> Outcome? {
        let entity = insert.entity
        // Rows known to the chunk: stored ones found, then new ones.
        var keys: [Int64] = []
        var ids: [ManagedObjectID?] = []
        var values: [[SQLValue]] = []
        var pendingIndex: [Int?] = []
        var index = [[[MatchValue]: Int]](repeating: [:], count: insert.constraints.count)
        let codes = insert.constraints.map { Set($0.entityCodes) }
        func storedTuple(_ row: [SQLValue], _ constraint: Int) -> [MatchValue]? {
            var tuple: [MatchValue] = []
            for column in insert.constraints[constraint].columns {
                let value = row[comparedPosition[column]!]
                if value.isSQLNull { return nil }
                tuple.append(MatchValue(value))
            }
            return tuple
        }
        var seenKeys = Set<Int64>()
        for row in stored where seenKeys.insert(row.key).inserted {
            let known = keys.count
            keys.append(row.key)
            ids.append(storeIDs.objectID(code: row.code, primaryKey: row.key))
            values.append(row.values)
            pendingIndex.append(nil)
            for constraint in insert.constraints.indices where codes[constraint].contains(row.code) {
                guard let tuple = storedTuple(row.values, constraint) else { continue }
                // Two rows with the same values: the lookup's pick is the server's.
                guard index[constraint].updateValue(known, forKey: tuple) == nil else { return nil }
            }
        }
        var outcome = Outcome(progress: start)
        for (offset, row) in insert.rows[range].enumerated() {
            var target: Int?
            for constraint in insert.constraints.indices {
                guard let tuple = tuples[constraint][offset], let known = index[constraint][tuple], ids[known] != nil else { continue }
                target = known
                break
            }
            if let known = target, let id = ids[known] {
                for column in row.given {
                    guard let position = comparedPosition[column] else { continue }
                    if MatchValue.sqlOptional(values[known][position]) != MatchValue.sqlOptional(row.values[column]) { return nil }
                }
                if let pending = pendingIndex[known] {
                    // After the key: `Z_ENT`, `Z_OPT` (one more per update), then the columns.
                    for column in row.given { outcome.inserts[pending][insert.columns[column].insertArgument + 1] = row.values[column] }
                    if case .integer(let version) = outcome.inserts[pending][2] { outcome.inserts[pending][2] = .integer(version + 1) }
                } else {
                    var update = outcome.updates[keys[known]] ?? Update(order: offset)
                    for column in row.given { update.values[column] = row.values[column] }
                    update.count += 1
                    outcome.updates[keys[known]] = update
                }
                outcome.progress.changes.updated.append(id)
                outcome.progress.ids.append(id)
                continue
            }
            let key = outcome.progress.nextKey
            outcome.progress.nextKey += 1
            let known = keys.count
            keys.append(key)
            let id = storeIDs.objectID(entityName: entity.name, primaryKey: key)
            ids.append(id)
            values.append(compared.map { row.values[$0] })
            pendingIndex.append(outcome.inserts.count)
            for constraint in insert.constraints.indices {
                guard let tuple = tuples[constraint][offset] else { continue }
                // A stored row no lookup finds (of an entity the model lacks) has these values.
                guard index[constraint].updateValue(known, forKey: tuple) == nil else { return nil }
            }
            outcome.inserts.append([.integer(key)] + row.insertArguments)
            outcome.progress.changes.inserted.append(id)
            outcome.progress.ids.append(id)
        }
        return outcome
    }

    /// One `UPDATE … FROM unnest(…)` per set of columns written, for `updates`.
    func updateStatements(_ updates: [Int64: Update]) -> [(sql: String, binds: PostgresBindings)] {
        var groups: [[Int]: [(key: Int64, update: Update)]] = [:]
        for (key, update) in updates { groups[update.values.keys.sorted(), default: []].append((key, update)) }
        return groups.sorted { $0.value[0].update.order < $1.value[0].update.order }.map { columns, rows in
            let rows = rows.sorted { $0.key < $1.key }
            var bindings = PostgresBindings(capacity: columns.count + 2)
            bindings.append(rows.map(\.key))
            bindings.append(rows.map(\.update.count))
            var assignments: [String] = []
            var casts = ["$1::bigint[]", "$2::bigint[]"]
            var names = ["k", "n"]
            for (position, column) in columns.enumerated() {
                let type = insert.columns[column].type
                casts.append("$\(position + 3)::\(type)[]")
                names.append("v\(position)")
                assignments.append("\(insert.columns[column].name) = u.v\(position)")
                bindings.append(SQLValueArray(type: type, values: rows.map { $0.update.values[column] ?? .null }))
            }
            assignments.append("\"Z_OPT\" = t.\"Z_OPT\" + u.n")
            let sql =
                "UPDATE \(insert.entity.table) AS t SET \(assignments.joined(separator: ", ")) FROM unnest(\(casts.joined(separator: ", "))) AS u(\(names.joined(separator: ", "))) WHERE t.\"Z_PK\" = u.k"
            return (sql, bindings)
        }
    }
}

/// A stored value compared as PostgreSQL's `=` compares it in the store's columns: integers
/// and doubles by value (0.0 equal to -0.0), text and bytes byte for byte (text in the
/// database's deterministic collation), decimals by value (1.5 equal to 1.50).
struct MatchValue: Hashable {
    let value: SQLValue

    init(_ value: SQLValue) { self.value = value }

    /// `value` for comparing a column before and after an update: NULL is equal to NULL.
    static func sqlOptional(_ value: SQLValue) -> MatchValue? {
        value.isSQLNull ? nil : MatchValue(value)
    }

    static func == (lhs: MatchValue, rhs: MatchValue) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .integer(let int): hasher.combine(int)
        // Swift hashes 0.0 and -0.0 alike, as == has them equal.
        case .real(let double): hasher.combine(double)
        case .text(let text):
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let data): hasher.combine(data)
        case .decimal(let decimal):
            // Equal decimals compact to one form (no trailing zeros in the mantissa).
            var compact = decimal
            NSDecimalCompact(&compact)
            hasher.combine(compact.isZero ? "0" : compact.description)
        }
    }
}

extension SQLValue {
    /// Whether the value is bound as NULL (see ``PostgreSQLStore/binds(_:)``): `nil`, or a NaN.
    var isSQLNull: Bool {
        switch self {
        case .null: true
        case .real(let double): double.isNaN
        default: false
        }
    }
}

/// A one-dimensional PostgreSQL array of a column's storage values, NULL elements included
/// (postgres-nio's arrays have none), each element encoded as ``PostgreSQLStore/binds(_:)``
/// binds it alone.
struct SQLValueArray: PostgresDynamicTypeEncodable {
    /// The column's type (``SQLDialect/columnType(_:)``).
    let type: String
    let values: [SQLValue]

    var element: PostgresDataType {
        switch type {
        case "TEXT": .text
        case "DOUBLE PRECISION": .float8
        case "NUMERIC": .numeric
        case "BYTEA": .bytea
        default: .int8
        }
    }

    var psqlType: PostgresDataType {
        switch element {
        case .text: .textArray
        case .float8: .float8Array
        case .numeric: .numericArray
        case .bytea: .byteaArray
        default: .int8Array
        }
    }
    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let hasNull = values.contains(where: \.isSQLNull)
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(hasNull ? 1 : 0, as: Int32.self)
        buffer.writeInteger(element.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))
        buffer.writeInteger(1, as: Int32.self)
        for value in values {
            let start = buffer.writerIndex
            buffer.writeInteger(-1, as: Int32.self)
            switch value {
            case .null: continue
            case .integer(let int): int.encode(into: &buffer, context: context)
            case .real(let double):
                if double.isNaN { continue }
                double.encode(into: &buffer, context: context)
            case .text(let text): text.encode(into: &buffer, context: context)
            case .blob(let data): buffer.writeBytes(data)
            case .decimal(let decimal): decimal.encode(into: &buffer, context: context)
            }
            buffer.setInteger(Int32(buffer.writerIndex - start - 4), at: start)
        }
    }

    /// A cell of a column of `type`, read in its storage form.
    static func value(_ cell: PostgresCell, type: String) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch type {
        case "TEXT": return (try? cell.decode(String.self)).map { .text($0) } ?? .null
        case "DOUBLE PRECISION": return (try? cell.decode(Double.self)).map { .real($0) } ?? .null
        case "NUMERIC": return (try? cell.decode(Decimal.self)).map { .decimal($0) } ?? .null
        case "BYTEA": return (try? cell.decode(ByteBuffer.self)).map { .blob(Data($0.readableBytesView)) } ?? .null
        default: return (try? cell.decode(Int64.self)).map { .integer($0) } ?? .null
        }
    }
}
