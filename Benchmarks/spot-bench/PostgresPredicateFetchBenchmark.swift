import Foundation
import ObjectGraph
import PostgresNIO

/// Runs `queries` range queries on the indexed attribute `a` of a `rows`-row table on
/// PostgreSQL, each returning `width` objects, and reads every value of the results.
struct PostgresPredicateFetchBenchmark: Benchmark {
    let rows: Int
    let queries: Int
    let width: Int
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "predicate fetch: \(queries) × ~\(width.formatted) of \(rows.formatted)" }
    var notes: [String] {
        [
            "PostgreSQL predicate: ObjectGraph FetchPredicate(format: \"a >= %@ AND a < %@\") parsed per query; Fluent `.filter(\\.$a >= lo).filter(\\.$a < hi).sort(\\.$id).all()`; raw postgres-nio a named prepared statement (PostgresPreparedStatement) executed per query; all ordered by primary key"
        ]
    }

    /// The lower bound of query `k` (as the SQLite benchmark's, and fluent-bench's).
    private func lower(_ k: Int) -> Int64 { Int64((k &* 9_973) % (rows - width)) }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let (schema, container) = try PostgresData.items(server, rows: rows, label: "predicate")
        let client = schema.client
        let span = Int64(width)
        let bounds = (0..<queries).map { (lower($0), lower($0) + span) }
        return [
            Contender(name: "ObjectGraph FetchPredicate (typed)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        for (low, high) in bounds {
                            let request = Item.fetchRequest()
                            request.predicate = FetchPredicate(format: "a >= %@ AND a < %@", low, high)
                            for item in try context.fetch(request) {
                                sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                            }
                        }
                        return sum
                    }
                }
            },
            FluentBench.contender(
                "filter(…).all()",
                workload: "predicate",
                schema: { schema },
                arguments: ["--rows", String(rows), "--queries", String(queries), "--width", String(width)]
            ),
            Contender(name: "raw postgres-nio (prepared statement, rows decoded into structs)", role: .baseline) {
                try measureMilliseconds {
                    try blocking {
                        var sum: Int64 = 0
                        for (low, high) in bounds {
                            for try await item in try await client.execute(ItemRange(low: low, high: high)) { sum = sum &+ item.sum }
                        }
                        return sum
                    }
                }
            },
        ]
    }
}

/// The raw contender's range query, prepared once per connection by postgres-nio.
struct ItemRange: PostgresPreparedStatement {
    static let sql = PostgresFetchBenchmark.selectSQL + #" WHERE "ZA" >= $1 AND "ZA" < $2 ORDER BY "Z_PK""#
    typealias Row = ItemRow

    var low: Int64
    var high: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(low)
        bindings.append(high)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> ItemRow { try ItemRow(row) }
}
