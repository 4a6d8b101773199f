import Dispatch
import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// An importer written as a SwiftData app writes one: an actor with a context of its own.
@ModelActor
actor PhotoImporter {
    /// Inserts photos titled `prefix-0`, `prefix-1`, …, saving after every `batch` of them;
    /// returns their identifiers.
    func importPhotos(prefix: String, count: Int, batch: Int) throws -> [PersistentIdentifier] {
        var photos: [Photo] = []
        for index in 0..<count {
            let photo = Photo(title: "\(prefix)-\(index)", views: index)
            modelContext.insert(photo)
            photos.append(photo)
            if (index + 1) % batch == 0 { try modelContext.save() }
        }
        try modelContext.save()
        return photos.map(\.persistentModelID)
    }

    /// Renames the photo with `id` and saves.
    func rename(_ id: PersistentIdentifier, to title: String) throws {
        guard let photo = self[id, as: Photo.self] else { return }
        photo.title = title
        try modelContext.save()
    }

    /// The number of stored photos.
    func photoCount() throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Photo>())
    }

    /// Whether the actor's code runs on its context's queue.
    func runsOnContextQueue() -> Bool {
        modelContext.managedObjectContext.isOnQueue
    }
}

/// `@ModelActor`: an actor runs on its context's queue, its saves reach the main context, and
/// two actors work at once.
@Suite("ObjectGraphData @ModelActor")
struct ModelActorTests {
    @Test("An actor's methods run on its context's queue, and code on that queue is isolated to the actor")
    func runsOnTheContextQueue() async throws {
        let container = try makeContainer()
        let importer = PhotoImporter(modelContainer: container)
        #expect(importer.modelContainer === container)
        #expect(importer.modelExecutor is DefaultSerialModelExecutor)
        #expect(await importer.runsOnContextQueue())
        let context = importer.modelExecutor.modelContext
        #expect(!context.managedObjectContext.isOnQueue)
        // Code the context's queue runs counts as the actor's: assumeIsolated asks the executor.
        let isolated = context.managedObjectContext.performAndWait {
            importer.assumeIsolated { $0.runsOnContextQueue() }
        }
        #expect(isolated)
    }

    @Test("An actor's inserts and saves are seen by the main context", arguments: TestStoreKind.allCases)
    @MainActor
    func savesReachTheMainContext(store: TestStoreKind) async throws {
        let container = try makeContainer(try store.configuration("actor"))
        let importer = PhotoImporter(modelContainer: container)
        let ids = try await importer.importPhotos(prefix: "imported", count: 20, batch: 7)
        let main = container.mainContext
        let photos = try main.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.views)]))
        #expect(photos.map(\.title) == (0..<20).map { "imported-\($0)" })
        #expect(photos.map(\.persistentModelID) == ids)

        // A change the actor saves to a model the main context holds merges into it. The merge
        // is queued on the main queue by the actor's save; a block queued after it runs after it.
        try await importer.rename(ids[3], to: "renamed")
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(photos[3].title == "renamed")
        #expect(!main.hasChanges)
        #expect(try main.fetchCount(FetchDescriptor<Photo>(predicate: #Predicate { $0.title == "renamed" })) == 1)
    }

    @Test("Two actors insert and save at once; every model is stored once", arguments: TestStoreKind.allCases)
    func twoActorsAtOnce(store: TestStoreKind) async throws {
        let container = try makeContainer(try store.configuration("actors"))
        let first = PhotoImporter(modelContainer: container)
        let second = PhotoImporter(modelContainer: container)
        async let firstIDs = first.importPhotos(prefix: "a", count: 150, batch: 10)
        async let secondIDs = second.importPhotos(prefix: "b", count: 150, batch: 15)
        let ids = try await firstIDs + secondIDs
        #expect(Set(ids).count == 300)
        #expect(try await first.photoCount() == 300)
        #expect(try await second.photoCount() == 300)

        let reader = ModelContext(container)
        let titles = try reader.fetch(FetchDescriptor<Photo>()).map(\.title)
        #expect(titles.count == 300)
        #expect(Set(titles) == Set((0..<150).flatMap { ["a-\($0)", "b-\($0)"] }))
    }
}
