import Foundation
import ObjectGraph

/// An entry of a long sectioned list, for the fetched-results benchmark.
final class ListEntry: ManagedObject {
    @Managed var title: String?
    @Managed var letter: String?
    @Managed var rank: Int64
}

/// A background save changing `changes` objects of a `count`-object sectioned list, merged
/// into the list's context until the controller's delegate has heard the whole batch —
/// incrementally, and by refetching and diffing the whole list (what a controller does with a
/// fetch limit, and what a naive implementation always does).
struct FetchedResultsBenchmark: Benchmark {
    let count: Int
    let changes: Int

    var name: String { "fetched results: merge \(changes) changes into \(count.formatted) sectioned" }

    var notes: [String] {
        [
            "fetched results: \(count.formatted) entries in 26 sections (sorted by letter, then rank); each run a background context changes \(changes) entries' rank (some also their section) and saves (not timed); timed: mergeChanges(fromContextDidSave:) in the list's context until controllerDidChangeContent. \"× raw C\" is against the full refetch-and-diff here"
        ]
    }

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("ListEntry", class: ListEntry.self) {
                AttributeDescription("title", .string)
                AttributeDescription("letter", .string)
                AttributeDescription("rank", .integer64, optional: false, defaultValue: 0)
            }
            .index("letter", "rank")
        }
    }

    static let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }

    /// A store holding `count` entries spread over the 26 letters.
    static func makeList(count: Int, in workspace: Workspace, named name: String) throws -> PersistentContainer {
        let container = try Models.container(model(), at: workspace.freshURL(name))
        try saveList(count: count, in: container)
        return container
    }

    /// Saves `count` entries spread over the 26 letters through `container` (SQLite or PostgreSQL).
    static func saveList(count: Int, in container: PersistentContainer) throws {
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for index in 0..<count {
                let entry = ListEntry(context: writer)
                entry.letter = letters[index % letters.count]
                entry.rank = Int64(index)
                entry.title = "\(entry.letter!) \(index)"
            }
            try writer.save()
        }
    }

    /// The list's request: by letter (the section), then rank.
    static func listRequest() -> FetchRequest<ListEntry> {
        let request = FetchRequest<ListEntry>(entityName: "ListEntry")
        request.sortDescriptors = [FetchSortDescriptor(key: "letter", ascending: true), FetchSortDescriptor(key: "rank", ascending: true)]
        return request
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let container = try Self.makeList(count: count, in: workspace, named: "list")
        let writer = container.newBackgroundContext()
        let incremental = try ListUnderTest(container: container, refetching: false)
        let refetching = try ListUnderTest(container: container, refetching: true)
        let edits = ListEdits(count: count, changes: changes)
        return [
            Contender(name: "ObjectGraph controller, incremental", role: .objectGraph) {
                try incremental.measure(edits.next(in: writer))
            },
            Contender(name: "ObjectGraph controller, refetch and diff", role: .baseline) {
                try refetching.measure(edits.next(in: writer))
            },
        ]
    }
}

/// Picks and saves the next batch of edits (not timed); for the SQLite and PostgreSQL lists alike.
final class ListEdits {
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
            let saved = SaveCapture()
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
final class ListUnderTest {
    let context: ManagedObjectContext
    let controller: FetchedResultsController<ListEntry>
    let delegate = BatchCounter()

    init(container: PersistentContainer, refetching: Bool) throws {
        context = container.newBackgroundContext()
        let request = FetchedResultsBenchmark.listRequest()
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

final class BatchCounter: FetchedResultsControllerDelegate {
    var batches = 0
    var changes = 0
    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {
        changes += 1
    }
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) { batches += 1 }
}

final class SaveCapture: @unchecked Sendable {
    // @unchecked Sendable: written by a did-save observer on the writer's queue, read there too.
    var value: ContextDidSave?
}

/// The first fetch of a `count`-object sectioned list: the controller's `performFetch()` against
/// the plain fetch it runs. The difference is what filing objects into sections costs — the
/// most a persistent section cache (`cacheName`) could save.
struct FetchedResultsFirstFetchBenchmark: Benchmark {
    let count: Int

    var name: String { "fetched results: first fetch of \(count.formatted) sectioned" }

    var notes: [String] {
        ["fetched results first fetch: a new context each run; \"× raw C\" is against the plain fetch of the same request (no sections)"]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let container = try FetchedResultsBenchmark.makeList(count: count, in: workspace, named: "list-first")
        let request = FetchedResultsBenchmark.listRequest
        return [
            Contender(name: "ObjectGraph controller performFetch (26 sections)", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        let controller = FetchedResultsController(
                            fetchRequest: request(),
                            managedObjectContext: context,
                            sectionNameKeyPath: "letter",
                            cacheName: nil
                        )
                        try controller.performFetch()
                        return Int64(controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? 0)
                    }
                }
            },
            Contender(name: "ObjectGraph context fetch (same request)", role: .baseline) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds { Int64(try context.fetch(request()).count) }
                }
            },
        ]
    }
}
