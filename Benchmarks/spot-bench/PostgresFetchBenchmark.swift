import Foundation
import ObjectGraph
import PostgresNIO

/// Fetches every row of a `count`-row table on PostgreSQL as objects, reading all ten values.
struct PostgresFetchBenchmark: Benchmark {
    let count: Int
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "fetch \(count.formatted) objects, read all values" }
    var notes: [String] {
        [
            "PostgreSQL fetch: ObjectGraph a new context per run (every object materialized, `returnsObjectsAsFaults = false`); Fluent `query(on:).sort(\\.$id).all()`; raw postgres-nio one unnamed statement, each row decoded into a struct"
        ]
    }

    static let selectSQL =
        #"SELECT "Z_PK", "Z_ENT", "Z_OPT", "ZA", "ZB", "ZC", "ZD", "ZE", "ZF", "ZG", "ZH", "ZI", "ZJ" FROM "ZITEM""#

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let (schema, container) = try PostgresData.items(server, rows: count, label: "fetch")
        let client = schema.client
        return [
            Contender(name: "ObjectGraph typed (@Managed)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        let request = Item.fetchRequest()
                        request.returnsObjectsAsFaults = false
                        for item in try context.fetch(request) {
                            sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                        }
                        return sum
                    }
                }
            },
            FluentBench.contender("query(on:).all()", workload: "fetch", schema: { schema }),
            Contender(name: "raw postgres-nio (unnamed statement, rows decoded into structs)", role: .baseline) {
                try measureMilliseconds {
                    try blocking {
                        var rows: [ItemRow] = []
                        for try await row in try await client.query(PostgresQuery(unsafeSQL: Self.selectSQL + #" ORDER BY "Z_PK""#)) {
                            rows.append(try ItemRow(row))
                        }
                        return rows.reduce(0) { $0 &+ $1.sum }
                    }
                }
            },
        ]
    }
}

/// A ZITEM row as the raw postgres-nio contenders decode it.
struct ItemRow: Sendable {
    var id: Int64
    var entity: Int32
    var version: Int64
    var a, b, c, d, e, f, g, h, i, j: Int64

    /// Decodes `SELECT "Z_PK", "Z_ENT", "Z_OPT", "ZA" … "ZJ"`.
    init(_ row: PostgresRow) throws {
        (id, entity, version, a, b, c, d, e, f, g, h, i, j) = try row.decode(
            (Int64, Int32, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self
        )
    }

    var sum: Int64 { a &+ b &+ c &+ d &+ e &+ f &+ g &+ h &+ i &+ j }
}
