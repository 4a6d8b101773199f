import Foundation
import ObjectGraph
import Testing

/// Contexts whose parent is another context: reads through the parent, saves into it.
@Suite("Nested contexts: reading through and saving into the parent")
struct NestedContextChainTests {
    /// A private-queue context whose parent is `parent`.
    static func child(of parent: ManagedObjectContext, merging: Bool = false) -> ManagedObjectContext {
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = merging
        return child
    }

    /// The Photo with `unique`, if `context` sees one.
    static func photo(_ unique: String, in context: ManagedObjectContext) throws -> Photo? {
        let request = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "unique == %@", unique)
        return try context.fetch(request).first
    }

    /// How many photos `context` sees.
    static func photoCount(in context: ManagedObjectContext) throws -> Int {
        try context.performAndWait { try context.count(for: Photo.fetchRequest()) }
    }

    @Test("three levels: a save goes one level up, and only the root's save reaches the file", arguments: StoreKind.allCases)
    func threeLevelChain(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let child = Self.child(of: root)
        let grandchild = Self.child(of: child)
        #expect(grandchild.parent === child && child.parent === root && root.parent == nil)
        #expect(grandchild.persistentStoreCoordinator === stack.container.persistentStoreCoordinator)

        let (photoID, tagID, photographerID) = try grandchild.performAndWait {
            let ansel = Photographer(context: grandchild)
            ansel.name = "Ansel"
            let tag = Tag(context: grandchild)
            tag.name = "yosemite"
            let photo = Photo(context: grandchild)
            photo.unique = "half-dome"
            photo.title = "Half Dome"
            photo.photographer = ansel
            photo.tags = [tag]
            #expect(!photo.objectID.isTemporaryID)
            try grandchild.save()
            #expect(!grandchild.hasChanges)
            return (photo.objectID, tag.objectID, ansel.objectID)
        }

        // In the child, not in the root nor on disk.
        try child.performAndWait {
            #expect(child.hasChanges)
            let photo = try #require(try Self.photo("half-dome", in: child))
            #expect(photo.objectID == photoID)
            #expect(photo.title == "Half Dome")
            #expect(photo.photographer?.objectID == photographerID)
            #expect(photo.tags.map(\.objectID) == [tagID])
            #expect(photo.tags.first?.photos.map(\.objectID) == [photoID])
        }
        #expect(try Self.photoCount(in: root) == 0)
        #expect(try Self.photoCount(in: stack.container.newBackgroundContext()) == 0)
        if let url = stack.url {
            let other = try TestStack(file: url)
            #expect(try Self.photoCount(in: other.container.newBackgroundContext()) == 0)
        }

        // Saving the child puts it in the root, still not on disk.
        try child.performAndWait { try child.save() }
        try root.performAndWait {
            #expect(root.hasChanges)
            let photo = try #require(try Self.photo("half-dome", in: root))
            #expect(photo.objectID == photoID)
            #expect(photo.isInserted)
            #expect(photo.photographer?.name == "Ansel")
            #expect(photo.photographer?.photos.map(\.objectID) == [photoID])
            #expect(photo.tags.map(\.name) == ["yosemite"])
        }
        #expect(try Self.photoCount(in: stack.container.newBackgroundContext()) == 0)

        // The root's save reaches the store, relationships included.
        try root.performAndWait { try root.save() }
        let readers =
            try stack.url.map { [try TestStack(file: $0).container.newBackgroundContext()] } ?? [stack.container.newBackgroundContext()]
        for reader in readers {
            try reader.performAndWait {
                let photo = try #require(try reader.existingObject(with: photoID) as? Photo)
                #expect(photo.title == "Half Dome")
                #expect(photo.photographer?.objectID == photographerID)
                #expect(photo.photographer?.photos.map(\.objectID) == [photoID])
                #expect(photo.tags.map(\.objectID) == [tagID])
                #expect(photo.tags.first?.photos.map(\.objectID) == [photoID])
            }
        }
    }

    @Test("a child's fetch sees its parent's unsaved inserts, updates and deletes", arguments: StoreKind.allCases)
    func fetchSeesParentChanges(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        try root.performAndWait {
            for (unique, views) in [("a", 1), ("b", 2), ("c", 3)] {
                let photo = Photo(context: root)
                photo.unique = unique
                photo.views = Int64(views)
            }
            try root.save()
            try #require(try Self.photo("a", in: root)).views = 20
            root.delete(try #require(try Self.photo("b", in: root)))
            let d = Photo(context: root)
            d.unique = "d"
            d.views = 10
        }
        let child = Self.child(of: root)
        try child.performAndWait {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "views > 5")
            request.sortDescriptors = [FetchSortDescriptor(key: "views", ascending: true)]
            #expect(try child.fetch(request).compactMap(\.unique) == ["d", "a"])
            #expect(try child.count(for: request) == 2)
            #expect(try child.count(for: Photo.fetchRequest()) == 3)

            let ids = FetchRequest<ManagedObjectID>(entityName: "Photo")
            ids.resultType = .managedObjectIDResultType
            ids.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
            let expected = try ["a", "c", "d"].map { try #require(try Self.photo($0, in: child)).objectID }
            #expect(try child.fetch(ids) == expected)

            let batched = Photo.fetchRequest()
            batched.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: false)]
            batched.fetchBatchSize = 2
            #expect(try child.fetch(batched).map(\.unique) == ["d", "c", "a"])
            #expect(try child.fetch(batched).map(\.views) == [10, 3, 20])

            // The child's own pending changes go on top of the parent's.
            let c = try #require(try Self.photo("c", in: child))
            c.views = 30
            #expect(try child.fetch(request).compactMap(\.unique) == ["d", "a", "c"])
        }
        // The parent is unchanged by the child's reads and unsaved edits.
        try root.performAndWait { () throws in
            #expect(try Self.photo("c", in: root)?.views == 3)
        }
    }

    @Test("object(with:), existingObject, refresh, reset, obtainPermanentIDs in a child", arguments: StoreKind.allCases)
    func contextAPIInChild(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let (savedID, unsavedID) = try root.performAndWait {
            let saved = Photo(context: root)
            saved.unique = "saved"
            saved.title = "one"
            try root.save()
            let unsaved = Photo(context: root)
            unsaved.unique = "unsaved"
            return (saved.objectID, unsaved.objectID)
        }
        let child = Self.child(of: root)
        // Held across blocks: a context holds its unchanged objects weakly.
        let held = try child.performAndWait {
            let fault = child.object(with: savedID) as! Photo
            #expect(fault.isFault)
            #expect(fault.title == "one")
            #expect((try child.existingObject(with: unsavedID) as? Photo)?.unique == "unsaved")
            let new = Photo(context: child)
            new.unique = "new"
            try child.obtainPermanentIDs(for: [new])
            #expect(!new.objectID.isTemporaryID)
            #expect(new.objectID.storeIdentifier == root.persistentStoreCoordinator?.persistentStores.first?.identifier)
            return fault
        }
        // The parent changes the saved photo; the child sees it once it refreshes.
        try root.performAndWait { try #require(try root.existingObject(with: savedID) as? Photo).title = "two" }
        try child.performAndWait {
            let photo = try #require(try child.existingObject(with: savedID) as? Photo)
            #expect(photo === held)
            #expect(photo.title == "one")
            child.refresh(photo, mergeChanges: false)
            #expect(photo.title == "two")
            child.reset()
            #expect(child.registeredObjects.isEmpty)
            #expect(try child.count(for: Photo.fetchRequest()) == 2)
        }
        // A deleted parent object is missing for the child.
        try root.performAndWait { () throws in
            root.delete(try root.existingObject(with: unsavedID))
        }
        let lookup = child.performAndWait { Result { try child.existingObject(with: unsavedID).objectID } }
        #expect(throws: ObjectGraphError.self) { try lookup.get() }
    }

    @Test("any depth: a grandchild sees the unsaved changes of its parent and of the root", arguments: StoreKind.allCases)
    func grandchildSeesEveryLevel(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let child = Self.child(of: root)
        let grandchild = Self.child(of: child)
        root.performAndWait { Photo(context: root).unique = "from root" }
        child.performAndWait { Photo(context: child).unique = "from child" }
        try grandchild.performAndWait {
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
            #expect(try grandchild.fetch(request).compactMap(\.unique) == ["from child", "from root"])
            try #require(try Self.photo("from root", in: grandchild)).title = "edited below"
            try grandchild.save()
        }
        try root.performAndWait { () throws in
            #expect(try Self.photo("from root", in: root)?.title == nil)
        }
        try child.performAndWait { try child.save() }
        try root.performAndWait { () throws in
            #expect(try Self.photo("from root", in: root)?.title == "edited below")
            #expect(try root.count(for: Photo.fetchRequest()) == 2)
        }
    }

    @Test("a child's save validates, and a failing one leaves the parent untouched", arguments: StoreKind.allCases)
    func validationAtChildSave(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let child = Self.child(of: root)
        let failure = child.performAndWait {
            _ = Photo(context: child)  // `unique` is required
            return Result { try child.save() }
        }
        #expect(throws: ObjectGraphError.self) { try failure.get() }
        if case .failure(let error as ObjectGraphError) = failure {
            #expect(error.failures.map(\.key) == ["unique"])
        }
        child.performAndWait { #expect(child.hasChanges) }
        root.performAndWait { #expect(!root.hasChanges) }
    }

    @Test("a child discarded, or rolled back, leaves its parent untouched", arguments: StoreKind.allCases)
    func discardAndRollback(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let id = try root.performAndWait {
            let photo = Photo(context: root)
            photo.unique = "p"
            photo.title = "kept"
            try root.save()
            return photo.objectID
        }
        do {
            let discarded = Self.child(of: root)
            try discarded.performAndWait {
                try #require(try discarded.existingObject(with: id) as? Photo).title = "lost"
                Photo(context: discarded).unique = "lost"
            }
        }
        let rolledBack = Self.child(of: root)
        try rolledBack.performAndWait {
            let photo = try #require(try rolledBack.existingObject(with: id) as? Photo)
            photo.title = "rolled back"
            rolledBack.delete(photo)
            Photo(context: rolledBack).unique = "rolled back"
            rolledBack.rollback()
            #expect(!rolledBack.hasChanges)
            try rolledBack.save()
            #expect(photo.title == "kept")
        }
        try root.performAndWait { () throws in
            #expect(!root.hasChanges)
            #expect(try root.count(for: Photo.fetchRequest()) == 1)
            #expect((try root.existingObject(with: id) as? Photo)?.title == "kept")
        }
    }
}
