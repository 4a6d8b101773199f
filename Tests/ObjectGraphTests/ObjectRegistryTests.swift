import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// The context holds its objects as Core Data's does: unchanged ones weakly, changed ones until
/// saved or rolled back, one object per ID while anyone holds it.
@Suite("Objects a context holds")
struct ObjectRegistryTests {
    private static func seed(_ stack: SQLRecordingStack, photos: Int) throws -> [ManagedObjectID] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let objects = (0..<photos).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                return photo
            }
            try context.save()
            return objects.map(\.objectID)
        }
    }

    @Test("an unchanged object no one holds is released; asking again gives an equal object")
    func unchangedObjectIsReleased() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack, photos: 3)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            weak var released: Photo?
            do {
                let photo = try #require(try context.existingObject(with: ids[0]) as? Photo)
                released = photo
                #expect(context.registeredObject(for: ids[0]) === photo)
            }
            #expect(released == nil, "the context does not keep an unchanged object alive")
            #expect(context.registeredObject(for: ids[0]) == nil)
            #expect(!context.registeredObjects.contains { $0.objectID == ids[0] })
            let again = try #require(try context.existingObject(with: ids[0]) as? Photo)
            #expect(again.title == "Photo 0")
        }
    }

    @Test("a changed, inserted or deleted object stays registered until saved")
    func changedObjectIsKept() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack, photos: 3)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            weak var changed: Photo?
            weak var inserted: Photo?
            weak var deleted: Photo?
            var insertedID: ManagedObjectID?
            do {
                let photo = try #require(try context.existingObject(with: ids[0]) as? Photo)
                photo.title = "Retitled"
                changed = photo
                let newcomer = Photo(context: context)
                newcomer.unique = "new"
                inserted = newcomer
                insertedID = newcomer.objectID
                let doomed = try context.existingObject(with: ids[1])
                context.delete(doomed)
                deleted = doomed as? Photo
            }
            #expect(changed != nil && inserted != nil && deleted != nil, "unsaved changes keep their objects")
            #expect((context.registeredObject(for: ids[0]) as? Photo)?.title == "Retitled")
            try context.save()
            #expect(changed == nil, "once saved, nobody holds it")
            #expect(inserted == nil)
            #expect(deleted == nil)
            let reread = try #require(try context.existingObject(with: ids[0]) as? Photo)
            #expect(reread.title == "Retitled")
            #expect(try context.existingObject(with: try #require(insertedID)).value(forKey: "unique") as? String == "new")
            #expect(throws: ObjectGraphError.self) { try context.existingObject(with: ids[1]) }
        }
    }

    @Test("one object per ID while anyone holds it, across fetches and object(with:)")
    func uniquingHolds() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack, photos: 5)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
            let first = try context.fetch(request)
            let second = try context.fetch(request)
            #expect(first.count == 5)
            #expect(zip(first, second).allSatisfy { $0 === $1 })
            #expect(context.object(with: ids[2]) === first[2])
        }
    }

    @Test("objects of two entities with the same primary key are told apart, registered and released")
    func sameKeyOtherEntity() throws {
        let stack = try SQLRecordingStack()
        let seeding = stack.container.newBackgroundContext()
        let (photoIDs, tagIDs) = try seeding.performAndWait {
            let photos = (0..<200).map { number in
                let photo = Photo(context: seeding)
                photo.unique = "\(number)"
                return photo
            }
            let tags = (0..<200).map { number in
                let tag = Tag(context: seeding)
                tag.name = "tag \(number)"
                return tag
            }
            try seeding.save()
            return (photos.map(\.objectID), tags.map(\.objectID))
        }
        // Each entity numbers its own rows: the keys are the same, only the entities differ.
        #expect(Set(photoIDs.map(\.primaryKey)) == Set(tagIDs.map(\.primaryKey)))
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var photos = try context.fetch(Photo.fetchRequest())
            let tags = try context.fetch(Tag.fetchRequest())
            for (photoID, tagID) in zip(photoIDs, tagIDs) {
                let photo = try #require(context.registeredObject(for: photoID) as? Photo)
                let tag = try #require(context.registeredObject(for: tagID) as? Tag)
                #expect(photo.objectID == photoID && tag.objectID == tagID)
                #expect(context.object(with: tagID) === tag)
            }
            #expect(context.registry.entryCount == 400)
            photos.removeAll()
            // The photos' entries left; each tag is still found under its key, shared with a
            // released photo.
            #expect(context.registry.entryCount == 200)
            #expect(photoIDs.allSatisfy { context.registeredObject(for: $0) == nil })
            #expect(tagIDs.allSatisfy { id in tags.contains { $0 === context.registeredObject(for: id) } })
        }
    }

    @Test("thousands of objects of two entities with equal keys, released in shuffled order: every survivor is still the one found")
    func shuffledReleasesKeepUniquing() throws {
        let stack = try SQLRecordingStack()
        let seeding = stack.container.newBackgroundContext()
        let count = 3_000
        try seeding.performAndWait {
            for number in 0..<count {
                Photo(context: seeding).unique = "\(number)"
                Tag(context: seeding).name = "tag \(number)"
            }
            try seeding.save()
        }
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var held: [ManagedObject] = try context.fetch(Photo.fetchRequest()) + context.fetch(Tag.fetchRequest())
            #expect(held.count == 2 * count)
            let ids = held.map(\.objectID)
            // Released a few at a time in a fixed, shuffled order, so that the table's runs are
            // emptied from their middles as well as their ends.
            var generator = SeededGenerator(seed: 0x5EED)
            held.shuffle(using: &generator)
            for step in 0..<8 {
                held.removeLast(held.count / 3)
                let alive = Set(held.map(ObjectIdentifier.init))
                #expect(context.registry.entryCount == held.count, "step \(step)")
                let wrong = ids.filter { id in
                    guard let found = context.registeredObject(for: id) else { return false }
                    return !alive.contains(ObjectIdentifier(found)) || found.objectID != id
                }
                #expect(wrong.isEmpty, "step \(step): \(wrong.count) IDs find an object that is not theirs")
                #expect(held.allSatisfy { context.registeredObject(for: $0.objectID) === $0 }, "step \(step)")
            }
            held.removeAll()
            #expect(context.registry.entryCount == 0)
        }
    }

    @Test("keys far apart, negative and at page edges, of two entities: each ID finds its own object, and emptied pages go")
    func scatteredKeys() throws {
        let stack = try SQLRecordingStack()
        let store = try Self.seed(stack, photos: 1)[0].storeIdentifier
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            let page = Int64(ObjectRegistry.pageSize)
            var keys: Set<Int64> = [.min, .min + 1, -page - 1, -page, -1, 0, 1, page - 1, page, page + 1, 2 * page, 1 << 40, .max - 1, .max]
            var generator = SeededGenerator(seed: 44)
            while keys.count < 3_000 { keys.insert(Int64.random(in: -1_000_000...1_000_000_000, using: &generator)) }
            // A Photo for every key, a Tag for every third: equal keys of two entities.
            var held: [ManagedObject] = []
            for (number, key) in keys.sorted().enumerated() {
                held.append(context.object(with: ManagedObjectID(storeIdentifier: store, entityName: "Photo", primaryKey: key)))
                if number % 3 == 0 {
                    held.append(context.object(with: ManagedObjectID(storeIdentifier: store, entityName: "Tag", primaryKey: key)))
                }
            }
            let ids = held.map(\.objectID)
            #expect(Set(ids).count == held.count)
            held.shuffle(using: &generator)
            while !held.isEmpty {
                #expect(context.registry.entryCount == held.count)
                #expect(held.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
                let alive = Set(held.map(ObjectIdentifier.init))
                let wrong = ids.filter { id in
                    guard let found = context.registeredObject(for: id) else { return false }
                    return !alive.contains(ObjectIdentifier(found)) || found.objectID != id
                }
                #expect(wrong.isEmpty, "\(wrong.count) IDs find an object that is not theirs")
                held.removeLast(max(1, held.count / 3))
            }
            #expect(context.registry.entryCount == 0)
            #expect(context.registry.pageCount == 0, "a page goes when its last object does")
        }
    }

    @Test("a released object leaves the table, so it holds only what is alive")
    func releasedEntriesAreSwept() throws {
        let stack = try SQLRecordingStack()
        _ = try Self.seed(stack, photos: 5_000)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Photo.fetchRequest()
            request.fetchLimit = 500
            for offset in stride(from: 0, to: 5_000, by: 500) {
                request.fetchOffset = offset
                let page = try context.fetch(request)
                #expect(page.count == 500)
                #expect(context.registry.entryCount == 500, "only the page alive is registered")
            }
            #expect(context.registry.entryCount == 0)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test("objects that outlive their context have none, and are released after it without it")
    func objectsOutliveTheirContext() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack, photos: 3)
        var kept: [Photo] = []
        weak var gone: ManagedObjectContext?
        do {
            let context = stack.container.newBackgroundContext()
            gone = context
            kept = try context.performAndWait {
                let photos = try ids.map { id in try #require(try context.existingObject(with: id) as? Photo) }
                #expect(context.registry.entryCount == 3)
                return photos
            }
        }
        #expect(gone == nil)
        #expect(kept.count == 3 && kept.allSatisfy { $0.managedObjectContext == nil })
        // Released now, they leave no registry: the context's went with it.
        kept.removeAll()
    }
}

@Suite("Related objects an object holds")
struct RelatedObjectHoldingTests {
    /// One photo with two tags, saved.
    private static func seed(_ stack: SQLRecordingStack) throws -> ManagedObjectID {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "p"
            photo.tags = Set(
                ["a", "b"].map { name in
                    let tag = Tag(context: context)
                    tag.name = name
                    return tag
                }
            )
            try context.save()
            return photo.objectID
        }
    }

    @Test("tags a photo returned stay loaded while the photo lives; refreshing it lets them go")
    func relatedObjectsStayWhileTheSourceLives() throws {
        let stack = try SQLRecordingStack()
        let id = try Self.seed(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            weak var tag: Tag?
            do {
                tag = photo.tags.first
                #expect(photo.tags.compactMap(\.name).count == 2)
            }
            #expect(tag != nil, "held by the photo that returned it")
            let reads = stack.recording { _ = photo.tags.map(\.name) }
            #expect(reads.selects(from: "ZTAG").isEmpty, "the tags are still loaded: \(reads)")
            context.refreshAllObjects()
            #expect(tag == nil, "a photo turned into a fault lets its tags go")
            #expect(Set(photo.tags.compactMap(\.name)) == ["a", "b"])
        }
    }

    @Test("objects that hold each other are released with their context")
    func cyclesBreakWithTheContext() throws {
        let stack = try SQLRecordingStack()
        let id = try Self.seed(stack)
        weak var photo: Photo?
        weak var tag: Tag?
        weak var gone: ManagedObjectContext?
        do {
            let context = stack.container.newBackgroundContext()
            gone = context
            try context.performAndWait {
                let loaded = try #require(try context.existingObject(with: id) as? Photo)
                let first = try #require(loaded.tags.first)
                #expect(first.photos.contains(loaded), "photo → tag → photo: a cycle")
                photo = loaded
                tag = first
            }
            #expect(photo != nil && tag != nil, "the cycle keeps them while the context lives")
        }
        #expect(gone == nil)
        #expect(photo == nil && tag == nil, "the context's end broke the cycle")
    }
}

