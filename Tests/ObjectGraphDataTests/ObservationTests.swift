import Foundation
import ObjectGraphData
import Observation
import Synchronization
import Testing

/// Models are `Observable`, as SwiftData's: what a view (or any observer) read is reported
/// when it is set through the model.
@Suite("ObjectGraphData observation")
struct ObservationTests {
    /// How many times an observation's onChange ran.
    final class Changes: Sendable {
        let count = Atomic<Int>(0)
        func note() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test("Setting a property that was read reports a change; other properties do not")
    func attributes() throws {
        let context = ModelContext(try makeContainer())
        let photo = Photo(title: "Quad", views: 1)
        context.insert(photo)
        try context.save()
        let changes = Changes()
        let title = withObservationTracking { photo.title } onChange: { changes.note() }
        #expect(title == "Quad")
        photo.views = 2
        #expect(changes.value == 0)
        photo.title = "Oval"
        #expect(changes.value == 1)
        #expect(photo.title == "Oval")
    }

    @Test("Relationships are observed too, on a model before and after insertion")
    func relationships() throws {
        let photo = Photo(title: "Quad")
        let detached = Changes()
        withObservationTracking { _ = photo.caption } onChange: { detached.note() }
        photo.caption = "before insertion"
        #expect(detached.value == 1)

        let context = ModelContext(try makeContainer())
        context.insert(photo)
        let changes = Changes()
        withObservationTracking { _ = photo.tags.count } onChange: { changes.note() }
        photo.tags.append(Tag(name: "tower"))
        #expect(changes.value == 1)
        #expect(photo.tags.map(\.name) == ["tower"])
    }

    @Test("A fetched model reports a change to what was read, read on its context's queue or off it; another model's change does not")
    func fetchedModels() throws {
        let container = try makeContainer()
        let writer = ModelContext(container)
        writer.insert(Photo(title: "Quad", views: 1))
        writer.insert(Photo(title: "Oval", views: 2))
        try writer.save()

        // A model actor's context: reads run in place on the context's queue.
        let actor = ObservedPhotos(modelContainer: container)
        let changes = Changes()
        let views = try actor.onQueue { context in
            let photos = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)]))
            let views = withObservationTracking { photos[1].views } onChange: { changes.note() }
            photos[0].views = 20
            #expect(changes.value == 0)
            photos[1].views = 10
            return views
        }
        #expect(views == 1)
        #expect(changes.value == 1)

        // A context used off its queue: each read hops onto it.
        let context = ModelContext(container)
        let photos = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)]))
        let offQueue = Changes()
        let title = withObservationTracking { photos[0].title + "/" + String(photos[0].views) } onChange: { offQueue.note() }
        #expect(title == "Oval/2")
        photos[1].title = "Quadrangle"
        #expect(offQueue.value == 0)
        photos[0].views = 3
        #expect(offQueue.value == 1)
        #expect(photos[0].views == 3)
    }

    @Test("A new model's values read before insertion are observed, and are its latest ones")
    func newModels() throws {
        let photo = Photo(title: "Quad", views: 1, rating: 4.5)
        photo.views = 2
        photo.rating = nil
        let changes = Changes()
        let read = withObservationTracking { (photo.views, photo.rating, photo.caption) } onChange: { changes.note() }
        #expect(read.0 == 2)
        #expect(read.1 == nil)
        #expect(read.2 == nil)
        photo.caption = "first"
        #expect(changes.value == 1)

        let context = ModelContext(try makeContainer())
        context.insert(photo)
        try context.save()
        let fetched = try #require(try context.fetch(FetchDescriptor<Photo>()).first)
        #expect(fetched === photo)
        #expect(fetched.views == 2)
        #expect(fetched.rating == nil)
        #expect(fetched.caption == "first")
    }

    @Test("A model is Observable")
    func conformance() {
        let photo: Any = Photo(title: "Quad")
        #expect(photo is any Observable)
    }
}

/// A model actor for ``ObservationTests``: its context's reads run in place on its queue.
@ModelActor
actor ObservedPhotos {
    /// Runs `body` with the actor's context on the context's queue, where the actor's jobs run.
    nonisolated func onQueue<T>(_ body: (ModelContext) throws -> T) throws -> T {
        let context = modelExecutor.modelContext
        return try context.managedObjectContext.performAndWait { try body(context) }
    }
}
