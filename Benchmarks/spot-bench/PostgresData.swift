import Foundation
import ObjectGraph
import PostgresNIO

/// The PostgreSQL benchmarks' data sets, each in a new schema, in ObjectGraph's tables (made by
/// opening an ObjectGraph store on the schema), so that every contender reads the same rows.
/// Built outside any measurement and analysed (`VACUUM ANALYZE`) before the first run.
enum PostgresData {
    /// `rows` Items (values from ``Models/value(row:column:of:)``), copied in with `COPY`, and
    /// an ObjectGraph container on them.
    static func items(_ server: PostgresServer, rows: Int, label: String) throws -> (PostgresSchema, PersistentContainer) {
        let schema = try server.newSchema(label)
        let container = try schema.container(Models.item())
        let entity = try schema.int(#"SELECT "Z_ENT" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Item'"#)
        let n = Int64(rows)
        try schema.copy(into: "ZITEM", columns: PostgresInsertBenchmark.columns, rows: rows) { index, buffer in
            buffer.writeItemRow(Int64(index) + 1, entity: entity, of: n)
        }
        try schema.execute(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = \#(rows) WHERE "Z_ENT" = \#(entity)"#, #"VACUUM ANALYZE "ZITEM""#)
        return (schema, container)
    }

    /// `photos` photos, each with `tagsPerPhoto` of `tags` tags (the SQLite walk's data), written
    /// through ObjectGraph; plus Fluent's pivot (`FLUENT_PHOTO_TAG`: its own `id`, `photo`,
    /// `tag`, indexed both ways as ObjectGraph's join table is) holding the same memberships.
    /// Returns the schema, a container on it and the name of ObjectGraph's join table.
    static func photos(_ server: PostgresServer, sizes: Sizes) throws -> (PostgresSchema, PersistentContainer, String) {
        let schema = try server.newSchema("photos")
        let container = try schema.container(Models.photos())
        try Models.savePhotos(sizes: sizes, in: container)
        let joins = try schema.strings(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = '\(schema.name)' AND table_name ~ '^Z_[0-9]+TAGS$'"
        )
        guard let join = joins.first else { throw RawConnection.Failure(description: "no photo-tag join table in \(schema.name)") }
        try schema.execute(
            #"CREATE TABLE "FLUENT_PHOTO_TAG" ("id" BIGSERIAL PRIMARY KEY, "photo" BIGINT NOT NULL, "tag" BIGINT NOT NULL)"#,
            #"INSERT INTO "FLUENT_PHOTO_TAG" ("photo", "tag") SELECT "Z_SOURCE", "Z_DESTINATION" FROM "\#(join)" ORDER BY 1, 2"#,
            #"CREATE INDEX ON "FLUENT_PHOTO_TAG" ("photo", "tag")"#,
            #"CREATE INDEX ON "FLUENT_PHOTO_TAG" ("tag", "photo")"#,
            #"VACUUM ANALYZE "ZPHOTO""#,
            #"VACUUM ANALYZE "ZTAG""#,
            #"VACUUM ANALYZE "\#(join)""#,
            #"VACUUM ANALYZE "FLUENT_PHOTO_TAG""#
        )
        return (schema, container, join)
    }

    /// The fetched-results list: `count` entries over the 26 letters, written through ObjectGraph.
    static func list(_ server: PostgresServer, count: Int) throws -> (PostgresSchema, PersistentContainer) {
        let schema = try server.newSchema("list")
        let container = try schema.container(FetchedResultsBenchmark.model())
        try FetchedResultsBenchmark.saveList(count: count, in: container)
        try schema.execute(#"VACUUM ANALYZE "ZLISTENTRY""#)
        return (schema, container)
    }
}
