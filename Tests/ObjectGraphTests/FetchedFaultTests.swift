import Foundation
import Testing

@testable import ObjectGraph

/// `returnsObjectsAsFaults` (true by default, as in Core Data): fetched objects are faults that
/// keep the row the fetch read, fill from it on first access without a query, read their row
/// again when the store changed since, and free it when refreshed.
@Suite("Fetched objects as faults")
struct FetchedFaultTests {
    /// Saves `count` photos titled "Photo N" (unique "N", views N).
    private static func seed(_ container: PersistentContainer, count: Int = 5) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for number in 0..<count {
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                photo.views = Int64(number)
            }
            try context.save()
        }
    }

    /// A store holding `count` seeded photos, and a new background context on it.
    private static func seeded(count: Int = 5) throws -> (SQLRecordingStack, ManagedObjectContext) {
        let stack = try SQLRecordingStack()
        try seed(stack.container, count: count)
        return (stack, stack.container.newBackgroundContext())
    }

    private static func request(faults: Bool = true) -> FetchRequest<Photo> {
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "views", ascending: true)]
        request.returnsObjectsAsFaults = faults
        return request
    }

    @Test("fetched objects are faults by default and fill on first access without a query")
    func faultsFillWithoutAQuery() throws {
        let (stack, context) = try Self.seeded()
        try context.performAndWait {
            #expect(Photo.fetchRequest().returnsObjectsAsFaults, "Core Data's default")
            var photos: [Photo] = []
            let fetch = try stack.recording { photos = try context.fetch(Self.request()) }
            #expect(fetch.selects(from: "ZPHOTO").count == 1)
            #expect(photos.count == 5)
            #expect(photos.allSatisfy { $0.isFault })
            var titles: [String?] = []
            let walk = stack.recording { titles = photos.map(\.title) }
            #expect(titles == (0..<5).map { "Photo \($0)" })
            #expect(walk.touchingData.isEmpty, "filled from the fetched rows: \(walk)")
            #expect(photos.allSatisfy { !$0.isFault })
            #expect(photos[3].committedValues(forKeys: ["views"])["views"] as? Int64 == 3)
        }
    }

    @Test("returnsObjectsAsFaults = false returns loaded objects")
    func loadedWhenAsked() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait {
            let photos = try context.fetch(Self.request(faults: false))
            #expect(photos.count == 5)
            #expect(photos.allSatisfy { !$0.isFault })
            #expect(photos.map(\.views) == [0, 1, 2, 3, 4])
        }
    }

    @Test("a fault fetched before another context's save shows the saved values when it fills")
    func staleRowIsReadAgain() throws {
        let (stack, context) = try Self.seeded()
        let photos = try context.performAndWait { try context.fetch(Self.request()) }
        let id = context.performAndWait { photos[2].objectID }
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            (writer.object(with: id) as? Photo)?.title = "Renamed"
            try writer.save()
        }
        context.performAndWait {
            #expect(photos[2].isFault)
            let fill = stack.recording { #expect(photos[2].title == "Renamed") }
            #expect(fill.selects(from: "ZPHOTO").count == 1, "the kept row was stale: read again")
            #expect(photos[1].title == "Photo 1")
        }
    }

    @Test("a fault whose object another context deleted reads as deleted, merged or not")
    func deletedElsewhere() throws {
        let (stack, context) = try Self.seeded()
        let photos = try context.performAndWait { try context.fetch(Self.request()) }
        let ids = context.performAndWait { photos.map(\.objectID) }
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            writer.delete(writer.object(with: ids[1]))
            writer.delete(writer.object(with: ids[2]))
            try writer.save()
        }
        let saved = ContextDidSave(insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [ids[1], ids[2]])
        let remaining = try context.performAndWait {
            // Not merged: the kept row is stale (a save was written), so the fault reads its
            // row, finds none, and is gone.
            #expect(photos[1].title == nil)
            // Merged: the object is gone before it ever fires.
            context.mergeChanges(fromContextDidSave: saved)
            #expect(photos[2].title == nil)
            #expect(photos[3].title == "Photo 3")
            return try context.fetch(Self.request()).count
        }
        #expect(remaining == 3)
    }

    @Test("refresh(_:mergeChanges: false) turns a fetched object back into a fault without its values")
    func refreshFreesValues() throws {
        let (stack, context) = try Self.seeded()
        try context.performAndWait {
            let photos = try context.fetch(Self.request())
            // Refreshed before it ever filled: the row the fetch kept is let go as well.
            context.refresh(photos[0], mergeChanges: false)
            #expect(photos[0].isFault)
            #expect(photos[0].storage.fetchedRowGeneration == nil && photos[0].storage.values.isEmpty)
            #expect(photos[1].title == "Photo 1")
            context.refresh(photos[1], mergeChanges: false)
            #expect(photos[1].isFault)
            #expect(photos[1].storage.values.isEmpty && photos[1].storage.committed == nil)
            let reads = stack.recording {
                #expect(photos[0].title == "Photo 0")
                #expect(photos[1].title == "Photo 1")
            }
            // The first to fire reads its refreshed neighbour's row with its own.
            #expect(reads.selects(from: "ZPHOTO").count == 1, "the refreshed faults read their rows: \(reads)")
        }
    }

    @Test("a fetch hands back the registered instance, loaded or not, and keeps unsaved changes")
    func uniquingAcrossFetches() throws {
        let (_, context) = try Self.seeded()
        try context.performAndWait {
            let first = try context.fetch(Self.request())
            #expect(first[1].title == "Photo 1")
            let second = try context.fetch(Self.request())
            #expect(zip(first, second).allSatisfy { $0 === $1 })
            #expect(!second[1].isFault, "a loaded object stays loaded")
            #expect(second[4].isFault, "a fault stays a fault")
            first[0].title = "Edited"
            let third = try context.fetch(Self.request())
            #expect(zip(first, third).allSatisfy { $0 === $1 })
            #expect(third[0].title == "Edited")
            let loaded = try context.fetch(Self.request(faults: false))
            #expect(loaded[4] === first[4] && !loaded[4].isFault)
        }
    }

    @Test("awakeFromFetch runs once, when the fault fills")
    func awakeFromFetchOnFill() throws {
        let (_, context) = try Self.seeded(count: 1)
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            let photo = try #require(try context.fetch(request).first)
            #expect(photo.isFault)
            #expect(photo.value(forKey: "views") as? Int64 == 0)
            #expect(!photo.isFault)
            _ = photo.value(forKey: "title")
            #expect(try context.fetch(request).first === photo)
            #expect(!photo.isFault, "fetching again keeps a loaded object loaded")
        }
    }

    @Test("a child context's fetched objects come loaded from its parent's current values")
    func childContextReadsThroughItsParent() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack.container)
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let photo = try #require(try parent.fetch(Self.request()).first)
            photo.title = "Parent's edit"
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let photos = try child.fetch(Self.request())
            // A parent's objects change without a store event, so no row is kept for a fault.
            #expect(photos.allSatisfy { !$0.isFault })
            #expect(photos.map(\.title) == ["Parent's edit"] + (1..<5).map { "Photo \($0)" })
        }
    }
}
