import Foundation
import ObjectGraph
import Testing

/// Two contexts on one store (SQLite file, memory, PostgreSQL) that both read photo "p" (title "T0", subtitle "S0",
/// views 1); `first` changes it and saves, then `second` saves its own changes and conflicts.
private struct ConflictScenario {
    let stack: TestStack
    let first: ManagedObjectContext
    let second: ManagedObjectContext
    let id: ManagedObjectID
    /// The photo as each context read it, held (contexts hold their objects weakly).
    let held: [Photo]

    init(_ store: StoreKind) throws {
        stack = try TestStack(store)
        let setup = stack.container.newBackgroundContext()
        id = try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "p"
            photo.title = "T0"
            photo.subtitle = "S0"
            photo.views = 1
            try setup.save()
            return photo.objectID
        }
        first = stack.container.newBackgroundContext()
        second = stack.container.newBackgroundContext()
        let id = id
        held = try [first, second].map { context in
            try context.performAndWait { () throws in
                let photo = try #require(try context.existingObject(with: id) as? Photo)
                _ = photo.title
                return photo
            }
        }
    }

    func photo(in context: ManagedObjectContext) throws -> Photo {
        try context.performAndWait { try #require(try context.existingObject(with: id) as? Photo) }
    }

    /// `first` sets title "A" and views 10, and saves.
    func firstSaves() throws {
        try first.performAndWait {
            let photo = try self.photo(in: first)
            photo.title = "A"
            photo.views = 10
            try first.save()
        }
    }

    /// `second` sets title "B" and subtitle "B-sub", and saves with `policy`.
    func secondSaves(_ policy: MergePolicy) throws {
        try second.performAndWait {
            second.mergePolicy = policy
            let photo = try self.photo(in: second)
            photo.title = "B"
            photo.subtitle = "B-sub"
            try second.save()
        }
    }

    /// Title, subtitle and views as a fresh context reads them from the store.
    func stored() throws -> (title: String?, subtitle: String?, views: Int64) {
        let fresh = stack.container.newBackgroundContext()
        return try fresh.performAndWait {
            let photo = try #require(try fresh.existingObject(with: id) as? Photo)
            return (photo.title, photo.subtitle, photo.views)
        }
    }
}

@Suite("Optimistic locking and merge policies")
struct MergePolicyConflictTests {
    @Test("error policy: the save throws every conflict with its changed keys, and writes nothing", arguments: StoreKind.allCases)
    func errorPolicy(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        let error = try #require(throws: ObjectGraphError.self) { try scenario.secondSaves(.error) }
        #expect(error.code == .managedObjectMerge)
        let conflict = try #require(error.conflicts.first)
        #expect(error.conflicts.count == 1)
        #expect(conflict.sourceObjectID == scenario.id)
        #expect(conflict.entityName == "Photo")
        #expect(conflict.oldVersionNumber == 1)
        #expect(conflict.newVersionNumber == 2)
        #expect(conflict.cachedSnapshot["title"] as? String == "T0")
        #expect(conflict.objectSnapshot["title"] as? String == "B")
        #expect(conflict.persistedSnapshot?["title"] as? String == "A")
        #expect(conflict.persistedSnapshot?["views"] as? Int64 == 10)
        let keys = Dictionary(uniqueKeysWithValues: conflict.changedKeys.map { ($0.key, $0) })
        #expect(keys.keys.sorted() == ["title", "views"])
        #expect(keys["title"]?.oldValue as? String == "T0")
        #expect(keys["title"]?.newValue as? String == "A")
        #expect(keys["title"]?.objectValue as? String == "B")
        #expect(keys["title"]?.isChangedInContext == true)
        #expect(keys["views"]?.isChangedInContext == false)
        #expect(error.description.contains("title: 'T0' → 'A' in the store, this context changed it to 'B'"))
        let stored = try scenario.stored()
        #expect(stored.title == "A" && stored.subtitle == "S0" && stored.views == 10)
        // The context keeps its changes.
        try scenario.second.performAndWait { () throws in
            #expect(scenario.second.hasChanges)
            #expect(try scenario.photo(in: scenario.second).title == "B")
        }
    }

    @Test(
        "a save that conflicts on a version and also breaks a uniqueness constraint reports the version conflict, and writes nothing",
        arguments: StoreKind.allCases
    )
    func versionConflictBeforeInserts(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        let second = scenario.second
        let error = try #require(throws: ObjectGraphError.self) {
            try second.performAndWait {
                second.mergePolicy = .error
                try scenario.photo(in: second).title = "B"
                let duplicate = Photo(context: second)
                duplicate.unique = "p"
                duplicate.title = "duplicate"
                try second.save()
            }
        }
        #expect(error.code == .managedObjectMerge)
        #expect(error.conflicts.map(\.sourceObjectID) == [scenario.id])
        #expect(error.constraintConflicts.isEmpty)
        let stored = try scenario.stored()
        #expect(stored.title == "A" && stored.views == 10)
        let photos = try scenario.stack.container.viewContext.performAndWait {
            try scenario.stack.container.viewContext.count(for: FetchRequest<Photo>(entityName: "Photo"))
        }
        #expect(photos == 1)
    }

    @Test("store trump: the other save's keys win, this context's other changes are saved", arguments: StoreKind.allCases)
    func storeTrump(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        try scenario.secondSaves(.mergeByPropertyStoreTrump)
        let stored = try scenario.stored()
        #expect(stored.title == "A" && stored.subtitle == "B-sub" && stored.views == 10)
        try scenario.second.performAndWait {
            let photo = try scenario.photo(in: scenario.second)
            #expect(photo.title == "A" && photo.subtitle == "B-sub" && photo.views == 10)
            #expect(!scenario.second.hasChanges)
        }
    }

    @Test("object trump: this context's keys win, the other save's other keys are kept", arguments: StoreKind.allCases)
    func objectTrump(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        try scenario.secondSaves(MergeByPropertyObjectTrumpMergePolicy)
        let stored = try scenario.stored()
        #expect(stored.title == "B" && stored.subtitle == "B-sub" && stored.views == 10)
        try scenario.second.performAndWait { () throws in
            #expect(try scenario.photo(in: scenario.second).views == 10)
        }
    }

    @Test("overwrite: this context's whole object replaces the store's row", arguments: StoreKind.allCases)
    func overwrite(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        try scenario.secondSaves(.overwrite)
        let stored = try scenario.stored()
        #expect(stored.title == "B" && stored.subtitle == "B-sub" && stored.views == 1)
    }

    @Test("rollback: this context's changes to the conflicting object are discarded, its others saved", arguments: StoreKind.allCases)
    func rollback(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        let otherID = scenario.second.performAndWait {
            let other = Photo(context: scenario.second)
            other.unique = "other"
            return other.objectID
        }
        try scenario.secondSaves(.rollback)
        let stored = try scenario.stored()
        #expect(stored.title == "A" && stored.subtitle == "S0" && stored.views == 10)
        try scenario.second.performAndWait {
            let photo = try scenario.photo(in: scenario.second)
            #expect(photo.title == "A" && photo.subtitle == "S0")
            #expect(!scenario.second.hasChanges)
        }
        let fresh = scenario.stack.container.newBackgroundContext()
        try fresh.performAndWait { () throws in #expect((try fresh.existingObject(with: otherID) as? Photo)?.unique == "other") }
    }

    @Test("a custom policy's closure sees the conflicts and sets the values to save", arguments: StoreKind.allCases)
    func customPolicy(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        let policy = MergePolicy(name: "most views") { conflicts, context in
            for conflict in conflicts {
                guard let photo = context.registeredObject(for: conflict.sourceObjectID) as? Photo,
                    let stored = conflict.persistedSnapshot?["views"] as? Int64
                else { continue }
                photo.views = stored + 5
            }
        }
        try scenario.secondSaves(policy)
        let stored = try scenario.stored()
        #expect(stored.title == "B" && stored.subtitle == "B-sub" && stored.views == 15)
    }

    @Test("a custom policy that throws fails the save, which writes nothing", arguments: StoreKind.allCases)
    func customPolicyThrows(store: StoreKind) throws {
        struct Refused: Error {}
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        #expect(throws: Refused.self) { try scenario.secondSaves(MergePolicy(name: "refuse") { _, _ in throw Refused() }) }
        #expect(try scenario.stored().subtitle == "S0")
    }

    @Test("no conflict when the other save changed other objects; versions follow saves", arguments: StoreKind.allCases)
    func noConflictOnOtherObjects(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.first.performAndWait {
            let other = Photo(context: scenario.first)
            other.unique = "q"
            try scenario.first.save()
            other.title = "changed"
            try scenario.first.save()
        }
        try scenario.secondSaves(.error)
        // Saving the same object again from the same context is no conflict either.
        try scenario.second.performAndWait {
            try scenario.photo(in: scenario.second).title = "B2"
            try scenario.second.save()
        }
        #expect(try scenario.stored().title == "B2")
    }

    @Test("a to-many change alone is a new version: it conflicts with a stale update", arguments: StoreKind.allCases)
    func toManyChangeBumpsVersion(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.first.performAndWait {
            let tag = Tag(context: scenario.first)
            tag.name = "stanford"
            try scenario.photo(in: scenario.first).tags.insert(tag)
            try scenario.first.save()
        }
        let error = try #require(throws: ObjectGraphError.self) { try scenario.secondSaves(.error) }
        #expect(error.conflicts.map(\.sourceObjectID) == [scenario.id])
        #expect(error.conflicts.first?.changedKeys.isEmpty == true)
        // Object trump keeps the other save's tag and writes this context's title.
        try scenario.secondSaves(.mergeByPropertyObjectTrump)
        let fresh = scenario.stack.container.newBackgroundContext()
        try fresh.performAndWait {
            let photo = try #require(try fresh.existingObject(with: scenario.id) as? Photo)
            #expect(photo.title == "B")
            #expect(photo.tags.compactMap(\.name) == ["stanford"])
        }
    }

    @Test("an object deleted by the other save: a conflict for .error, deleted here for the others", arguments: StoreKind.allCases)
    func deletedInStore(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.first.performAndWait {
            scenario.first.delete(try scenario.photo(in: scenario.first))
            try scenario.first.save()
        }
        let error = try #require(throws: ObjectGraphError.self) { try scenario.secondSaves(.error) }
        #expect(error.conflicts.first?.persistedSnapshot == nil)
        #expect(error.conflicts.first?.newVersionNumber == 0)
        try scenario.second.performAndWait {
            scenario.second.mergePolicy = .mergeByPropertyObjectTrump
            let photo = try #require(scenario.second.registeredObject(for: scenario.id))
            try scenario.second.save()
            #expect(photo.isDeleted)
            #expect(!scenario.second.hasChanges)
        }
    }

    @Test("deleting an object another save changed: a conflict for .error, deleted under a trump policy", arguments: StoreKind.allCases)
    func deleteOfChangedObject(store: StoreKind) throws {
        let scenario = try ConflictScenario(store)
        try scenario.firstSaves()
        let delete: (MergePolicy) throws -> Void = { policy in
            try scenario.second.performAndWait {
                scenario.second.mergePolicy = policy
                scenario.second.delete(try scenario.photo(in: scenario.second))
                try scenario.second.save()
            }
        }
        let error = try #require(throws: ObjectGraphError.self) { try delete(.error) }
        #expect(error.conflicts.first?.isDeletedInContext == true)
        try delete(.mergeByPropertyStoreTrump)
        let fresh = scenario.stack.container.newBackgroundContext()
        try fresh.performAndWait { () throws in
            #expect(try fresh.count(for: Photo.fetchRequest()) == 0)
        }
    }
}
