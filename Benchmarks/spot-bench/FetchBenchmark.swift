import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Fetches every row of a `count`-row table as objects, reading all ten values of each.
struct FetchBenchmark: Benchmark {
    let count: Int

    var name: String { "fetch \(count.formatted) objects, read all values" }
    var notes: [String] {
        ["fetch: each ObjectGraph run uses a new context, so every object is materialized (no uniquing hits)"]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let url = try workspace.itemStore(rows: count)
        let container = try Models.container(Models.item(), at: url)
        let pool = try workspace.pool(at: url)
        return [
            Contender(name: "ObjectGraph typed (@Managed)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        // Materialized, as GRDB's published Core Data comparison fetches.
                        let request = Item.fetchRequest()
                        request.returnsObjectsAsFaults = false
                        for item in try context.fetch(request) {
                            sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                        }
                        return sum
                    }
                }
            },
            Contender(name: "ObjectGraph dynamic (value(forKey:))", role: .objectGraph) {
                let context = container.newBackgroundContext()
                let keys = Models.itemKeys
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        let request = FetchRequest<ManagedObject>(entityName: "Item")
                        request.returnsObjectsAsFaults = false
                        for object in try context.fetch(request) {
                            for key in keys { sum = sum &+ (object.value(forKey: key) as? Int64 ?? 0) }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "ObjectGraph dynamic, caller's type (value(forKey:as:))", role: .objectGraph) {
                let context = container.newBackgroundContext()
                let keys = Models.itemKeys
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        let request = FetchRequest<ManagedObject>(entityName: "Item")
                        request.returnsObjectsAsFaults = false
                        for object in try context.fetch(request) {
                            for key in keys { sum = sum &+ (object.value(forKey: key, as: Int64.self) ?? 0) }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "GRDB records, Codable (fetchAll)", role: .grdb) {
                try measureMilliseconds {
                    try pool.read { db in
                        try ItemRecord.fetchAll(db, sql: "SELECT * FROM ZITEM ORDER BY Z_PK").reduce(0) { $0 &+ $1.sum }
                    }
                }
            },
            Contender(name: "GRDB records, hand-written init(row:) (fetchAll)", role: .grdb) {
                try measureMilliseconds {
                    try pool.read { db in
                        try ItemRowRecord.fetchAll(db, sql: "SELECT * FROM ZITEM ORDER BY Z_PK").reduce(0) { $0 &+ $1.sum }
                    }
                }
            },
            Contender(name: "raw SQLite C (step loop)", role: .baseline) {
                let connection = try RawConnection(path: url.path)
                return try measureMilliseconds {
                    let statement = try connection.prepare(
                        "SELECT Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ FROM ZITEM ORDER BY Z_PK"
                    )
                    defer { sqlite3_finalize(statement) }
                    var sum: Int64 = 0
                    while sqlite3_step(statement) == SQLITE_ROW {
                        for column in Int32(3)..<13 { sum = sum &+ sqlite3_column_int64(statement, column) }
                    }
                    return sum
                }
            },
        ]
    }
}
