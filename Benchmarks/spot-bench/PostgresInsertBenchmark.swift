import Foundation
import ObjectGraph
import PostgresNIO

/// Inserts `count` rows of ten integers into an empty table on PostgreSQL, in one transaction
/// (ObjectGraph: one `save()`); every run in a new schema.
struct PostgresInsertBenchmark: Benchmark {
    let count: Int
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "insert \(count.formatted) + save" }
    var notes: [String] {
        [
            "PostgreSQL insert: each run in a new schema holding ObjectGraph's empty ZITEM table (raw and Fluent: CREATE TABLE … (LIKE …) of it), after a CHECKPOINT that flushes earlier runs' writes; ObjectGraph's time includes reserving primary keys, change tracking, validation, its persistent history rows and NOTIFY; Fluent's batch create is one multi-row INSERT per 5,000 rows (PostgreSQL takes at most 65,535 parameters), all in one transaction"
        ]
    }

    static let columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZA", "ZB", "ZC", "ZD", "ZE", "ZF", "ZG", "ZH", "ZI", "ZJ"]

    func contenders(in workspace: Workspace) throws -> [Contender] {
        // ObjectGraph's table, copied by the other contenders' schemas.
        let template = try server.newSchema("insert_template")
        _ = try template.container(Models.item())
        let entity = try template.int(#"SELECT "Z_ENT" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Item'"#)
        let n = Int64(count)
        /// A new schema with an empty copy of ObjectGraph's ZITEM (its index included).
        func emptyTable(_ label: String) throws -> PostgresSchema {
            let schema = try server.newSchema(label)
            try schema.execute(#"CREATE TABLE "ZITEM" (LIKE "\#(template.name)"."ZITEM" INCLUDING ALL)"#)
            schema.settle()
            return schema
        }
        let checksumSQL = #"SELECT SUM("ZA" + "ZB" + "ZC" + "ZD" + "ZE" + "ZF" + "ZG" + "ZH" + "ZI" + "ZJ")::bigint FROM "ZITEM""#
        return [
            Contender(name: "ObjectGraph typed (@Managed)", role: .objectGraph) {
                let schema = try server.newSchema("insert_og")
                let container = try schema.container(Models.item())
                let context = container.newBackgroundContext()
                schema.settle()
                let sample = try context.performAndWait {
                    try measureMilliseconds {
                        for row in 1...n {
                            let item = Item(context: context)
                            item.a = Models.value(row: row, column: 0, of: n)
                            item.b = Models.value(row: row, column: 1, of: n)
                            item.c = Models.value(row: row, column: 2, of: n)
                            item.d = Models.value(row: row, column: 3, of: n)
                            item.e = Models.value(row: row, column: 4, of: n)
                            item.f = Models.value(row: row, column: 5, of: n)
                            item.g = Models.value(row: row, column: 6, of: n)
                            item.h = Models.value(row: row, column: 7, of: n)
                            item.i = Models.value(row: row, column: 8, of: n)
                            item.j = Models.value(row: row, column: 9, of: n)
                        }
                        try context.save()
                        return 0
                    }
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
            FluentBench.contender(
                "batch create, [Model].create(on:)",
                workload: "insert",
                schema: { try emptyTable("insert_fluent") },
                arguments: ["--rows", String(count), "--entity", String(entity)],
                checksum: { try $0.int(checksumSQL) }
            ),
            Contender(name: "raw postgres-nio (COPY FROM STDIN)", role: .baseline) {
                let schema = try emptyTable("insert_copy")
                let client = schema.client
                // The connection is open before the clock starts, as the other contenders'.
                try schema.execute("SELECT 1")
                let sample = try measureMilliseconds {
                    try blocking {
                        try await client.withConnection { connection in
                            try await connection.copyFrom(table: "ZITEM", columns: Self.columns, logger: PostgresSchema.logger) { writer in
                                // Chunks as the store sends them: 64 KB first, so that the server
                                // starts at once, then twice the last, up to a megabyte.
                                var chunk = 1 << 16
                                var buffer = ByteBuffer()
                                buffer.reserveCapacity(chunk + 4_096)
                                for row in 1...n {
                                    buffer.writeItemRow(row, entity: entity, of: n)
                                    buffer.writeInteger(UInt8(ascii: "\n"))
                                    if buffer.readableBytes >= chunk {
                                        try await writer.write(buffer)
                                        chunk = min(chunk * 2, 1 << 20)
                                        buffer = ByteBuffer()
                                        buffer.reserveCapacity(chunk + 4_096)
                                    }
                                }
                                if buffer.readableBytes > 0 { try await writer.write(buffer) }
                            }
                        }
                    }
                    return 0
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
            Contender(name: "raw postgres-nio (one INSERT … SELECT FROM unnest of 13 array binds)", role: .baseline) {
                let schema = try emptyTable("insert_unnest")
                let client = schema.client
                try schema.execute("SELECT 1")
                let sample = try measureMilliseconds {
                    var columns = Array(repeating: [Int64](), count: 13)
                    for index in columns.indices { columns[index].reserveCapacity(count) }
                    for row in 1...n {
                        columns[0].append(row)
                        columns[1].append(entity)
                        columns[2].append(1)
                        for column in 0..<10 { columns[column + 3].append(Models.value(row: row, column: column, of: n)) }
                    }
                    var bindings = PostgresBindings(capacity: 13)
                    for column in columns { bindings.append(column) }
                    let names = Self.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                    let arrays = (1...13).map { "$\($0)::bigint[]" }.joined(separator: ", ")
                    let query = PostgresQuery(unsafeSQL: "INSERT INTO \"ZITEM\" (\(names)) SELECT * FROM unnest(\(arrays))", binds: bindings)
                    try blocking { _ = try await client.query(query).collect() }
                    return 0
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
            Contender(name: "raw postgres-nio (one prepared INSERT per row, in a transaction)", role: .baseline) {
                let schema = try emptyTable("insert_rows")
                let client = schema.client
                try schema.execute("SELECT 1")
                let sample = try measureMilliseconds {
                    try blocking {
                        try await client.withConnection { connection in
                            _ = try await connection.query("BEGIN", logger: PostgresSchema.logger)
                            for row in 1...n {
                                _ = try await connection.execute(ItemInsert(row: row, entity: entity, n: n), logger: PostgresSchema.logger)
                            }
                            _ = try await connection.query("COMMIT", logger: PostgresSchema.logger)
                        }
                    }
                    return 0
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
        ]
    }
}

/// One row's INSERT, prepared once per connection: what a save cost when it wrote a statement
/// (and waited for the server) per row.
struct ItemInsert: PostgresPreparedStatement {
    static let sql =
        #"INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZA", "ZB", "ZC", "ZD", "ZE", "ZF", "ZG", "ZH", "ZI", "ZJ") VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"#
    typealias Row = ()

    var row: Int64
    var entity: Int64
    var n: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 12)
        bindings.append(row)
        bindings.append(entity)
        for column in 0..<10 { bindings.append(Models.value(row: row, column: column, of: n)) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
