import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Runs `queries` range queries on the indexed attribute `a` of a `rows`-row table, each
/// returning `width` objects, and reads every value of the results.
struct PredicateFetchBenchmark: Benchmark {
    let rows: Int
    let queries: Int
    let width: Int

    var name: String { "predicate fetch: \(queries) × ~\(width.formatted) of \(rows.formatted)" }
    var notes: [String] {
        [
            "predicate: FetchPredicate(format: \"a >= %@ AND a < %@\") parsed per query vs `SELECT … WHERE ZA >= ? AND ZA < ? ORDER BY Z_PK` (ObjectGraph orders by primary key too)"
        ]
    }

    /// The lower bound of query `k`.
    private func lower(_ k: Int) -> Int64 { Int64((k &* 9_973) % (rows - width)) }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let url = try workspace.itemStore(rows: rows)
        let container = try Models.container(Models.item(), at: url)
        let pool = try workspace.pool(at: url)
        let sql = "SELECT Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ FROM ZITEM WHERE ZA >= ? AND ZA < ? ORDER BY Z_PK"
        let span = Int64(width)
        return [
            Contender(name: "ObjectGraph FetchPredicate (typed)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        for k in 0..<queries {
                            let request = Item.fetchRequest()
                            request.predicate = FetchPredicate(format: "a >= %@ AND a < %@", lower(k), lower(k) + span)
                            for item in try context.fetch(request) {
                                sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                            }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "GRDB records (same SQL by hand)", role: .grdb) {
                try measureMilliseconds {
                    try pool.read { db in
                        var sum: Int64 = 0
                        for k in 0..<queries {
                            for record in try ItemRecord.fetchAll(db, sql: sql, arguments: [lower(k), lower(k) + span]) { sum = sum &+ record.sum }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "raw SQLite C (same SQL, reused statement)", role: .baseline) {
                let connection = try RawConnection(path: url.path)
                return try measureMilliseconds {
                    let statement = try connection.prepare(sql)
                    defer { sqlite3_finalize(statement) }
                    var sum: Int64 = 0
                    for k in 0..<queries {
                        sqlite3_bind_int64(statement, 1, lower(k))
                        sqlite3_bind_int64(statement, 2, lower(k) + span)
                        while sqlite3_step(statement) == SQLITE_ROW {
                            for column in Int32(3)..<13 { sum = sum &+ sqlite3_column_int64(statement, column) }
                        }
                        sqlite3_reset(statement)
                    }
                    return sum
                }
            },
        ]
    }
}
