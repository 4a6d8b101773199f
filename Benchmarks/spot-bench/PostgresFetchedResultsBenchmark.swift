import Foundation
import ObjectGraph
import PostgresNIO

/// The SQLite benchmark's fetched-results merge on PostgreSQL: a background save changes
/// `changes` entries of a `count`-entry sectioned list (not timed); timed is bringing the list
/// up to date. ObjectGraph's controller merges the save incrementally, or refetches and diffs;
/// Fluent and postgres-nio have no fetched results controller, so they do what a server using
/// them does: query the whole sorted list again and file it into sections (no diff).
struct PostgresFetchedResultsBenchmark: Benchmark {
    let count: Int
    let changes: Int
    let server: PostgresServer

    var name: String { PostgresServer.benchmarkPrefix + "fetched results: merge \(changes) changes into \(count.formatted) sectioned" }

    var notes: [String] {
        [
            "PostgreSQL fetched results: \(count.formatted) entries in 26 sections (by letter, then rank); each run an ObjectGraph background context changes \(changes) entries' rank (some their section) and saves (not timed); timed: ObjectGraph mergeChanges(fromContextDidSave:) until controllerDidChangeContent, or the controller's refetch and diff; Fluent and raw postgres-nio query the whole sorted list again and section it (what they can do without a controller; they report no row changes)"
        ]
    }

    static let listSQL = #"SELECT "Z_PK", "ZTITLE", "ZLETTER", "ZRANK" FROM "ZLISTENTRY" ORDER BY "ZLETTER", "ZRANK""#

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let (schema, container) = try PostgresData.list(server, count: count)
        let writer = container.newBackgroundContext()
        let incremental = try ListUnderTest(container: container, refetching: false)
        let refetching = try ListUnderTest(container: container, refetching: true)
        let edits = ListEdits(count: count, changes: changes)
        let client = schema.client
        let fluent = FluentBench.contender("query(on:).sort(…).all(), then sectioned", workload: "list", schema: { schema })
        return [
            Contender(name: "ObjectGraph controller, incremental", role: .objectGraph) {
                try incremental.measure(edits.next(in: writer))
            },
            Contender(name: "ObjectGraph controller, refetch and diff", role: .objectGraph) {
                try refetching.measure(edits.next(in: writer))
            },
            Contender(name: fluent.name, role: fluent.role) {
                _ = try edits.next(in: writer)
                return try fluent.run()
            },
            Contender(name: "raw postgres-nio (the sorted list again, sectioned)", role: .baseline) {
                _ = try edits.next(in: writer)
                return try measureMilliseconds {
                    try blocking {
                        var sections: [(letter: String, entries: [ListRow])] = []
                        for try await row in try await client.query(PostgresQuery(unsafeSQL: Self.listSQL)) {
                            let entry = try ListRow(row)
                            let letter = entry.letter ?? ""
                            if sections.last?.letter != letter { sections.append((letter, [])) }
                            sections[sections.count - 1].entries.append(entry)
                        }
                        return Int64(sections.reduce(0) { $0 + $1.entries.count })
                    }
                }
            },
        ]
    }
}

/// An entry of the list as the raw contender decodes it.
struct ListRow: Sendable {
    var id: Int64
    var title: String?
    var letter: String?
    var rank: Int64

    init(_ row: PostgresRow) throws {
        (id, title, letter, rank) = try row.decode((Int64, String?, String?, Int64).self)
    }
}
