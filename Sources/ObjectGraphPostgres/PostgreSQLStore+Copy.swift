import Foundation
import Logging
import NIOCore
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// Rows of one table from which a save streams them with `COPY … FROM STDIN` instead of
    /// multi-row INSERTs. Below it a COPY's extra round trip (the server's CopyInResponse before
    /// any data) costs more than the INSERT's parse and binds save; above it the INSERT's 13,000
    /// placeholders per 1,000 rows (parsed, planned and decoded one by one by the server, and
    /// formatted into the statement by the client) cost several times the COPY.
    static let copyMinimumRows = 64

    /// One write of a save, in order.
    enum SaveStep: Sendable {
        /// A statement; a version check on its `RETURNING` row when it has one.
        case statement(SaveStatement)
        /// New rows streamed with COPY.
        case copy(CopyRows)
        /// New objects of one entity streamed with COPY straight from the save's rows.
        case copyInserts(CopyInserts)
        /// Rows of integers only (join rows), in one `INSERT … SELECT FROM unnest(…)` that keeps
        /// the statement's `ON CONFLICT` clause, which COPY has not.
        case unnest(sql: String, columns: [[Int64]])
    }

    /// Rows for `COPY table (columns) FROM STDIN`, each written on demand.
    protocol CopySource: Sendable {
        /// Unquoted: postgres-nio quotes the table and column names itself.
        var table: String { get }
        var columns: [String] { get }
        var rowCount: Int { get }
        /// Writes row `index`'s fields, tab-separated, without the newline.
        func writeRow(_ index: Int, into buffer: inout ByteBuffer)
    }

    /// New rows of one table for `COPY table (columns) FROM STDIN`.
    struct CopyRows: CopySource {
        let table: String
        let columns: [String]
        /// Row after row, `columns.count` values each.
        var values: [SQLValue]

        var rowCount: Int { columns.isEmpty ? 0 : values.count / columns.count }

        func writeRow(_ index: Int, into buffer: inout ByteBuffer) {
            let start = index * columns.count
            let fields = values[start..<start + columns.count]
            buffer.writeCopyRow(bound: bound(of: fields)) { write in fields.forEach(write) }
        }

        /// The most bytes `fields` take with their tabs; `nil` with a decimal among them.
        private func bound(of fields: ArraySlice<SQLValue>) -> Int? {
            var bound = fields.count
            for value in fields {
                guard let size = CopyText.bound(value) else { return nil }
                bound += size
            }
            return bound
        }
    }

    /// A run of a save's new objects of one entity, written to COPY as the entity's INSERT
    /// would bind them (`Z_PK`, `Z_ENT`, `Z_OPT` 1, then each stored slot), with no
    /// statement or argument array per row in between.
    struct CopyInserts: CopySource {
        let table: String
        let columns: [String]
        let entity: SQLStoreLayout.Entity
        let rows: ArraySlice<SaveChanges.RowWrite>
        let layout: SQLStoreLayout

        init(table: String, columns: [String], entity: SQLStoreLayout.Entity, rows: ArraySlice<SaveChanges.RowWrite>, layout: SQLStoreLayout) {
            self.table = table
            self.columns = columns
            self.entity = entity
            self.rows = rows
            self.layout = layout
        }

        var rowCount: Int { rows.count }

        func writeRow(_ index: Int, into buffer: inout ByteBuffer) {
            let row = rows[rows.startIndex + index]
            buffer.writeCopyRow(bound: bound(of: row)) { write in
                write(.integer(row.id.primaryKey))
                write(.integer(Int64(entity.code)))
                write(.integer(1))
                for field in entity.insertFields {
                    let value = row.values[field.slot]
                    write(value.sqlValue)
                    if field.withEntity { write(layout.entityCode(of: value)) }
                }
            }
        }

        /// The most bytes `row` takes with its tabs; `nil` with a decimal or a URL in it, whose
        /// text is not known without making it.
        private func bound(of row: SaveChanges.RowWrite) -> Int? {
            // `Z_PK`, `Z_ENT`, `Z_OPT` and their tabs, then each field and its tab.
            var bound = 3 * 21
            for field in entity.insertFields {
                guard let size = CopyText.bound(row.values[field.slot]) else { return nil }
                bound += size + 1 + (field.withEntity ? 21 : 0)
            }
            return bound
        }
    }

    /// `statements` with each run of the same single-row `INSERT … VALUES ($1, …, $n)`
    /// written as one COPY (runs of ``copyMinimumRows`` or more into a table without a conflict
    /// clause), one unnest INSERT (long runs of integer rows with one, such as join rows), or
    /// multi-row INSERTs (shorter runs, see ``mergingInserts(_:)``). Order is kept, and every
    /// other statement (those with a version check among them) is unchanged.
    static func saveSteps(_ statements: [SaveStatement]) -> [SaveStep] {
        var steps: [SaveStep] = []
        var short: [SaveStatement] = []
        func flushShort() {
            guard !short.isEmpty else { return }
            steps.append(contentsOf: mergingInserts(short).map { .statement($0) })
            short.removeAll()
        }
        var index = 0
        while index < statements.count {
            let first = statements[index]
            let width = first.arguments.count
            var end = index + 1
            if first.versionCheck == nil, width > 0 {
                while end < statements.count, statements[end].versionCheck == nil, statements[end].arguments.count == width,
                    statements[end].sql == first.sql
                {
                    end += 1
                }
            }
            if end - index >= copyMinimumRows, let target = InsertTarget(first.sql, width: width) {
                flushShort()
                if target.suffix.isEmpty {
                    var values: [SQLValue] = []
                    values.reserveCapacity((end - index) * width)
                    for row in index..<end { values.append(contentsOf: statements[row].arguments) }
                    steps.append(.copy(CopyRows(table: target.table, columns: target.columns, values: values)))
                    index = end
                    continue
                }
                if let columns = integerColumns(statements[index..<end], width: width) {
                    let names = target.columns.map(quoted).joined(separator: ", ")
                    let arrays = (1...width).map { "$\($0)::bigint[]" }.joined(separator: ", ")
                    let sql = "INSERT INTO \(quoted(target.table)) (\(names)) SELECT * FROM unnest(\(arrays))\(target.suffix)"
                    steps.append(.unnest(sql: sql, columns: columns))
                    index = end
                    continue
                }
            }
            short.append(contentsOf: statements[index..<end])
            index = end
        }
        flushShort()
        return steps
    }

    /// The arguments of `rows` by column when every one is an integer, else `nil`.
    private static func integerColumns(_ rows: ArraySlice<SaveStatement>, width: Int) -> [[Int64]]? {
        var columns = Array(repeating: [Int64](), count: width)
        for column in columns.indices { columns[column].reserveCapacity(rows.count) }
        for row in rows {
            for (column, argument) in row.arguments.enumerated() {
                guard case .integer(let value) = argument else { return nil }
                columns[column].append(value)
            }
        }
        return columns
    }

    /// Runs `steps` on the transaction's `connection`.
    ///
    /// - Returns: The version checks whose rows were not at the version their context read.
    static func run(_ steps: [SaveStep], connection: PostgresConnection, logger: Logger) async throws -> [SaveChanges.VersionCheck] {
        var missed: [SaveChanges.VersionCheck] = []
        for step in steps {
            defer { BlockingBridge.noteProgress() }
            switch step {
            case .statement(let statement):
                // A version check is proven by the row the statement returns.
                let sql = statement.versionCheck == nil ? statement.sql : statement.sql + #" RETURNING "Z_PK""#
                let rows = try await connection.query(query(sql, statement.arguments), logger: logger).collect()
                if let check = statement.versionCheck, rows.isEmpty { missed.append(check) }
            case .copy(let rows):
                try await copy(rows, connection: connection, logger: logger)
            case .copyInserts(let rows):
                try await copy(rows, connection: connection, logger: logger)
            case .unnest(let sql, let columns):
                var bindings = PostgresBindings(capacity: columns.count)
                for column in columns { bindings.append(column) }
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
            }
        }
        return missed
    }

    /// Streams `rows` to the server in COPY's text format, in chunks of ``CopyChunks``. A row
    /// the server refuses (a unique index's 23505 among them) fails the COPY, and the
    /// transaction with it, as the INSERT would have.
    static func copy(_ rows: some CopySource, connection: PostgresConnection, logger: Logger) async throws {
        let count = rows.rowCount
        guard !rows.columns.isEmpty, count > 0 else { return }
        try await connection.copyFrom(table: rows.table, columns: rows.columns, logger: logger) { writer in
            var chunks = CopyChunks()
            var buffer = ByteBuffer()
            buffer.reserveCapacity(chunks.size + 4_096)
            for index in 0..<count {
                rows.writeRow(index, into: &buffer)
                buffer.writeInteger(UInt8(ascii: "\n"))
                if buffer.readableBytes >= chunks.size {
                    try await writer.write(buffer)
                    // The server has rows to insert for a while: the caller's work can run.
                    BlockingBridge.noteUnderway()
                    chunks.next()
                    buffer = ByteBuffer()
                    buffer.reserveCapacity(chunks.size + 4_096)
                    BlockingBridge.noteProgress()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
    }

    /// The sizes of the chunks a COPY sends: the first small, so that the server starts on the
    /// rows while the client writes the rest (the server's inserts and index updates, not the
    /// client's writing, are a large COPY's slow part); each later one twice the last, up to a
    /// megabyte, so that the cost of each write (a trip to the event loop) fades.
    struct CopyChunks {
        static let first = 1 << 16
        static let largest = 1 << 20

        /// Bytes to gather before the next write.
        private(set) var size = first

        /// After a write: the next chunk's size.
        mutating func next() { size = Swift.min(size * 2, Self.largest) }
    }

    /// The table and columns of a single-row `INSERT INTO "table" ("column", …) VALUES ($1, …,
    /// $n) [suffix]`, unquoted for COPY.
    struct InsertTarget {
        let table: String
        let columns: [String]
        /// What follows the tuple (`ON CONFLICT DO NOTHING`), with its leading space.
        let suffix: String

        /// `nil` unless `sql` is such an INSERT of `width` columns, each a plain quoted name.
        init?(_ sql: String, width: Int) {
            guard let shape = InsertShape(sql, width: width), shape.prefix.hasPrefix("INSERT INTO ") else { return nil }
            // `INSERT INTO "T" ("a", "b") VALUES`
            let head = shape.prefix.dropFirst("INSERT INTO ".count)
            guard let open = head.firstIndex(of: "("), let close = head.lastIndex(of: ")"), open < close else { return nil }
            guard let table = Self.unquoted(head[..<open].trimmingCharacters(in: .whitespaces)) else { return nil }
            var columns: [String] = []
            for name in head[head.index(after: open)..<close].split(separator: ",") {
                guard let column = Self.unquoted(name.trimmingCharacters(in: .whitespaces)) else { return nil }
                columns.append(column)
            }
            guard columns.count == width else { return nil }
            self.table = table
            self.columns = columns
            suffix = shape.suffix
        }

        /// `"name"` without its quotes; `nil` for anything else (a name holding a quote, which
        /// postgres-nio's COPY would not quote back).
        private static func unquoted(_ name: String) -> String? {
            guard name.count >= 2, name.first == "\"", name.last == "\"" else { return nil }
            let inner = name.dropFirst().dropLast()
            guard !inner.isEmpty, !inner.contains("\"") else { return nil }
            return String(inner)
        }
    }
}
