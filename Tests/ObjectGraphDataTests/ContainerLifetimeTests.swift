import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// A weak reference the tests look at once the strong ones are gone; only its `object`'s
/// presence is read, from any thread.
final class WeakReference: @unchecked Sendable {
    // @unchecked Sendable: a weak load is thread-safe, and the object is never used through it.
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// An actor that inserts and saves a photo and tag, and says where they are.
@ModelActor
actor LifetimeImporter {
    /// Inserts, saves and reads back a photo with a tag; weak references to the context and
    /// the models.
    func insertAndRead() throws -> [WeakReference] {
        let photo = Photo(title: "In an actor", views: 3)
        let tag = Tag(name: "actor")
        photo.tags = [tag]
        modelContext.insert(photo)
        try modelContext.save()
        let fetched = try modelContext.fetch(FetchDescriptor<Photo>())
        precondition(fetched.first?.tags.first?.name == "actor")
        return [WeakReference(modelContext), WeakReference(photo), WeakReference(tag)]
    }
}

/// A container, its contexts and their models are freed once their user lets them go: the
/// main context refers to its container without keeping it alive (the container owns it).
@Suite("ObjectGraphData container lifetime")
struct ContainerLifetimeTests {
    @Test("A container whose main context was used, and the main context's models, are freed after their last reference goes")
    @MainActor
    func mainContextUsed() async throws {
        let references = try await useMainContext(ModelConfiguration(url: TestFiles.url("lifetime-main.store")))
        #expect(references.allSatisfy { $0.object == nil })
    }

    @Test("An in-memory container whose main context autosaved is freed with its models")
    @MainActor
    func mainContextInMemory() async throws {
        let references = try await useMainContext(ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(references.allSatisfy { $0.object == nil })
    }

    /// Uses a new container's main context — an insert it autosaves, a fetch, a relationship
    /// read — and returns weak references to the container, the context and the models.
    @MainActor
    private func useMainContext(_ configuration: ModelConfiguration) async throws -> [WeakReference] {
        let container = try makeContainer(configuration)
        let context = container.mainContext
        let photo = Photo(title: "Main", views: 1)
        let tag = Tag(name: "main")
        photo.tags = [tag]
        context.insert(photo)
        // The autosave is a task queued on the main actor: yielding lets it run (no clock).
        var yields = 0
        while context.hasChanges, yields < 1000 {
            await Task.yield()
            yields += 1
        }
        #expect(!context.hasChanges)
        let fetched = try context.fetch(FetchDescriptor<Photo>())
        #expect(fetched.map(\.title) == ["Main"])
        #expect(fetched.first?.tags.map(\.name) == ["main"])
        #expect(context.container === container)
        return [WeakReference(container), WeakReference(context), WeakReference(photo), WeakReference(tag)]
    }

    @Test("A @ModelActor's container, context and models are freed with the actor")
    func modelActor() async throws {
        var container: ModelContainer? = try makeContainer(ModelConfiguration(url: TestFiles.url("lifetime-actor.store")))
        var importer: LifetimeImporter? = LifetimeImporter(modelContainer: container!)
        var references = try await importer!.insertAndRead()
        references.append(WeakReference(container!))
        references.append(WeakReference(importer!))
        // The actor's context holds its models.
        #expect(references.allSatisfy { $0.object != nil })
        importer = nil
        container = nil
        #expect(references.allSatisfy { $0.object == nil })
    }

    @Test("A ModelContext(container) keeps its container usable when the user keeps only the context, and frees it with itself")
    func contextKeepsItsContainer() throws {
        var context: ModelContext? = ModelContext(try makeContainer())
        let container = WeakReference(context!.container)
        let photo = Photo(title: "Kept", views: 2)
        context!.insert(photo)
        try context!.save()
        #expect(container.object != nil)
        #expect(try context!.fetch(FetchDescriptor<Photo>()).map(\.title) == ["Kept"])
        #expect(context!.container.schema.entities.count == 3)
        // A second context on the same container, reached through the first.
        #expect(try ModelContext(context!.container).fetchCount(FetchDescriptor<Photo>()) == 1)
        let model = WeakReference(photo)
        let contextReference = WeakReference(context!)
        context = nil
        #expect(contextReference.object == nil)
        #expect(container.object == nil)
        // The test still holds the model: it outlives its context, as SwiftData's do.
        #expect(model.object != nil)
    }

    @Test("A main context kept after its container is gone still fetches and saves")
    @MainActor
    func mainContextOutlivesContainer() throws {
        var container: ModelContainer? = try makeContainer()
        let context = container!.mainContext
        context.autosaveEnabled = false
        let reference = WeakReference(container!)
        container = nil
        #expect(reference.object == nil)
        context.insert(Photo(title: "Orphan", views: 0))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 1)
    }
}
