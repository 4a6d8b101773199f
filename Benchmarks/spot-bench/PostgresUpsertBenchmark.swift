import Foundation
import ObjectGraph
import PostgresNIO

/// Upserts `count` objects into a table of `count` rows that has every one of their keys, on
/// PostgreSQL: ObjectGraph's batch insert (an entity with a uniqueness constraint) against one
/// raw `INSERT … ON CONFLICT DO UPDATE` from unnest; every run in a new schema.
struct PostgresUpsertBenchmark: Benchmark {
    let count: Int
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "batch upsert \(count.formatted) into \(count.formatted)" }
    var notes: [String] {
        [
            "PostgreSQL batch upsert: each run in a new schema whose ZKEYED table (a unique index on ZKEY) holds \(count.formatted) rows; every object's key is stored, so each updates its row's payload (ObjectGraph: BatchInsertRequest of dictionaries, its time including reserving keys, converting and checking the input, persistent history and NOTIFY; raw: one INSERT … SELECT FROM unnest of three array binds … ON CONFLICT (ZKEY) DO UPDATE)"
        ]
    }

    /// `Keyed`: `key` unique, `payload`.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Keyed") {
                AttributeDescription("key", .integer64)
                AttributeDescription("payload", .string)
            }
            .unique("key")
        }
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let template = try server.newSchema("upsert_template")
        _ = try template.container(Self.model())
        let entity = try template.int(#"SELECT "Z_ENT" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Keyed'"#)
        let n = count
        let checksumSQL = #"SELECT COUNT(*) FROM "ZKEYED" WHERE "ZPAYLOAD" = 'p' || "ZKEY""#
        /// `count` stored rows, keys 0..<count, in `schema`'s ZKEYED (and their keys reserved
        /// in ObjectGraph's Z_PRIMARYKEY when the schema has it).
        func storeRows(_ schema: PostgresSchema, reservingKeys: Bool) throws {
            try schema.execute(
                #"INSERT INTO "ZKEYED" ("Z_PK", "Z_ENT", "Z_OPT", "ZKEY", "ZPAYLOAD") SELECT g + 1, \#(entity), 1, g, 'stored' FROM generate_series(0, \#(n - 1)) g"#,
                #"ANALYZE "ZKEYED""#
            )
            if reservingKeys { try schema.execute(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = \#(n) WHERE "Z_NAME" = 'Keyed'"#) }
        }
        return [
            Contender(name: "ObjectGraph BatchInsertRequest (dictionaries)", role: .objectGraph) {
                let schema = try server.newSchema("upsert_og")
                let container = try schema.container(Self.model())
                try storeRows(schema, reservingKeys: true)
                let context = container.newBackgroundContext()
                let sample = try context.performAndWait {
                    try measureMilliseconds {
                        let objects: [[String: Any]] = (0..<n).map { ["key": Int64(n - 1 - $0), "payload": "p\(n - 1 - $0)"] }
                        _ = try context.execute(BatchInsertRequest(entityName: "Keyed", objects: objects))
                        return 0
                    }
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
            Contender(name: "raw postgres-nio (one INSERT … SELECT FROM unnest … ON CONFLICT DO UPDATE)", role: .baseline) {
                let schema = try server.newSchema("upsert_raw")
                try schema.execute(#"CREATE TABLE "ZKEYED" (LIKE "\#(template.name)"."ZKEYED" INCLUDING ALL)"#)
                try storeRows(schema, reservingKeys: false)
                let client = schema.client
                let sample = try measureMilliseconds {
                    var keys: [Int64] = []
                    var payloads: [String] = []
                    var primaryKeys: [Int64] = []
                    keys.reserveCapacity(n)
                    payloads.reserveCapacity(n)
                    primaryKeys.reserveCapacity(n)
                    for index in 0..<n {
                        keys.append(Int64(n - 1 - index))
                        payloads.append("p\(n - 1 - index)")
                        primaryKeys.append(Int64(n + 1 + index))
                    }
                    var bindings = PostgresBindings(capacity: 3)
                    bindings.append(primaryKeys)
                    bindings.append(keys)
                    bindings.append(payloads)
                    let sql = #"""
                        INSERT INTO "ZKEYED" ("Z_PK", "Z_ENT", "Z_OPT", "ZKEY", "ZPAYLOAD") \#
                        SELECT u.pk, \#(entity), 1, u.k, u.p FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(pk, k, p) \#
                        ON CONFLICT ("ZKEY") DO UPDATE SET "ZPAYLOAD" = excluded."ZPAYLOAD", "Z_OPT" = "ZKEYED"."Z_OPT" + 1
                        """#
                    let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
                    try blocking { _ = try await client.query(query).collect() }
                    return 0
                }
                return Sample(value: sample.value, checksum: try schema.int(checksumSQL))
            },
        ]
    }
}
