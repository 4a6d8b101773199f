import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Fetches the identities of every row of a `count`-row table (no values).
struct FetchObjectIDsBenchmark: Benchmark {
    let count: Int

    var name: String { "fetch \(count.formatted) object IDs" }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let url = try workspace.itemStore(rows: count)
        let container = try Models.container(Models.item(), at: url)
        let pool = try workspace.pool(at: url)
        return [
            Contender(name: "ObjectGraph (managedObjectIDResultType)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        let request = FetchRequest<ManagedObjectID>(entityName: "Item")
                        request.resultType = .managedObjectIDResultType
                        return try context.fetch(request).reduce(0) { $0 &+ $1.primaryKey }
                    }
                }
            },
            Contender(name: "GRDB primary keys (Int64.fetchAll)", role: .grdb) {
                try measureMilliseconds {
                    try pool.read { db in
                        try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZITEM ORDER BY Z_PK").reduce(0, &+)
                    }
                }
            },
            Contender(name: "raw SQLite C (step loop)", role: .baseline) {
                let connection = try RawConnection(path: url.path)
                return try measureMilliseconds {
                    let statement = try connection.prepare("SELECT Z_PK FROM ZITEM ORDER BY Z_PK")
                    defer { sqlite3_finalize(statement) }
                    var keys: [Int64] = []
                    while sqlite3_step(statement) == SQLITE_ROW { keys.append(sqlite3_column_int64(statement, 0)) }
                    return keys.reduce(0, &+)
                }
            },
        ]
    }
}
