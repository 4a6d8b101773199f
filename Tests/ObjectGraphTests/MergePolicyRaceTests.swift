import Foundation
import ObjectGraph
import Testing

/// Conflicts are detected inside the save's transaction: contexts saving the same object at
/// the same time never lose an update.
@Suite("Optimistic locking with concurrent contexts")
struct MergePolicyRaceTests {
    /// A saved photo whose `views` the tests increment.
    private static func savedCounter(in stack: TestStack) throws -> ManagedObjectID {
        let setup = stack.container.newBackgroundContext()
        return try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "counter"
            try setup.save()
            return photo.objectID
        }
    }

    @Test("two contexts incrementing one counter concurrently lose no increment")
    func concurrentIncrements() async throws {
        let stack = try TestStack()
        let id = try Self.savedCounter(in: stack)
        // Each save adds one to what it read; on a conflict, one to what the store holds now.
        let addOne = MergePolicy(name: "add one") { conflicts, context in
            for conflict in conflicts {
                guard let photo = context.registeredObject(for: conflict.sourceObjectID) as? Photo else { continue }
                photo.views = (conflict.persistedSnapshot?["views"] as? Int64 ?? 0) + 1
            }
        }
        let increments = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                let context = stack.container.newBackgroundContext()
                group.addTask {
                    try await context.perform {
                        context.mergePolicy = addOne
                        let photo = try #require(try context.existingObject(with: id) as? Photo)
                        for _ in 0..<increments {
                            photo.views += 1
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let fresh = stack.container.newBackgroundContext()
        let views = try fresh.performAndWait { try #require(try fresh.existingObject(with: id) as? Photo).views }
        #expect(views == Int64(2 * increments))
    }

    @Test("with the error policy, concurrent saves of one object: each either saves or throws a conflict")
    func concurrentErrors() async throws {
        let stack = try TestStack()
        let id = try Self.savedCounter(in: stack)
        let saves = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                let context = stack.container.newBackgroundContext()
                group.addTask {
                    try await context.perform {
                        let photo = try #require(try context.existingObject(with: id) as? Photo)
                        var saved = 0
                        for _ in 0..<20 {
                            photo.views += 1
                            do {
                                try context.save()
                                saved += 1
                            } catch let error as ObjectGraphError where error.code == .managedObjectMerge {
                                // Start again from the store's values.
                                context.refresh(photo, mergeChanges: false)
                            }
                        }
                        return saved
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let fresh = stack.container.newBackgroundContext()
        let views = try fresh.performAndWait { try #require(try fresh.existingObject(with: id) as? Photo).views }
        #expect(views == Int64(saves))
    }

    @MainActor
    @Test("a context that merged another's save saves over it without a conflict")
    func mergedSaveIsNoConflict() async throws {
        let stack = try TestStack()
        let view = stack.container.viewContext
        let photo = Photo(context: view)
        photo.unique = "p"
        photo.title = "T0"
        try view.save()
        photo.subtitle = "view's unsaved subtitle"
        let id = photo.objectID
        let background = stack.container.newBackgroundContext()
        var saves = background.didSaveNotifications().makeAsyncIterator()
        try await background.perform {
            try #require(try background.existingObject(with: id) as? Photo).title = "background's title"
            try background.save()
        }
        view.mergeChanges(fromContextDidSave: try #require(await saves.next()))
        try view.save()  // the error policy: no conflict, the merge read the new version
        let fresh = stack.container.newBackgroundContext()
        let stored = try fresh.performAndWait {
            let photo = try #require(try fresh.existingObject(with: id) as? Photo)
            return [photo.title, photo.subtitle]
        }
        #expect(stored == ["background's title", "view's unsaved subtitle"])
    }
}
