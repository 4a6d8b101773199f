import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// SwiftData's documented ModelContext behaviour, on ObjectGraph's stores.
@Suite("ObjectGraphData ModelContext")
struct ModelContextTests {
    @Test("Insert, save and fetch; values survive a new context")
    func insertSaveFetch() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let photo = Photo(title: "Hoover Tower", views: 10, rating: 4.5)
        photo.kind = .panorama
        photo.identifier = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(photo.modelContext == nil)
        #expect(photo.persistentModelID.isTemporary)
        context.insert(photo)
        #expect(photo.modelContext === context)
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        #expect(!photo.persistentModelID.isTemporary)

        let other = ModelContext(container)
        let fetched = try other.fetch(FetchDescriptor<Photo>())
        #expect(fetched.count == 1)
        let copy = try #require(fetched.first)
        #expect(copy !== photo)
        #expect(copy.title == "Hoover Tower")
        #expect(copy.views == 10)
        #expect(copy.rating == 4.5)
        #expect(copy.caption == nil)
        #expect(copy.kind == .panorama)
        #expect(copy.identifier == photo.identifier)
        #expect(copy.persistentModelID == photo.persistentModelID)
        #expect(other.model(for: photo.persistentModelID) as? Photo === copy)
        #expect(other.registeredModel(for: photo.persistentModelID) as Photo? === copy)
    }

    @Test("Related models are inserted with the model, and inverses are maintained")
    func inverses() throws {
        let context = ModelContext(try makeContainer())
        let photo = Photo(title: "Quad")
        let tag = Tag(name: "campus")
        let place = Place(name: "Main Quad")
        photo.tags = [tag]
        photo.place = place
        context.insert(photo)
        #expect(tag.modelContext === context)
        #expect(place.modelContext === context)
        #expect(tag.photos.map(\.title) == ["Quad"])
        #expect(place.photos.map(\.title) == ["Quad"])
        let second = Photo(title: "Oval")
        context.insert(second)
        tag.photos.append(second)
        #expect(second.tags.map(\.name) == ["campus"])
        second.place = place
        #expect(Set(place.photos.map(\.title)) == ["Quad", "Oval"])
        photo.place = nil
        #expect(place.photos.map(\.title) == ["Oval"])
        try context.save()
    }

    @Test("A .unique attribute upserts: the second insert updates the stored model")
    func uniqueUpsert() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Tag(name: "tower", uses: 1))
        try context.save()
        let other = ModelContext(container)
        other.insert(Tag(name: "tower", uses: 7))
        other.insert(Tag(name: "quad", uses: 2))
        try other.save()
        let reader = ModelContext(container)
        let tags = try reader.fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map(\.name) == ["quad", "tower"])
        #expect(tags.map(\.uses) == [2, 7])
    }

    @Test("Delete rules: nullify clears the inverse, deny refuses while related models remain")
    func deleteRules() throws {
        let context = ModelContext(try makeContainer())
        let tag = Tag(name: "campus")
        let photo = Photo(title: "Quad")
        let place = Place(name: "Main Quad")
        photo.tags = [tag]
        photo.place = place
        context.insert(photo)
        try context.save()

        context.delete(tag)
        #expect(tag.isDeleted)
        try context.save()
        #expect(photo.tags.isEmpty)

        context.delete(place)
        #expect(throws: (any Error).self) { try context.save() }
        context.rollback()
        #expect(!place.isDeleted)
        photo.place = nil
        context.delete(place)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Place>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 1)
    }

    @Test("Rollback discards inserts and changes")
    func rollback() throws {
        let context = ModelContext(try makeContainer())
        let photo = Photo(title: "Quad", views: 1)
        context.insert(photo)
        try context.save()
        photo.views = 99
        context.insert(Photo(title: "Unsaved"))
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 1)
        #expect(context.changedModelsArray.count == 1)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(photo.views == 1)
        #expect(try context.fetch(FetchDescriptor<Photo>()).map(\.title) == ["Quad"])
    }

    @Test("transaction saves its block's changes, and rolls them back when it throws")
    func transaction() throws {
        struct Stop: Error {}
        let container = try makeContainer()
        let context = ModelContext(container)
        try context.transaction { context.insert(Photo(title: "Kept")) }
        #expect(throws: Stop.self) {
            try context.transaction {
                context.insert(Photo(title: "Dropped"))
                throw Stop()
            }
        }
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<Photo>()).map(\.title) == ["Kept"])
    }

    @Test("Autosave saves pending changes at processPendingChanges; off, nothing is saved")
    func autosave() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled)
        context.insert(Photo(title: "Manual"))
        context.processPendingChanges()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Photo>()) == 0)
        context.autosaveEnabled = true
        context.processPendingChanges()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Photo>()) == 1)
        #expect(!context.hasChanges)
    }

    @Test("The main context autosaves on the main actor after a change")
    @MainActor
    func mainContextAutosave() async throws {
        let container = try makeContainer()
        #expect(container.mainContext.autosaveEnabled)
        container.mainContext.insert(Photo(title: "Auto"))
        #expect(container.mainContext.hasChanges)
        // The autosave is a task queued on the main actor: yielding lets it run (no clock).
        var yields = 0
        while container.mainContext.hasChanges, yields < 1000 {
            await Task.yield()
            yields += 1
        }
        #expect(!container.mainContext.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Photo>()) == 1)
    }

    @Test("The main context is a main-queue one: its models read on the main actor, and another context's save merges into them")
    @MainActor
    func mainContextMerges() async throws {
        let container = try makeContainer()
        let context = container.mainContext
        #expect(context.managedObjectContext.concurrencyType == .mainQueueConcurrencyType)
        let photo = Photo(title: "Before", views: 1)
        context.insert(photo)
        try context.save()

        let background = ModelContext(container)
        let copy = try #require(try background.fetch(FetchDescriptor<Photo>()).first)
        copy.title = "After"
        copy.views = 2
        try background.save()
        // The merge is a block queued on the main queue: yielding the main actor lets it run.
        var yields = 0
        while photo.title != "After", yields < 1000 {
            await Task.yield()
            yields += 1
        }
        #expect(photo.title == "After")
        #expect(photo.views == 2)
        #expect(!context.hasChanges)
    }

    @Test("fetchCount, fetchIdentifiers, limit, offset, enumerate")
    func fetching() throws {
        let context = ModelContext(try makeContainer())
        for index in 0..<10 { context.insert(Photo(title: "p\(index)", views: index)) }
        try context.save()
        var descriptor = FetchDescriptor<Photo>(predicate: #Predicate { $0.views >= 3 }, sortBy: [SortDescriptor(\.views, order: .reverse)])
        #expect(try context.fetchCount(descriptor) == 7)
        descriptor.fetchLimit = 2
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.views) == [8, 7])
        let ids = try context.fetchIdentifiers(descriptor)
        #expect(ids.map { (context.model(for: $0) as? Photo)?.views } == [8, 7])
        var seen: [Int] = []
        try context.enumerate(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.views)]), batchSize: 3) { seen.append($0.views) }
        #expect(seen == Array(0..<10))
        try context.delete(model: Photo.self, where: #Predicate { $0.views < 5 })
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 5)
    }

    @Test("One model per object: refetching returns the same models, also after others were deleted")
    func identityAcrossDeletions() throws {
        let context = ModelContext(try makeContainer())
        for index in 0..<600 { context.insert(Photo(title: "p\(index)", views: index)) }
        try context.save()
        let first = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.views)]))
        #expect(first.count == 600)
        // Delete a scattered third, so that the models left were registered beside deleted ones.
        let deleted = first.filter { $0.views % 3 == 1 }
        let kept = first.filter { $0.views % 3 != 1 }
        for photo in deleted { context.delete(photo) }
        try context.save()
        for photo in deleted { #expect(context.registeredModel(for: photo.persistentModelID) as Photo? == nil) }
        let again = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.views)]))
        #expect(again.count == kept.count)
        #expect(zip(again, kept).allSatisfy { $0 === $1 })
        for photo in kept { #expect(context.registeredModel(for: photo.persistentModelID) as Photo? === photo) }
        let added = Photo(title: "new", views: 1000)
        context.insert(added)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Photo>(predicate: #Predicate { $0.views == 1000 })).first === added)
    }

    @Test("includePendingChanges: unsaved inserts are fetched, or not")
    func pendingChanges() throws {
        let context = ModelContext(try makeContainer())
        context.insert(Photo(title: "Saved"))
        try context.save()
        context.insert(Photo(title: "Pending"))
        var descriptor = FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)])
        #expect(try context.fetch(descriptor).map(\.title) == ["Pending", "Saved"])
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).map(\.title) == ["Saved"])
    }

    @Test("Saving posts willSave and didSave with the saved identifiers")
    func notifications() throws {
        let context = ModelContext(try makeContainer())
        let photo = Photo(title: "Quad")
        context.insert(photo)
        let received = Received()
        let observers = [
            NotificationCenter.default.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { _ in
                received.events.append("willSave")
            },
            NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
                received.events.append("didSave")
                received.ids = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try context.save()
        #expect(received.events == ["willSave", "didSave"])
        #expect(received.ids == [photo.persistentModelID])
    }

    @Test("A configuration that does not allow saves refuses them")
    func allowsSave() throws {
        let container = try ModelContainer(
            for: Photo.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)
        )
        let context = ModelContext(container)
        context.insert(Photo(title: "No"))
        #expect(throws: SwiftDataError.saveNotAllowed) { try context.save() }
    }

    @Test("An SQLite file keeps its models across containers")
    func sqliteFile() throws {
        let url = TestFiles.url("library.store")
        do {
            let context = ModelContext(try makeContainer(ModelConfiguration(url: url)))
            let photo = Photo(title: "Quad", views: 3)
            photo.tags = [Tag(name: "campus")]
            context.insert(photo)
            try context.save()
        }
        let context = ModelContext(try makeContainer(ModelConfiguration(url: url)))
        let photo = try #require(try context.fetch(FetchDescriptor<Photo>()).first)
        #expect(photo.tags.map(\.name) == ["campus"])
    }
}

/// What notification observers received.
final class Received: @unchecked Sendable {
    // @unchecked Sendable: the observers run synchronously inside `post`, on the test's thread.
    var events: [String] = []
    var ids: [PersistentIdentifier] = []
}
