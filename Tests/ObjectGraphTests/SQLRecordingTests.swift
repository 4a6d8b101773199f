import Foundation
import Testing

@testable import ObjectGraph

/// What SQL a context runs, recorded statement by statement: the proof of batching.
@Suite("SQL a context runs")
struct SQLRecordingTests {
    @Test("a save runs one INSERT statement per entity, executed once per row, in one transaction")
    func oneInsertStatementPerEntity() throws {
        let stack = try SQLRecordingStack()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photographer = Photographer(context: context)
            photographer.name = "Ansel"
            let tags = (0..<3).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            for number in 0..<5 {
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.photographer = photographer
                photo.tags = Set(tags)
            }
            let statements = try stack.recording { try context.save() }
            for (table, rows) in [("ZPHOTO", 5), ("ZTAG", 3), ("ZPHOTOGRAPHER", 1)] {
                let inserts = statements.inserts(into: table)
                #expect(Set(inserts).count == 1, "one INSERT statement for \(table): \(Set(inserts))")
                #expect(inserts.count == rows, "executed once per \(table) row")
            }
            #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1, "\(statements)")
            #expect(statements.filter { $0.hasPrefix("COMMIT") }.count == 1)
            #expect(statements.selects(from: "ZPHOTO").isEmpty, "a save of new objects reads nothing back")
        }
    }

    @Test("a batch of faults is read with one query per entity")
    func faultBatchOneQueryPerEntity() throws {
        let stack = try SQLRecordingStack()
        let (photoIDs, tagIDs) = try Self.insertPhotosAndTags(stack, photos: 40, tags: 10)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            let faults = (photoIDs + tagIDs).map { context.object(with: $0) }
            #expect(faults.allSatisfy { $0.isFault })
            let statements = stack.recording { context.fulfillFaults(of: faults) }
            #expect(statements.selects(from: "ZPHOTO").count == 1, "\(statements)")
            #expect(statements.selects(from: "ZTAG").count == 1, "\(statements)")
            // GRDB checks the schema version before a reader connection reuses cached statements.
            #expect(statements.touchingData.count == 2, "\(statements)")
            #expect(faults.allSatisfy { !$0.isFault })
        }
    }

    @Test("merging a save re-reads the objects it updated with one query per entity")
    func mergeReadsOneQueryPerEntity() throws {
        let stack = try SQLRecordingStack()
        let (photoIDs, tagIDs) = try Self.insertPhotosAndTags(stack, photos: 30, tags: 6)
        let viewer = stack.container.newBackgroundContext()
        // A merge refreshes the loaded objects the viewer holds (registered objects are held
        // weakly; faults are left to read their rows when they fire).
        let held: [ManagedObject] = try viewer.performAndWait {
            let photos = Photo.fetchRequest()
            photos.returnsObjectsAsFaults = false
            let tags = Tag.fetchRequest()
            tags.returnsObjectsAsFaults = false
            return try viewer.fetch(photos) + viewer.fetch(tags)
        }
        defer { withExtendedLifetime(held) {} }
        #expect(held.count == 36)
        let editor = stack.container.newBackgroundContext()
        try editor.performAndWait {
            for id in photoIDs { (try editor.existingObject(with: id) as? Photo)?.title = "retitled" }
            for id in tagIDs { (try editor.existingObject(with: id) as? Tag)?.name = "renamed \(id.primaryKey)" }
            try editor.save()
        }
        let saved = ContextDidSave(insertedObjectIDs: [], updatedObjectIDs: Set(photoIDs + tagIDs), deletedObjectIDs: [])
        try viewer.performAndWait {
            let statements = stack.recording { viewer.mergeChanges(fromContextDidSave: saved) }
            #expect(statements.selects(from: "ZPHOTO").count == 1, "\(statements)")
            #expect(statements.selects(from: "ZTAG").count == 1, "\(statements)")
            let titles = try viewer.fetch(Photo.fetchRequest()).compactMap(\.title)
            #expect(titles == Array(repeating: "retitled", count: 30))
        }
    }

    @Test("a request's plan is compiled once: a second fetch runs one statement and compiles nothing")
    func fetchPlanCompiledOnce() throws {
        let stack = try SQLRecordingStack()
        _ = try Self.insertPhotosAndTags(stack, photos: 12, tags: 2)
        let store = try #require(stack.container.persistentStoreCoordinator.store as? SQLiteStore)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "title BEGINSWITH %@", "Photo 1")
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let before = store.fetchPlansCompiled.withLock { $0 }
            let first = try context.fetch(request).compactMap(\.title)
            #expect(first == ["Photo 1", "Photo 10", "Photo 11"])
            #expect(store.fetchPlansCompiled.withLock { $0 } == before + 1)
            let plan = try #require(store.fetchPlans.plan(for: request.planKey))
            #expect(!plan.needsInMemoryEvaluation)

            var second: [String] = []
            let statements = try stack.recording { second = try context.fetch(request).compactMap(\.title) }
            #expect(second == first)
            #expect(statements.touchingData.count == 1, "\(statements)")
            #expect(try context.count(for: request) == 3)
            #expect(store.fetchPlansCompiled.withLock { $0 } == before + 1, "the second fetch and the count reuse the plan")

            // Changing the predicate gives the request a new key; the next fetch compiles a new plan.
            request.predicate = FetchPredicate(format: "title ENDSWITH '1'")
            #expect(store.fetchPlans.plan(for: request.planKey) == nil)
            #expect(try context.fetch(request).compactMap(\.title) == ["Photo 1", "Photo 11"])
            #expect(store.fetchPlansCompiled.withLock { $0 } == before + 2)
        }
    }

    @Test("a request's plan is kept by the store: another context fetching the request compiles nothing, a child context neither")
    func fetchPlanSharedByContexts() throws {
        let stack = try SQLRecordingStack()
        _ = try Self.insertPhotosAndTags(stack, photos: 12, tags: 2)
        let store = try #require(stack.container.persistentStoreCoordinator.store as? SQLiteStore)
        let request = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "title BEGINSWITH %@", "Photo 1")
        let before = store.fetchPlansCompiled.withLock { $0 }
        let first = stack.container.newBackgroundContext()
        let titles = try first.performAndWait { try first.fetch(request).compactMap(\.title).sorted() }
        #expect(titles == ["Photo 1", "Photo 10", "Photo 11"])
        let second = stack.container.newBackgroundContext()
        #expect(try second.performAndWait { try second.fetch(request).compactMap(\.title).sorted() } == titles)
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = second
        #expect(try child.performAndWait { try child.fetch(request).compactMap(\.title).sorted() } == titles)
        #expect(store.fetchPlansCompiled.withLock { $0 } == before + 1, "one plan for the request, whichever context fetches it")
    }

    @Test("a predicate SQLite can't express is decided once, then every fetch reads the entity in one statement")
    func inMemoryPredicateDecidedOnce() throws {
        let stack = try SQLRecordingStack()
        _ = try Self.insertPhotosAndTags(stack, photos: 5, tags: 1)
        let store = try #require(stack.container.persistentStoreCoordinator.store as? SQLiteStore)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Photo.fetchRequest()
            // BETWEEN with key-path bounds has no SQL form here: it is evaluated in memory.
            request.predicate = FetchPredicate(format: "unique BETWEEN {'1', title}")
            request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: false)]
            let before = store.fetchPlansCompiled.withLock { $0 }
            let first = try context.fetch(request).compactMap(\.unique)
            #expect(first == ["4", "3", "2", "1"])
            let plan = try #require(store.fetchPlans.plan(for: request.planKey))
            #expect(plan.needsInMemoryEvaluation)

            for _ in 0..<3 {
                var again: [String] = []
                let statements = try stack.recording { again = try context.fetch(request).compactMap(\.unique) }
                #expect(again == first)
                let selects = statements.touchingData
                #expect(selects.count == 1, "\(statements)")
                #expect(selects.allSatisfy { !$0.contains("WHERE") }, "the predicate is not in the SQL: \(selects)")
            }
            #expect(try context.count(for: request) == 4)
            let ids = try context.fetch(FetchRequest<ManagedObjectID>(entityName: "Photo"))
            #expect(ids.count == 5)
            #expect(store.fetchPlansCompiled.withLock { $0 } == before + 2, "one plan for the request, one for the ID request")
        }
    }

    private static func insertPhotosAndTags(_ stack: SQLRecordingStack, photos: Int, tags: Int) throws -> ([ManagedObjectID], [ManagedObjectID]) {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let tagObjects = (0..<tags).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            let photoObjects = (0..<photos).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                return photo
            }
            try context.save()
            return (photoObjects.map(\.objectID), tagObjects.map(\.objectID))
        }
    }
}
