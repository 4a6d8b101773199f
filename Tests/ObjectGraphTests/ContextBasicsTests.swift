import Foundation
import ObjectGraph
import Testing

@Suite("Context basics")
struct ContextBasicsTests {
    @Test("insert, save, fetch round trip", arguments: StoreKind.allCases)
    func roundTrip(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.title = "Hoover Tower"
            photo.views = 3
            let tag = Tag(context: context)
            tag.name = "hoover"
            photo.tags = [tag]
            #expect(tag.photos.contains(photo))
            try context.save()
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "hoo")
            let found = try context.fetch(request)
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "quad")
            #expect(try context.fetch(request).isEmpty)
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "hoo")
            #expect(found.count == 1)
            #expect(found.first === photo)
        }
        let other = stack.container.newBackgroundContext()
        try other.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            let photos = try other.fetch(request)
            #expect(photos.count == 1)
            #expect(photos[0].value(forKey: "title") as? String == "Hoover Tower")
            #expect(photos[0].value(forKey: "views") as? Int64 == 3)
            let tags = photos[0].value(forKey: "tags") as? Set<ManagedObject>
            #expect(tags?.count == 1)
            #expect(tags?.first?.value(forKey: "name") as? String == "hoover")
        }
    }
}

@Suite("Context basics: many changes, some discarded")
struct ContextChangeBookkeepingTests {
    /// A context tracks its changed objects in the order they changed, dropping discarded ones
    /// and compacting as it goes: whatever is refreshed away, deleted or changed again, the save
    /// writes exactly the changes still pending, and nothing else.
    @Test("refreshes, deletes and repeated changes among 600 objects: the save writes exactly what is pending", arguments: StoreKind.allCases)
    func discardedChangesAreNotSaved(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<600 {
                let photo = Photo(context: context)
                photo.unique = String(index)
                photo.views = 0
            }
            #expect(context.insertedObjects.count == 600)
            try context.save()
            #expect(!context.hasChanges)
            let photos = try context.fetch(Photo.fetchRequest()).sorted { Int($0.unique!)! < Int($1.unique!)! }
            for photo in photos { photo.views = 1 }
            // Discard most of those changes (so the context drops them, and compacts), change
            // some of the discarded ones again, and delete a few.
            for photo in photos[0..<450] { context.refresh(photo, mergeChanges: false) }
            for photo in photos[100..<150] { photo.views = 2 }
            for photo in photos[590..<600] { context.delete(photo) }
            #expect(context.updatedObjects.count == 50 + 140)
            #expect(context.deletedObjects.count == 10)
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let views = Dictionary(uniqueKeysWithValues: try reader.fetch(Photo.fetchRequest()).map { (Int($0.unique!)!, $0.views) })
            #expect(views.count == 590)
            #expect((0..<100).allSatisfy { views[$0] == 0 })
            #expect((100..<150).allSatisfy { views[$0] == 2 })
            #expect((150..<450).allSatisfy { views[$0] == 0 })
            #expect((450..<590).allSatisfy { views[$0] == 1 })
        }
    }

    /// Sets and dictionaries hash an ID by its primary key alone: IDs of two entities that
    /// share a key must still be two keys, and objects two members.
    @Test("IDs of two entities with the same primary key are distinct keys in sets and dictionaries", arguments: StoreKind.allCases)
    func idsSharingAKey(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photos = (0..<40).map { index in
                let photo = Photo(context: context)
                photo.unique = "p\(index)"
                return photo
            }
            let tags = (0..<40).map { index in
                let tag = Tag(context: context)
                tag.name = "t\(index)"
                return tag
            }
            try context.save()
            let shared = Set(photos.map(\.objectID.primaryKey)).intersection(tags.map(\.objectID.primaryKey))
            #expect(!shared.isEmpty, "the two entities' keys overlap, so the test compares IDs sharing a key")
            let ids = photos.map(\.objectID) + tags.map(\.objectID)
            #expect(Set(ids).count == 80)
            let names = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0.entityName) })
            #expect(photos.allSatisfy { names[$0.objectID] == "Photo" })
            #expect(tags.allSatisfy { names[$0.objectID] == "Tag" })
            let objects: Set<ManagedObject> = Set(photos).union(tags)
            #expect(objects.count == 80)
            #expect(ids.allSatisfy { context.object(with: $0).objectID == $0 })
        }
    }

    @Test("a context given another coordinator makes its new objects of that coordinator's model")
    func newCoordinatorNewModel() throws {
        let first = try TestStack(inMemory: true)
        let second = try TestStack(inMemory: true)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try context.performAndWait {
            context.persistentStoreCoordinator = first.container.persistentStoreCoordinator
            let before = Photo(context: context)
            before.unique = "first"
            #expect(before.entity === first.container.managedObjectModel.entitiesByName["Photo"])
            try context.save()
            context.persistentStoreCoordinator = second.container.persistentStoreCoordinator
            let after = Photo(context: context)
            after.unique = "second"
            after.title = "Second"
            #expect(after.entity === second.container.managedObjectModel.entitiesByName["Photo"])
            try context.save()
        }
        let reader = second.container.newBackgroundContext()
        let titles = try reader.performAndWait { try reader.fetch(Photo.fetchRequest()).map(\.title) }
        #expect(titles == ["Second"])
    }
}
