import Foundation
import ObjectGraph
import Testing

/// A stored photo "hoover" (title "Stored", subtitle "stored-sub", no upload date, tagged
/// "campus"), and a context that inserts another "hoover" (title "Mine", an upload date, tagged
/// with a new "night" and a new duplicate "campus", viewed in a new Recent), saving with a policy.
private struct UpsertScenario {
    let stack: TestStack
    let storedID: ManagedObjectID
    let campusID: ManagedObjectID
    static let uploaded = Date(timeIntervalSinceReferenceDate: 1_000)

    init(store: StoreKind) throws {
        stack = try TestStack(store)
        let setup = stack.container.newBackgroundContext()
        (storedID, campusID) = try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "hoover"
            photo.title = "Stored"
            photo.subtitle = "stored-sub"
            let campus = Tag(context: setup)
            campus.name = "campus"
            photo.tags = [campus]
            try setup.save()
            return (photo.objectID, campus.objectID)
        }
    }

    /// Inserts the second "hoover" and saves with `policy`; returns the inserted photo's and
    /// recent's IDs (before the save) and whether the inserted photo ended deleted.
    func insertAndSave(_ policy: MergePolicy) throws -> (recent: ManagedObjectID, insertedIsDeleted: Bool) {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            context.mergePolicy = policy
            let photo = Photo(context: context)
            photo.unique = "hoover"
            photo.title = "Mine"
            photo.uploaded = Self.uploaded
            let night = Tag(context: context)
            night.name = "night"
            let campus = Tag(context: context)
            campus.name = "campus"
            photo.tags = [night, campus]
            let recent = Recent(context: context)
            recent.lastViewed = Self.uploaded
            recent.photo = photo
            try context.save()
            return (recent.objectID, photo.isDeleted)
        }
    }

    /// The stored photos and tags as a fresh context reads them.
    func stored() throws -> (photos: [String], tags: [String], recentPhoto: ManagedObjectID?) {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let photos = try context.fetch(Photo.fetchRequest()).map { photo in
                let tags = photo.tags.compactMap(\.name).sorted().joined(separator: "+")
                return
                    "\(photo.unique ?? "?") \(photo.title ?? "nil") \(photo.subtitle ?? "nil") \(photo.uploaded == nil ? "-" : "uploaded") [\(tags)]"
            }
            let tags = try context.fetch(Tag.fetchRequest()).map { "\($0.name ?? "?"):\($0.photos.count)" }.sorted()
            let recent = try context.fetch(Recent.fetchRequest()).first?.photo?.objectID
            return (photos, tags, recent)
        }
    }
}

@Suite("Uniqueness constraints under merge policies (upsert)")
struct UniquenessConflictTests {
    @Test(
        "error: the save throws each constraint conflict with the stored and the conflicting objects, and writes nothing",
        arguments: StoreKind.allCases
    )
    func errorPolicy(store: StoreKind) throws {
        let scenario = try UpsertScenario(store: store)
        let error = try #require(throws: ObjectGraphError.self) { try scenario.insertAndSave(.error) }
        #expect(error.code == .constraintConflict)
        let photo = try #require(error.constraintConflicts.first { $0.entityName == "Photo" })
        #expect(photo.constraint == ["unique"])
        #expect(photo.constraintValues["unique"] as? String == "hoover")
        #expect(photo.databaseObjectID == scenario.storedID)
        #expect(photo.databaseSnapshot?["title"] as? String == "Stored")
        #expect(photo.conflictingObjectIDs.count == 1)
        #expect(photo.conflictingSnapshots.first?["title"] as? String == "Mine")
        let tag = try #require(error.constraintConflicts.first { $0.entityName == "Tag" })
        #expect(tag.databaseObjectID == scenario.campusID && tag.constraintValues["name"] as? String == "campus")
        #expect(error.description.contains("Photo (unique = 'hoover')"))
        let stored = try scenario.stored()
        #expect(stored.photos == ["hoover Stored stored-sub - [campus]"])
        #expect(stored.tags == ["campus:1"])
    }

    @Test(
        "object trump upserts: the stored photo takes the values the insert set, keeps the rest, and every relationship of the insert moves to it",
        arguments: StoreKind.allCases
    )
    func objectTrump(store: StoreKind) throws {
        let scenario = try UpsertScenario(store: store)
        let result = try scenario.insertAndSave(.mergeByPropertyObjectTrump)
        #expect(result.insertedIsDeleted)
        let stored = try scenario.stored()
        #expect(stored.photos == ["hoover Mine stored-sub uploaded [campus+night]"])
        #expect(stored.tags == ["campus:1", "night:1"])
        #expect(stored.recentPhoto == scenario.storedID)
    }

    @Test("store trump: stored values win, the insert only fills what the stored photo lacks; relationships move", arguments: StoreKind.allCases)
    func storeTrump(store: StoreKind) throws {
        let scenario = try UpsertScenario(store: store)
        _ = try scenario.insertAndSave(.mergeByPropertyStoreTrump)
        let stored = try scenario.stored()
        #expect(stored.photos == ["hoover Stored stored-sub uploaded [campus+night]"])
        #expect(stored.tags == ["campus:1", "night:1"])
        #expect(stored.recentPhoto == scenario.storedID)
    }

    @Test("overwrite: the insert's values and members replace the stored photo's", arguments: StoreKind.allCases)
    func overwrite(store: StoreKind) throws {
        let scenario = try UpsertScenario(store: store)
        _ = try scenario.insertAndSave(.overwrite)
        let stored = try scenario.stored()
        #expect(stored.photos == ["hoover Mine nil uploaded [campus+night]"])
        #expect(stored.recentPhoto == scenario.storedID)
    }

    @Test("rollback: the insert's values are discarded; objects that pointed at it point at the stored photo", arguments: StoreKind.allCases)
    func rollback(store: StoreKind) throws {
        let scenario = try UpsertScenario(store: store)
        _ = try scenario.insertAndSave(.rollback)
        let stored = try scenario.stored()
        #expect(stored.photos == ["hoover Stored stored-sub - [campus+night]"])
        #expect(stored.recentPhoto == scenario.storedID)
    }

    @Test(
        "two unsaved inserts with the same values: error lists both; object trump keeps the first, with the later one's values",
        arguments: StoreKind.allCases
    )
    func duplicateInserts(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let first = Photo(context: context)
            first.unique = "dup"
            first.title = "first"
            let second = Photo(context: context)
            second.unique = "dup"
            second.title = "second"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .constraintConflict)
            let conflict = try #require(error.constraintConflicts.first)
            #expect(conflict.databaseObjectID == nil && conflict.databaseSnapshot == nil)
            #expect(Set(conflict.conflictingObjectIDs) == [first.objectID, second.objectID])

            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
            #expect(!first.isDeleted && second.isDeleted)
            #expect(first.title == "second")
        }
        let fresh = stack.container.newBackgroundContext()
        let titles = try fresh.performAndWait { try fresh.fetch(Photo.fetchRequest()).map { "\($0.unique ?? "?") \($0.title ?? "nil")" } }
        #expect(titles == ["dup second"])
    }
}

@Suite("Uniqueness constraints under merge policies: what a merge cannot fix")
struct UniquenessConflictLimitTests {
    @Test("a merge that would leave a required relationship empty fails validation and writes nothing")
    func mergeRevalidates() throws {
        let stack = try TestStack()
        let setup = stack.container.newBackgroundContext()
        try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = "hoover"
            let recent = Recent(context: setup)
            recent.lastViewed = Date()
            recent.photo = photo
            try setup.save()
        }
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            context.mergePolicy = .mergeByPropertyObjectTrump
            let photo = Photo(context: context)
            photo.unique = "hoover"
            let recent = Recent(context: context)
            recent.lastViewed = Date()
            recent.photo = photo
            // The stored photo takes the new recent; the stored recent loses its required photo.
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .validationMultipleErrors)
            #expect(error.failures.contains { $0.entityName == "Recent" && $0.key == "photo" })
        }
        let fresh = stack.container.newBackgroundContext()
        #expect(try fresh.performAndWait { try fresh.count(for: Recent.fetchRequest()) } == 1)
    }

    @Test("an updated object moved onto another's unique values throws under every policy, naming both")
    func updateConflict() throws {
        let stack = try TestStack()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let hoover = Photo(context: context)
            hoover.unique = "hoover"
            let quad = Photo(context: context)
            quad.unique = "quad"
            try context.save()
            context.mergePolicy = .mergeByPropertyObjectTrump
            quad.unique = "hoover"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .constraintConflict)
            #expect(error.constraintConflicts.first?.databaseObjectID == hoover.objectID)
            #expect(error.constraintConflicts.first?.conflictingObjectIDs == [quad.objectID])
        }
    }
}
