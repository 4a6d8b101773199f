import Foundation
import ObjectGraph
import Testing

/// What a child's save pushes into its parent: relationships, delete rules, ordered members,
/// what observers of the parent see, and conflicts with the parent's own changes.
@Suite("Nested contexts: pushing saves into the parent")
struct NestedContextSaveTests {
    private typealias Chain = NestedContextChainTests

    /// A Photo by unique, required.
    private func photo(_ unique: String, in context: ManagedObjectContext) throws -> Photo {
        try #require(try Chain.photo(unique, in: context))
    }

    private func named<T: ManagedObject>(_ type: T.Type, _ name: String, in context: ManagedObjectContext) throws -> T {
        let request = FetchRequest<T>(entityName: String(describing: type))
        request.predicate = FetchPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test("to-one, to-many, cascade and nullify changes made in a child reach the parent, then the store", arguments: StoreKind.allCases)
    func relationshipsAndDeleteRules(store: StoreKind) throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        try root.performAndWait {
            let gary = Photographer(context: root)
            gary.name = "Gary"
            let t1 = Tag(context: root)
            t1.name = "t1"
            let t2 = Tag(context: root)
            t2.name = "t2"
            let p1 = Photo(context: root)
            p1.unique = "p1"
            p1.photographer = gary
            p1.tags = [t1, t2]
            let recent = Recent(context: root)
            recent.lastViewed = Date(timeIntervalSince1970: 1)
            recent.photo = p1
            let p2 = Photo(context: root)
            p2.unique = "p2"
            p2.photographer = gary
            p2.tags = [t1]
            try root.save()
        }
        let child = Chain.child(of: root)
        try child.performAndWait {
            let helen = Photographer(context: child)
            helen.name = "Helen"
            try photo("p2", in: child).photographer = helen  // to-one moves
            try named(Tag.self, "t1", in: child).photos.remove(try photo("p1", in: child))  // to-many
            child.delete(try named(Photographer.self, "Gary", in: child))  // cascades to p1 and its recent
            try child.save()
        }
        func check(_ context: ManagedObjectContext) throws {
            try context.performAndWait {
                #expect(try context.count(for: Photographer.fetchRequest()) == 1)
                #expect(try context.count(for: Recent.fetchRequest()) == 0)
                #expect(try context.fetch(Photo.fetchRequest()).compactMap(\.unique) == ["p2"])
                let p2 = try photo("p2", in: context)
                #expect(p2.photographer?.name == "Helen")
                #expect(p2.photographer?.photos == [p2])
                #expect(p2.tags.map(\.name) == ["t1"])
                #expect(try named(Tag.self, "t1", in: context).photos == [p2])
                #expect(try named(Tag.self, "t2", in: context).photos.isEmpty)
            }
        }
        try check(root)
        try root.performAndWait {
            #expect(root.hasChanges)
            #expect(root.deletedObjects.count == 3)
            try root.save()
        }
        try check(stack.container.newBackgroundContext())
        if let url = stack.url { try check(try TestStack(file: url).container.newBackgroundContext()) }
    }

    @Test("an ordered to-many relationship's new order arrives in the parent and the store", arguments: StoreKind.allCases)
    func orderedRelationship(store: StoreKind) throws {
        let stack = try TestStack(store, model: OrderedRelationshipTests.model())
        let root = stack.container.newBackgroundContext()
        let tourID = try root.performAndWait {
            let tour = try root.insertObject(entityName: "Tour")
            let stops = try ["s1", "s2", "s3"].map { name in
                let stop = try root.insertObject(entityName: "Stop")
                stop.setValue(name, forKey: "name")
                return stop
            }
            tour.setValue(stops, forKey: "stops")
            try root.save()
            return tour.objectID
        }
        func names(_ context: ManagedObjectContext) throws -> [String] {
            try context.performAndWait {
                let stops = try #require(try context.existingObject(with: tourID).value(forKey: "stops") as? [ManagedObject])
                return stops.compactMap { $0.value(forKey: "name") as? String }
            }
        }
        let child = Chain.child(of: root)
        try child.performAndWait {
            let tour = try child.existingObject(with: tourID)
            let stops = try #require(tour.value(forKey: "stops") as? [ManagedObject])
            let s4 = try child.insertObject(entityName: "Stop")
            s4.setValue("s4", forKey: "name")
            tour.setValue([stops[2], s4, stops[0]], forKey: "stops")
            try child.save()
        }
        #expect(try names(root) == ["s3", "s4", "s1"])
        try root.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Stop")
            request.predicate = FetchPredicate(format: "name == 's2'")
            let s2 = try #require(try root.fetch(request).first)
            #expect(s2.value(forKey: "tour") == nil)
            try root.save()
        }
        #expect(try names(stack.container.newBackgroundContext()) == ["s3", "s4", "s1"])
    }

    @MainActor
    @Test("a fetched results controller on a main-queue parent reports a private child's save", arguments: StoreKind.allCases)
    func fetchedResultsControllerOnParent(store: StoreKind) async throws {
        let stack = try TestStack(store)
        let view = stack.container.viewContext
        for unique in ["b", "d", "f"] { Photo(context: view).unique = unique }
        try view.save()
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
        let recorder = ChangeRecorder()
        controller.delegate = recorder
        try controller.performFetch()

        let child = Chain.child(of: view)
        // From a perform block on the child's own queue: its reads and its push hop to the main queue.
        try await child.perform {
            Photo(context: child).unique = "a"
            try self.photo("d", in: child).unique = "g"
            child.delete(try self.photo("f", in: child))
            try child.save()
        }
        let batches = recorder.drain()
        let changes = batches.flatMap(\.objects)
        let types = Set(changes.map(\.type))
        #expect(types.isSuperset(of: [.insert, .delete]))
        #expect(types.contains(.move) || types.contains(.update))
        #expect(controller.fetchedObjects?.compactMap(\.unique) == ["a", "b", "g"])
        #expect(controller.fetchedObjects == (try view.fetch(request)))
        #expect(view.hasChanges)

        // And from the main thread, through performAndWait.
        try child.performAndWait {
            try self.photo("b", in: child).unique = "c"
            try child.save()
        }
        #expect(controller.fetchedObjects?.compactMap(\.unique) == ["a", "c", "g"])
        try view.save()
        #expect(try Chain.photoCount(in: stack.container.newBackgroundContext()) == 3)
    }

    @Test("a child that merges automatically takes its parent's saves; a sibling's push alone is not merged", arguments: StoreKind.allCases)
    func automaticMergeFromParent(store: StoreKind) async throws {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let (keptID, goneID) = try root.performAndWait {
            let kept = Photo(context: root)
            kept.unique = "kept"
            kept.title = "old"
            let gone = Photo(context: root)
            gone.unique = "gone"
            try root.save()
            return (kept.objectID, gone.objectID)
        }
        let reader = Chain.child(of: root, merging: true)
        let held = try reader.performAndWait {
            let objects = [try reader.existingObject(with: keptID), try reader.existingObject(with: goneID)]
            #expect((objects[0] as? Photo)?.title == "old")
            return objects
        }
        let (changes, continuation) = AsyncStream<Set<ManagedObjectID>>.makeStream()
        let observation = reader.addObjectsDidChangeObserver { change in
            continuation.yield(Set((change.updatedObjects.union(change.refreshedObjects).union(change.deletedObjects)).map(\.objectID)))
        }
        defer { observation.cancel() }

        let writer = Chain.child(of: root)
        let newID = try writer.performAndWait {
            try #require(try writer.existingObject(with: keptID) as? Photo).title = "new"
            writer.delete(try writer.existingObject(with: goneID))
            let added = Photo(context: writer)
            added.unique = "added"
            try writer.save()
            return added.objectID
        }
        reader.performAndWait { #expect((held[0] as? Photo)?.title == "old") }

        try root.performAndWait { try root.save() }
        var iterator = changes.makeAsyncIterator()
        let merged = try #require(await iterator.next())
        #expect(merged.isSuperset(of: [keptID, goneID]))
        try reader.performAndWait { () throws in
            #expect((held[0] as? Photo)?.title == "new")
            #expect(held[1].isDeleted)
            #expect(try reader.fetch(Photo.fetchRequest()).map(\.objectID).sorted { $0.primaryKey < $1.primaryKey } == [keptID, newID])
        }
    }

    /// A saved photo (title "T0", views 1), read by a child; then the parent retitles it
    /// "parent" (unsaved) and the child retitles it "child" and sets views 5.
    private func conflict(_ policy: MergePolicy, store: StoreKind) throws -> (root: ManagedObjectContext, saving: Result<Void, any Error>) {
        let stack = try TestStack(store)
        let root = stack.container.newBackgroundContext()
        let id = try root.performAndWait {
            let photo = Photo(context: root)
            photo.unique = "p"
            photo.title = "T0"
            photo.views = 1
            try root.save()
            return photo.objectID
        }
        let child = Chain.child(of: root)
        child.mergePolicy = policy
        let held = try child.performAndWait { try #require(try child.existingObject(with: id) as? Photo) }
        try root.performAndWait { try #require(try root.existingObject(with: id) as? Photo).title = "parent" }
        let saving = child.performAndWait {
            held.title = "child"
            held.views = 5
            return Result { try child.save() }
        }
        _ = stack
        return (root, saving)
    }

    private func parentPhoto(_ root: ManagedObjectContext) throws -> (title: String?, views: Int64) {
        try root.performAndWait {
            let photo = try photo("p", in: root)
            return (photo.title, photo.views)
        }
    }

    @Test("error policy: a push over a newer parent change throws the conflict and changes nothing", arguments: StoreKind.allCases)
    func conflictError(store: StoreKind) throws {
        let (root, saving) = try conflict(.error, store: store)
        #expect(throws: ObjectGraphError.self) { try saving.get() }
        if case .failure(let error as ObjectGraphError) = saving {
            #expect(error.code == .managedObjectMerge)
            #expect(error.conflicts.first?.changedKeys.map(\.key).contains("title") == true)
        }
        let photo = try parentPhoto(root)
        #expect(photo.title == "parent")
        #expect(photo.views == 1)
    }

    @Test("object-trump and store-trump policies resolve a push over a newer parent change", arguments: StoreKind.allCases)
    func conflictPolicies(store: StoreKind) throws {
        let (objectRoot, objectSaving) = try conflict(.mergeByPropertyObjectTrump, store: store)
        try objectSaving.get()
        let objectTrump = try parentPhoto(objectRoot)
        #expect(objectTrump.title == "child" && objectTrump.views == 5)

        let (storeRoot, storeSaving) = try conflict(.mergeByPropertyStoreTrump, store: store)
        try storeSaving.get()
        let storeTrump = try parentPhoto(storeRoot)
        #expect(storeTrump.title == "parent" && storeTrump.views == 5)
    }

    @Test("sibling private children pushing concurrently through perform all arrive")
    func concurrentSiblings() async throws {
        let stack = try TestStack()
        let root = stack.container.newBackgroundContext()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let child = Chain.child(of: root)
                    try await child.perform {
                        Photo(context: child).unique = "p\(index)"
                        try child.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        try await root.perform { try root.save() }
        #expect(try Chain.photoCount(in: stack.container.newBackgroundContext()) == 8)
    }
}
