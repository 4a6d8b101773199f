import Foundation
import ObjectGraph
import PostgresNIO

/// Visits every photo on PostgreSQL and reads the name of each of its tags (many-to-many).
struct PostgresRelationshipWalkBenchmark: Benchmark {
    let sizes: Sizes
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "relationship walk: \(sizes.photos.formatted) photos × \(sizes.tagsPerPhoto) tags" }
    var notes: [String] {
        [
            "PostgreSQL walk: ObjectGraph without prefetching runs one query per photo's tags and one per tag fault, with relationshipKeyPathsForPrefetching = [\"tags\"] three (photos, memberships, tags; per 500 sources); Fluent eager-loads `with(\\.$tags)` (2 queries: photos, then tags joined with its pivot for every photo's id); raw postgres-nio one JOIN"
        ]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let (schema, container, join) = try PostgresData.photos(server, sizes: sizes)
        let client = schema.client
        let joinSQL =
            #"SELECT p."Z_PK", p."ZTITLE", t."ZNAME" FROM "ZPHOTO" p LEFT JOIN "\#(join)" j ON j."Z_SOURCE" = p."Z_PK" LEFT JOIN "ZTAG" t ON t."Z_PK" = j."Z_DESTINATION" ORDER BY p."Z_PK""#
        func walk(prefetching: Bool) -> () throws -> Sample {
            {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        let request = BenchPhoto.fetchRequest()
                        if prefetching { request.relationshipKeyPathsForPrefetching = ["tags"] }
                        var sum: Int64 = 0
                        for photo in try context.fetch(request) {
                            sum = sum &+ Int64(photo.title?.utf8.count ?? 0)
                            for tag in photo.tags { sum = sum &+ Int64(tag.name?.utf8.count ?? 0) }
                        }
                        return sum
                    }
                }
            }
        }
        return [
            Contender(name: "ObjectGraph typed, without prefetching", role: .objectGraph, run: walk(prefetching: false)),
            Contender(name: "ObjectGraph typed, prefetching tags", role: .objectGraph, run: walk(prefetching: true)),
            FluentBench.contender("eager loading, with(\\.$tags)", workload: "walk", schema: { schema }),
            Contender(name: "raw postgres-nio (one JOIN, rows decoded into tuples)", role: .baseline) {
                try measureMilliseconds {
                    try blocking {
                        var sum: Int64 = 0
                        var previous: Int64 = -1
                        for try await row in try await client.query(PostgresQuery(unsafeSQL: joinSQL)) {
                            let (key, title, name) = try row.decode((Int64, String?, String?).self)
                            if key != previous { sum = sum &+ Int64(title?.utf8.count ?? 0) }
                            previous = key
                            sum = sum &+ Int64(name?.utf8.count ?? 0)
                        }
                        return sum
                    }
                }
            },
        ]
    }
}
