import Foundation
import ObjectGraph
import Testing

/// A fetched results controller whose predicate reads through a relationship, and saves merged
/// in that change the related objects: only a change to a key the request reads makes the
/// fetched objects be evaluated again; through a to-one relationship, other keys' changes are
/// reported as updates in place (rows may show them), through a to-many one not at all. (A tag's count changing must not report every note of the tag updated —
/// in SPoT, one hide changed its spots' counts and every open list re-rendered every photo.)
@Suite("Fetched results: merged changes to related objects")
struct FetchedResultsRelatedChangeTests {
    static let model = ManagedObjectModel {
        EntityDescription("Note") {
            AttributeDescription("title", .string)
            RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true)
            RelationshipDescription("folder", to: "Folder", inverse: "notes")
        }
        EntityDescription("Folder") {
            AttributeDescription("name", .string)
            AttributeDescription("count", .integer64, defaultValue: Int64(0))
            RelationshipDescription("notes", to: "Note", inverse: "folder", toMany: true)
        }
        EntityDescription("Tag") {
            AttributeDescription("name", .string)
            AttributeDescription("count", .integer64, defaultValue: Int64(0))
            RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true)
        }
    }

    /// A store on a real SQLite file with 50 notes tagged "a" (and "b") in folder "a", 10 tagged
    /// "b" only in folder "b", a controller over the "a" notes in a context of its own, and a
    /// recorder of its changes.
    static func scenario(on kind: StoreKind) throws -> (TestStack, ManagedObjectContext, FetchedResultsController<ManagedObject>, ChangeRecorder) {
        let stack = try TestStack(kind, model: model)
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let a = try writer.insertObject(entityName: "Tag")
            a.setValue("a", forKey: "name")
            let b = try writer.insertObject(entityName: "Tag")
            b.setValue("b", forKey: "name")
            let folderA = try writer.insertObject(entityName: "Folder")
            folderA.setValue("a", forKey: "name")
            let folderB = try writer.insertObject(entityName: "Folder")
            folderB.setValue("b", forKey: "name")
            for index in 0..<60 {
                let note = try writer.insertObject(entityName: "Note")
                note.setValue(String(format: "n%02d", index), forKey: "title")
                note.setValue(Set(index < 50 ? [a, b] : [b]), forKey: "tags")
                note.setValue(index < 50 ? folderA : folderB, forKey: "folder")
            }
            try writer.save()
        }
        let viewer = stack.container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: "Note")
        request.predicate = FetchPredicate(format: "ANY tags.name == 'a'")
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let recorder = ChangeRecorder()
        let frc = try viewer.performAndWait {
            let frc = FetchedResultsController(fetchRequest: request, managedObjectContext: viewer, sectionNameKeyPath: nil, cacheName: nil)
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.fetchedObjects?.count == 50)
            return frc
        }
        return (stack, viewer, frc, recorder)
    }

    /// Saves `change` to the tag (or `entity`) `predicate` finds in a new context and merges
    /// the save into `viewer`.
    static func change(
        _ entity: String = "Tag",
        tag predicate: String,
        in stack: TestStack,
        into viewer: ManagedObjectContext,
        _ change: @escaping (ManagedObject) -> Void
    ) throws {
        let writer = stack.container.newBackgroundContext()
        let saved = try writer.savingChanges {
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.predicate = FetchPredicate(format: predicate)
            change(try #require(try writer.fetch(request).first))
        }
        try viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: try #require(saved)) }
    }

    @Test("a to-many related object's change to a key the request does not read reports nothing, as in Core Data", arguments: [StoreKind.sqlite, .postgreSQL])
    func unreadKey(kind: StoreKind) throws {
        let (stack, viewer, frc, recorder) = try Self.scenario(on: kind)
        for name in ["a", "b"] {
            try Self.change(tag: "name == '\(name)'", in: stack, into: viewer) { tag in
                tag.setValue((tag.value(forKey: "count") as? Int64 ?? 0) + 1, forKey: "count")
            }
        }
        viewer.performAndWait {
            // A tag's count changing reaches none of its notes: on a list of a hundred thousand
            // photos it would cost every row.
            #expect(recorder.drain().flatMap(\.objects).isEmpty)
            #expect(frc.fetchedObjects?.count == 50)
        }
    }

    @Test("a to-one related object's change to a key the request does not read reports its objects updated, in place", arguments: [StoreKind.sqlite, .postgreSQL])
    func unreadKeyToOne(kind: StoreKind) throws {
        let (stack, viewer, _, _) = try Self.scenario(on: kind)
        let (frc, recorder) = try Self.controller("folder.name == 'a'", in: viewer)
        try Self.change("Folder", tag: "name == 'a'", in: stack, into: viewer) { $0.setValue(Int64(3), forKey: "count") }
        viewer.performAndWait {
            // A row may show its folder's count: each note is reported updated where it is.
            let changes = recorder.drain().flatMap(\.objects)
            #expect(changes.count == 50)
            #expect(changes.allSatisfy { $0.type == .update && $0.indexPath == $0.newIndexPath })
            #expect(frc.fetchedObjects?.count == 50)
        }
    }

    /// A controller over notes matching `predicate`, by title, in `viewer`, fetched.
    static func controller(_ predicate: String, in viewer: ManagedObjectContext) throws -> (FetchedResultsController<ManagedObject>, ChangeRecorder) {
        let request = FetchRequest<ManagedObject>(entityName: "Note")
        request.predicate = FetchPredicate(format: predicate)
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let recorder = ChangeRecorder()
        let frc = FetchedResultsController(fetchRequest: request, managedObjectContext: viewer, sectionNameKeyPath: nil, cacheName: nil)
        frc.delegate = recorder
        try viewer.performAndWait { try frc.performFetch() }
        return (frc, recorder)
    }

    @Test("a related object's change to a key the request reads updates the results", arguments: [StoreKind.sqlite, .postgreSQL])
    func readKey(kind: StoreKind) throws {
        let (stack, viewer, frc, recorder) = try Self.scenario(on: kind)
        // Renaming "b" to "a": the ten notes tagged only "b" now match.
        try Self.change(tag: "name == 'b'", in: stack, into: viewer) { $0.setValue("a", forKey: "name") }
        viewer.performAndWait {
            // (The notes already there are reported updated: a key their predicate reads changed.)
            #expect(recorder.drain().flatMap(\.objects).filter { $0.type != .update }.map(\.type) == Array(repeating: .insert, count: 10))
            #expect(frc.fetchedObjects?.count == 60)
        }
        // Renaming it on to "z": they leave again.
        try Self.change(tag: "notes.@count == 60", in: stack, into: viewer) { $0.setValue("z", forKey: "name") }
        viewer.performAndWait {
            #expect(recorder.drain().flatMap(\.objects).filter { $0.type != .update }.map(\.type) == Array(repeating: .delete, count: 10))
            #expect(frc.fetchedObjects?.count == 50)
        }
    }

    @Test("a membership change of a related object's to-many still counts", arguments: [StoreKind.sqlite])
    func relatedMembership(kind: StoreKind) throws {
        let (stack, viewer, frc, recorder) = try Self.scenario(on: kind)
        // A note taken out of tag "a" through the tag's side of the relationship.
        try Self.change(tag: "name == 'a'", in: stack, into: viewer) { tag in
            let notes = (tag.value(forKey: "notes") as? Set<ManagedObject>) ?? []
            let first = notes.min { ($0.value(forKey: "title") as? String ?? "") < ($1.value(forKey: "title") as? String ?? "") }
            tag.setValue(notes.subtracting(first.map { [$0] } ?? []), forKey: "notes")
        }
        viewer.performAndWait {
            // (The notes still tagged are reported updated in place: their tag changed.)
            #expect(recorder.drain().flatMap(\.objects).filter { $0.type != .update }.map(\.type) == [.delete])
            #expect(frc.fetchedObjects?.count == 49)
        }
    }

    @Test("controllers sharing a context each report only the objects they hold", arguments: [StoreKind.sqlite, .postgreSQL])
    func sharedContext(kind: StoreKind) throws {
        let (stack, viewer, _, _) = try Self.scenario(on: kind)
        // The 50 notes of folder "a", all 60, and the five last of folder "b".
        let (inA, inARecorder) = try Self.controller("folder.name == 'a'", in: viewer)
        let (all, allRecorder) = try Self.controller("folder.name != 'z'", in: viewer)
        let (lastB, lastBRecorder) = try Self.controller("folder.name == 'b' AND title >= 'n55'", in: viewer)

        try Self.change("Folder", tag: "name == 'a'", in: stack, into: viewer) { $0.setValue(Int64(7), forKey: "count") }
        viewer.performAndWait {
            #expect(inARecorder.drain().flatMap(\.objects).count == 50)
            #expect(allRecorder.drain().flatMap(\.objects).count == 50)
            #expect(lastBRecorder.drain().flatMap(\.objects).isEmpty)
        }
        try Self.change("Folder", tag: "name == 'b'", in: stack, into: viewer) { $0.setValue(Int64(9), forKey: "count") }
        viewer.performAndWait {
            #expect(inARecorder.drain().flatMap(\.objects).isEmpty)
            #expect(allRecorder.drain().flatMap(\.objects).count == 10)
            let updated = lastBRecorder.drain().flatMap(\.objects)
            #expect(updated.count == 5 && updated.allSatisfy { $0.type == .update && $0.indexPath == $0.newIndexPath })
            #expect(inA.fetchedObjects?.count == 50 && all.fetchedObjects?.count == 60 && lastB.fetchedObjects?.count == 5)
        }
    }
}
