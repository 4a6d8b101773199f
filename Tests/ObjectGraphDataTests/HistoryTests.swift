import Foundation
import ObjectGraph
import ObjectGraphData
import ObjectGraphPostgres
import Testing
import TestSupport

/// SwiftData's history API (`fetchHistory`, `HistoryDescriptor`, tokens, tombstones,
/// `deleteHistory`) and other containers' saves merging, on an SQLite file and on PostgreSQL.
@Suite("ObjectGraphData history")
struct HistoryTests {
    /// The store kinds the tests run on.
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }

        /// A configuration of a new, empty store of this kind.
        /// The PostgreSQL store type is registered first: the tests are their program's root,
        /// and must not count on another suite having registered it.
        func configuration() throws -> ModelConfiguration {
            switch self {
            case .sqlite: return ModelConfiguration(url: TestFiles.url("history.store"))
            case .postgres:
                PersistentStoreCoordinator.registerPostgreSQLStoreType()
                return ModelConfiguration(url: try TestPostgres.newSchemaURL(prefix: "ogdhist"), storeType: PostgreSQLStoreType)
            }
        }
    }

    typealias Descriptor = HistoryDescriptor<DefaultHistoryTransaction>

    @Test("Each save is a transaction: inserts, updated attributes, and a tombstone for deletes", arguments: Store.allCases)
    func transactions(store: Store) throws {
        let context = ModelContext(try makeContainer(try store.configuration()))
        context.author = "app"
        let tag = Tag(name: "tower", uses: 1)
        context.insert(tag)
        try context.save()
        let id = tag.persistentModelID
        tag.uses = 3
        try context.save()
        context.delete(tag)
        try context.save()

        let transactions = try context.fetchHistory(Descriptor())
        #expect(transactions.count == 3)
        #expect(transactions.map(\.author) == ["app", "app", "app"])
        #expect(transactions.map(\.token) == transactions.map(\.token).sorted())
        let changes = transactions.map { $0.changes.filter { $0.changedPersistentIdentifier == id } }
        #expect(changes.map(\.count) == [1, 1, 1])

        guard case .insert(let insert)? = changes[0].first else {
            Issue.record("the first save is not an insert: \(changes[0])")
            return
        }
        #expect(insert is DefaultHistoryInsert<Tag>)
        guard case .update(let anyUpdate)? = changes[1].first, let update = anyUpdate as? DefaultHistoryUpdate<Tag> else {
            Issue.record("the second save is not an update of a Tag: \(changes[1])")
            return
        }
        #expect(update.updatedAttributes.contains { $0 == \Tag.uses })
        #expect(!update.updatedAttributes.contains { $0 == \Tag.name })
        guard case .delete(let anyDelete)? = changes[2].first, let delete = anyDelete as? DefaultHistoryDelete<Tag> else {
            Issue.record("the third save is not a delete of a Tag: \(changes[2])")
            return
        }
        // `name` is `.preserveValueOnDeletion`, `uses` is not.
        #expect(delete.tombstone[\Tag.name] as? String == "tower")
        #expect(delete.tombstone[\Tag.uses] == nil)
        #expect(delete.changedPersistentIdentifier == id)
    }

    @Test("A token predicate reads what was saved after it; author predicates filter; sort and limit apply", arguments: Store.allCases)
    func tokensAndAuthors(store: Store) throws {
        let container = try makeContainer(try store.configuration())
        let app = ModelContext(container)
        app.author = "app"
        let importer = ModelContext(container)
        importer.author = "importer"
        app.insert(Tag(name: "a"))
        try app.save()
        let first = try #require(try app.fetchHistory(Descriptor()).last?.token)
        importer.insert(Tag(name: "b"))
        try importer.save()
        app.insert(Tag(name: "c"))
        try app.save()

        // The token survives encoding, as an app stores it between launches.
        let saved = try JSONDecoder().decode(DefaultHistoryToken.self, from: JSONEncoder().encode(first))
        #expect(saved == first)
        let after = try app.fetchHistory(Descriptor(predicate: #Predicate { $0.token > saved }))
        #expect(after.map(\.author) == ["importer", "app"])
        let others = try app.fetchHistory(Descriptor(predicate: #Predicate { $0.token > saved && $0.author != "app" }))
        #expect(others.map(\.author) == ["importer"])
        let fromFirst = try app.fetchHistory(Descriptor(predicate: #Predicate { $0.token >= saved }))
        #expect(fromFirst.count == 3)

        var newestFirst = Descriptor(predicate: nil, sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newestFirst.fetchLimit = 2
        let newest = try app.fetchHistory(newestFirst)
        #expect(newest.map(\.author) == ["app", "importer"])
        #expect(newest.first?.transactionIdentifier == after.last?.transactionIdentifier)
    }

    @Test("deleteHistory cuts the log up to the newest transaction selected; older tokens expire", arguments: Store.allCases)
    func deleteHistory(store: Store) throws {
        let context = ModelContext(try makeContainer(try store.configuration()))
        for name in ["a", "b", "c"] {
            context.insert(Tag(name: name))
            try context.save()
        }
        let tokens = try context.fetchHistory(Descriptor()).map(\.token)
        #expect(tokens.count == 3)
        let second = tokens[1]
        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.token <= second }))
        #expect(try context.fetchHistory(Descriptor()).map(\.token) == [tokens[2]])
        // A reader that processed up to the second transaction goes on where it was.
        #expect(try context.fetchHistory(Descriptor(predicate: #Predicate { $0.token > second })).map(\.token) == [tokens[2]])
        // One that stopped at the first missed the second: its token expired.
        let first = tokens[0]
        #expect(throws: ObjectGraphError.self) {
            try context.fetchHistory(Descriptor(predicate: #Predicate { $0.token > first }))
        }
    }

    @Test(
        "Another container's save merges into this container's contexts and shows in history",
        .timeLimit(.minutes(1)),
        arguments: Store.allCases
    )
    func remoteSaveMerges(store: Store) async throws {
        let configuration = try store.configuration()
        let server = try makeContainer(configuration)
        let serverContext = ModelContext(server)
        let tag = Tag(name: "tower", uses: 1)
        serverContext.insert(tag)
        try serverContext.save()
        var announcements = server.persistentContainer.persistentStoreCoordinator.remoteChanges.makeAsyncIterator()

        // Another container on the same store: another process, as far as the store can tell.
        let worker = try makeContainer(configuration)
        let workerContext = ModelContext(worker)
        workerContext.author = "worker"
        let workerTag = try #require(try workerContext.fetch(FetchDescriptor<Tag>()).first)
        workerTag.uses = 9
        workerContext.insert(Tag(name: "quad"))
        try workerContext.save()

        // The server's context still holds the tag it saved; the worker's save reaches it, merged
        // before the announcement of the commit arrives.
        var announced = 0
        while tag.uses != 9, announced < 10 {
            _ = try #require(await announcements.next())
            announced += 1
        }
        #expect(tag.uses == 9)
        #expect(try serverContext.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["quad", "tower"])
        let fromWorker = try serverContext.fetchHistory(Descriptor(predicate: #Predicate { $0.author == "worker" }))
        #expect(fromWorker.count == 1)
        #expect(fromWorker.first?.changes.count == 2)
    }
}
