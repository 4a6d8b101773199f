import Foundation
import ObjectGraph
import Testing

/// What an objects-did-change notification reported, by object ID (Sendable).
struct ChangeSummary: Sendable, Equatable {
    var inserted: Set<ManagedObjectID> = []
    var updated: Set<ManagedObjectID> = []
    var deleted: Set<ManagedObjectID> = []

    init(_ change: ObjectsDidChange) {
        inserted = Set(change.insertedObjects.map(\.objectID))
        updated = Set(change.updatedObjects.map(\.objectID)).union(change.refreshedObjects.map(\.objectID))
        deleted = Set(change.deletedObjects.map(\.objectID))
    }
}

@Suite("Merging saves between contexts")
struct ContextMergeTests {
    @MainActor
    @Test("a background save is merged into the view context: updated, inserted and deleted objects")
    func automaticMerge() async throws {
        let stack = try TestStack()
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let hoover = Photo(context: view)
        hoover.unique = "hoover"
        hoover.title = "Hoover Tower"
        let quad = Photo(context: view)
        quad.unique = "quad"
        try view.save()
        let (changes, continuation) = AsyncStream<ChangeSummary>.makeStream()
        let observation = view.addObjectsDidChangeObserver { continuation.yield(ChangeSummary($0)) }
        defer { observation.cancel() }

        let hooverID = hoover.objectID
        let quadID = quad.objectID
        let background = stack.container.newBackgroundContext()
        let insertedID = try await background.perform {
            let photo = try #require(try background.existingObject(with: hooverID) as? Photo)
            photo.title = "Hoover Tower at dusk"
            background.delete(background.object(with: quadID))
            let oval = Photo(context: background)
            oval.unique = "oval"
            try background.save()
            return oval.objectID
        }
        var iterator = changes.makeAsyncIterator()
        let summary = try #require(await iterator.next())
        #expect(summary.updated.contains(hooverID))
        #expect(summary.deleted == [quadID])
        #expect(summary.inserted == [insertedID])
        #expect(hoover.title == "Hoover Tower at dusk")
        #expect(quad.isDeleted)
        #expect(try view.fetch(Photo.fetchRequest()).compactMap(\.unique).sorted() == ["hoover", "oval"])
    }

    @MainActor
    @Test("unsaved changes in the view context survive a merge of other keys")
    func mergeKeepsLocalChanges() async throws {
        let stack = try TestStack(inMemory: true)
        let view = stack.container.viewContext
        let photo = Photo(context: view)
        photo.unique = "1"
        photo.title = "Old title"
        try view.save()
        photo.subtitle = "my unsaved subtitle"
        let id = photo.objectID
        let background = stack.container.newBackgroundContext()
        var saves = background.didSaveNotifications().makeAsyncIterator()
        try await background.perform {
            let copy = try #require(try background.existingObject(with: id) as? Photo)
            copy.title = "New title"
            try background.save()
        }
        let saved = try #require(await saves.next())
        #expect(saved.updatedObjectIDs == [id])
        view.mergeChanges(fromContextDidSave: saved)
        #expect(photo.title == "New title")
        #expect(photo.subtitle == "my unsaved subtitle")
        #expect(photo.hasChanges)
    }

    @Test("did-save notifications arrive through NotificationCenter and as an async sequence")
    func notifications() async throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        let saves = context.didSaveNotifications()
        let id = try await context.perform {
            let tag = Tag(context: context)
            tag.name = "dish"
            try context.save()
            return tag.objectID
        }
        var iterator = saves.makeAsyncIterator()
        let payload = try #require(await iterator.next())
        #expect(payload.insertedObjectIDs == [id])
    }

    @Test("a Core Data style NotificationCenter observer can merge into another context")
    func notificationCenterMerge() throws {
        let stack = try TestStack(inMemory: true)
        let writer = stack.container.newBackgroundContext()
        let reader = stack.container.newBackgroundContext()
        let tag: Tag = reader.performAndWait {
            let tag = Tag(context: reader)
            tag.name = "quad"
            try? reader.save()
            return tag
        }
        let token = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: writer, queue: nil) { note in
            guard let saved = note.contextDidSave else { return }
            reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let id = reader.performAndWait { tag.objectID }
        try writer.performAndWait {
            let copy = try #require(try writer.existingObject(with: id) as? Tag)
            copy.name = "main quad"
            try writer.save()
        }
        reader.performAndWait { #expect(tag.name == "main quad") }
    }
}
