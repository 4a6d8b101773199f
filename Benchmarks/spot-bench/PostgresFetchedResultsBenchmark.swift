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
        let incremental = try PostgresListUnderTest(container: container, refetching: false)
        let refetching = try PostgresListUnderTest(container: container, refetching: true)
        let edits = PostgresListEdits(count: count, changes: changes)
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

/// Picks and saves the next batch of edits (not timed).
private final class PostgresListEdits {
    let count: Int
    let changes: Int
    private var round = 0
    private var ids: [ManagedObjectID] = []

    init(count: Int, changes: Int) {
        self.count = count
        self.changes = changes
    }

    func next(in writer: ManagedObjectContext) throws -> ContextDidSave {
        round += 1
        let round = self.round
        return try writer.performAndWait {
            let saved = PostgresSaveCapture()
            let observation = writer.addDidSaveObserver { saved.value = $0 }
            defer { observation.cancel() }
            if ids.isEmpty {
                let request = FetchRequest<ManagedObjectID>(entityName: "ListEntry")
                request.resultType = .managedObjectIDResultType
                ids = try writer.fetch(request)
            }
            let stride = count / changes
            for index in 0..<changes {
                let entry = writer.object(with: ids[(index * stride + round * 7) % ids.count]) as! ListEntry
                entry.rank += Int64(count) / 3 + Int64(round)
                let letters = FetchedResultsBenchmark.letters
                if index % 10 == 0 { entry.letter = letters[(index + round) % letters.count] }
            }
            try writer.save()
            writer.reset()
            guard let value = saved.value else { throw RawConnection.Failure(description: "the writer's save was not observed") }
            return value
        }
    }
}

/// A context with a controller over the whole list, and a delegate that notes the end of a batch.
private final class PostgresListUnderTest {
    let context: ManagedObjectContext
    let controller: FetchedResultsController<ListEntry>
    let delegate = PostgresBatchCounter()

    init(container: PersistentContainer, refetching: Bool) throws {
        context = container.newBackgroundContext()
        let request = FetchedResultsBenchmark.listRequest()
        // A fetch limit makes the controller refetch and diff on every change.
        if refetching { request.fetchLimit = Int(Int32.max) }
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "letter", cacheName: nil)
        controller.delegate = delegate
        try context.performAndWait { try controller.performFetch() }
    }

    func measure(_ saved: ContextDidSave) throws -> Sample {
        try context.performAndWait {
            let before = delegate.batches
            let sample = measureMilliseconds {
                context.mergeChanges(fromContextDidSave: saved)
                return Int64(controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? 0)
            }
            guard delegate.batches == before + 1 else {
                throw RawConnection.Failure(description: "the controller reported \(delegate.batches - before) batches, not 1")
            }
            return sample
        }
    }
}

private final class PostgresBatchCounter: FetchedResultsControllerDelegate {
    var batches = 0
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { batches += 1 }
}

private final class PostgresSaveCapture: @unchecked Sendable {
    // @unchecked Sendable: written by a did-save observer on the writer's queue, read there too.
    var value: ContextDidSave?
}
