import Foundation
import ObjectGraph
import Testing

/// Conflicts are detected inside the save's transaction: contexts saving the same object at
/// the same time never lose an update.
@Suite("Optimistic locking under concurrent saves")
struct MergePolicyRaceTests {
    @Test("two contexts incrementing one counter concurrently lose no increment")
    func concurrentIncrements() async throws {
        let stack = try TestStack()
        let setup = stack.container.newBackgroundContext()
        let id = try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "counter"
            try setup.save()
            return photo.objectID
        }
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
        let setup = stack.container.newBackgroundContext()
        let id = try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "counter"
            try setup.save()
            return photo.objectID
        }
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
}
