import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Inserts `count` rows of ten integers into a new, empty file and saves (one transaction).
struct InsertBenchmark: Benchmark {
    let count: Int

    var name: String { "insert \(count.formatted) + save" }
    var notes: [String] {
        ["insert: each run writes a new file; ObjectGraph's time includes reserving primary keys, change tracking and validation at save"]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let schema = workspace.itemSchemaSQL
        let n = Int64(count)
        return [
            Contender(name: "ObjectGraph typed (@Managed)", role: .objectGraph) {
                try objectGraphRun(workspace) { context in
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
                }
            },
            Contender(name: "ObjectGraph dynamic (setValue)", role: .objectGraph) {
                let keys = Models.itemKeys
                return try objectGraphRun(workspace) { context in
                    for row in 1...n {
                        let item = try context.insertObject(entityName: "Item")
                        for (column, key) in keys.enumerated() {
                            item.setValue(Models.value(row: row, column: column, of: n), forKey: key)
                        }
                    }
                }
            },
            Contender(name: "GRDB records, Codable (insert in one write)", role: .grdb) {
                try grdbRun(workspace, label: "insert-grdb") { row in ItemRecord(row: row, of: n) }
            },
            Contender(name: "GRDB records, hand-written encode(to:) (insert in one write)", role: .grdb) {
                try grdbRun(workspace, label: "insert-grdb-row") { row in ItemRowRecord(row: row, of: n) }
            },
            Contender(name: "raw SQLite C (one prepared statement)", role: .baseline) {
                let url = workspace.freshURL("insert-raw")
                defer { workspace.removeDatabase(at: url) }
                let connection = try RawConnection(path: url.path)
                for statement in schema { try connection.execute(statement) }
                var sample = try measureMilliseconds {
                    try connection.execute("BEGIN")
                    let statement = try connection.prepare(
                        "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    )
                    for row in 1...n {
                        sqlite3_bind_int64(statement, 1, row)
                        sqlite3_bind_int64(statement, 2, 1)
                        sqlite3_bind_int64(statement, 3, 1)
                        for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 4), Models.value(row: row, column: column, of: n)) }
                        try connection.stepDone(statement)
                        sqlite3_reset(statement)
                    }
                    sqlite3_finalize(statement)
                    try connection.execute("COMMIT")
                    return 0
                }
                sample.checksum = try connection.int(Self.checksumSQL)
                return sample
            },
        ]
    }

    /// Opens a new GRDB pool on a new file with the schema (not measured), then measures
    /// inserting every row's record in one write.
    private func grdbRun<Record: PersistableRecord>(
        _ workspace: Workspace,
        label: String,
        record: (Int64) -> Record
    ) throws -> Sample {
        let url = workspace.freshURL(label)
        defer { workspace.removeDatabase(at: url) }
        let pool = try workspace.pool(at: url)
        try pool.write { db in for statement in workspace.itemSchemaSQL { try db.execute(sql: statement) } }
        var sample = try measureMilliseconds {
            try pool.write { db in
                for row in 1...Int64(count) { try record(row).insert(db) }
            }
            return 0
        }
        sample.checksum = try pool.read { db in try Int64.fetchOne(db, sql: Self.checksumSQL) ?? 0 }
        try pool.close()
        return sample
    }

    /// The sum of every value written, read back after the save (same for every contender).
    static let checksumSQL = "SELECT SUM(ZA + ZB + ZC + ZD + ZE + ZF + ZG + ZH + ZI + ZJ) FROM ZITEM"

    /// Opens a new ObjectGraph store (not measured), then measures `insert` and `save()`.
    private func objectGraphRun(_ workspace: Workspace, insert: (ManagedObjectContext) throws -> Void) throws -> Sample {
        let url = workspace.freshURL("insert-og")
        defer { workspace.removeDatabase(at: url) }
        let container = try Models.container(Models.item(), at: url)
        let context = container.newBackgroundContext()
        let sample = try context.performAndWait {
            try measureMilliseconds {
                try insert(context)
                try context.save()
                return 0
            }
        }
        let pool = try workspace.pool(at: url)
        let checksum = try pool.read { db in try Int64.fetchOne(db, sql: Self.checksumSQL) ?? 0 }
        try pool.close()
        return Sample(value: sample.value, checksum: checksum)
    }
}

extension Int {
    /// `50_000` as "50k", `1_000_000` as "1M".
    var formatted: String {
        if self >= 1_000_000, self % 1_000_000 == 0 { return "\(self / 1_000_000)M" }
        if self >= 1_000, self % 1_000 == 0 { return "\(self / 1_000)k" }
        return "\(self)"
    }
}
