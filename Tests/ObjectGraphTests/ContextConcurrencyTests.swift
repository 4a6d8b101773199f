import Foundation
import ObjectGraph
import Testing

@Suite("Context queues")
struct ContextConcurrencyTests {
    @Test("a private-queue context used outside perform traps in debug builds")
    func privateQueueMisuseTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try! TestStack(inMemory: true)
            let context = stack.container.newBackgroundContext()
            _ = try? context.fetch(Photo.fetchRequest())
        }
    }

    @Test("a managed object touched off its context's queue traps in debug builds")
    func objectMisuseTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try! TestStack(inMemory: true)
            let context = stack.container.newBackgroundContext()
            let photo: Photo = context.performAndWait {
                let photo = Photo(context: context)
                photo.unique = "1"
                return photo
            }
            _ = photo.title
        }
    }

    @Test("the view context off the main thread traps")
    func viewContextOffMainTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try! TestStack(inMemory: true)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = stack.container.viewContext.hasChanges
                done.signal()
            }
            done.wait()
        }
    }

    @MainActor
    @Test("the view context is used directly on the main actor")
    func viewContextOnMain() throws {
        let stack = try TestStack(inMemory: true)
        let view = stack.container.viewContext
        let tag = Tag(context: view)
        tag.name = "oval"
        try view.save()
        #expect(try view.count(for: Tag.fetchRequest()) == 1)
    }

    @Test("performAndWait is reentrant and perform returns a Sendable result")
    func performForms() async throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        let nested: Int = context.performAndWait {
            let tag = Tag(context: context)
            tag.name = "a"
            return context.performAndWait { context.insertedObjects.count }
        }
        #expect(nested == 1)
        let count = try await context.perform {
            try context.save()
            return try context.count(for: Tag.fetchRequest())
        }
        #expect(count == 1)
        let viaContainer = try await stack.container.performBackgroundTask { background in
            try background.count(for: Tag.fetchRequest())
        }
        #expect(viaContainer == 1)
    }

    @Test("an unknown entity name throws from the dynamic API")
    func unknownEntity() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let error = try #require(throws: ObjectGraphError.self) { try context.insertObject(entityName: "Phtoo") }
            #expect(error.code == .entityNotFound)
            #expect(error.message.contains("Phtoo"))
            #expect(throws: ObjectGraphError.self) { try context.fetch(FetchRequest<ManagedObject>(entityName: "Phtoo")) }
        }
    }

    @Test("a background-class context's blocks yield the processor: they run at a higher nice value")
    func qualityOfServiceSetsNiceValue() async throws {
        let stack = try TestStack(inMemory: true)
        // The nice value of the thread running each context's `perform` block, and the block's
        // work against the store.
        func niceInPerform(_ context: ManagedObjectContext) async throws -> Int32 {
            try await context.perform {
                let tag = Tag(context: context)
                tag.name = context.name ?? ""
                try context.save()
                return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            }
        }
        let background = stack.container.newBackgroundContext(qualityOfService: .background)
        background.name = "background"
        let utility = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, qualityOfService: .utility)
        utility.performAndWait {
            utility.persistentStoreCoordinator = stack.container.persistentStoreCoordinator
            utility.name = "utility"
        }
        let standard = stack.container.newBackgroundContext()
        standard.name = "default"
        // The process's own nice value (its main thread's: Linux keeps one per thread, and
        // `getpid()` names the main one), which a test runner started with `nice` raises.
        let processNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        let niceOfBackground = try await niceInPerform(background)
        let niceOfUtility = try await niceInPerform(utility)
        let niceOfDefault = try await niceInPerform(standard)
        #expect(niceOfDefault == processNice)
        // Higher than the process's, up to the ceiling of 19.
        #expect(niceOfUtility > niceOfDefault || niceOfDefault == 19, "\(niceOfUtility) after \(niceOfDefault)")
        #expect(niceOfBackground > niceOfUtility || niceOfUtility == 19, "\(niceOfBackground) after \(niceOfUtility)")
        // Each did its work: all three saves are there.
        let names = try await standard.perform { try standard.fetch(Tag.fetchRequest()).compactMap(\.name).sorted() }
        #expect(names == ["background", "default", "utility"])
    }
}
