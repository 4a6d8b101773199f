import Foundation
import ObjectGraph
import Testing

/// A context's ``UndoManager``, as Core Data's: each processed change is a step that undoes
/// and redoes, delete rules included.
@Suite("Context undo")
struct ContextUndoTests {
    @Test("Undoing a cascading delete brings back every object it deleted, related again; redo deletes them again", arguments: StoreKind.allCases)
    func cascade(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        let reader = stack.container.newBackgroundContext()
        try context.performAndWait {
            let undoManager = UndoManager()
            undoManager.groupsByEvent = false
            context.undoManager = undoManager
            let ansel = Photographer(context: context)
            ansel.name = "Ansel"
            for index in 0..<3 {
                let photo = Photo(context: context)
                photo.unique = "\(index)"
                photo.photographer = ansel
                let recent = Recent(context: context)
                recent.lastViewed = Date(timeIntervalSinceReferenceDate: Double(index))
                recent.photo = photo
            }
            try context.save()
            undoManager.removeAllActions()

            undoManager.beginUndoGrouping()
            context.delete(ansel)
            undoManager.endUndoGrouping()
            try context.save()
            #expect(try context.count(for: Photo.fetchRequest()) == 0)
            #expect(try context.count(for: Recent.fetchRequest()) == 0)

            undoManager.undo()
            #expect(!ansel.isDeleted)
            #expect(ansel.photos.count == 3)
            try context.save()
            try reader.performAndWait {
                reader.reset()
                let photos = try reader.fetch(Photo.fetchRequest())
                #expect(photos.compactMap(\.unique).sorted() == ["0", "1", "2"])
                #expect(photos.allSatisfy { $0.photographer?.name == "Ansel" })
                let recents = try reader.fetch(Recent.fetchRequest())
                #expect(recents.compactMap { $0.photo?.unique }.sorted() == ["0", "1", "2"])
            }

            #expect(undoManager.canRedo)
            undoManager.redo()
            #expect(ansel.isDeleted)
            try context.save()
            try reader.performAndWait { () throws in
                reader.reset()
                #expect(try reader.count(for: Photo.fetchRequest()) == 0)
                #expect(try reader.count(for: Photographer.fetchRequest()) == 0)
                #expect(try reader.count(for: Recent.fetchRequest()) == 0)
            }
        }
    }

    @Test("Nested groups undo as one, levelsOfUndo drops the oldest, rollback clears the context's actions")
    func groups() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let undoManager = UndoManager()
            undoManager.groupsByEvent = false
            undoManager.levelsOfUndo = 2
            context.undoManager = undoManager
            let photo = Photo(context: context)
            photo.unique = "a"
            try context.save()
            undoManager.removeAllActions()
            for title in ["one", "two", "three"] {
                undoManager.beginUndoGrouping()
                photo.title = title
                undoManager.beginUndoGrouping()
                photo.views = Int64(title.count)
                undoManager.endUndoGrouping()
                undoManager.setActionName("Retitle \(title)")
                undoManager.endUndoGrouping()
            }
            #expect(undoManager.undoActionName == "Retitle three")
            undoManager.undo()
            #expect(photo.title == "two")
            #expect(photo.views == 3)
            #expect(undoManager.redoActionName == "Retitle three")
            undoManager.undo()
            #expect(photo.title == "one")
            #expect(!undoManager.canUndo)

            undoManager.redo()
            #expect(photo.title == "two")
            context.rollback()
            #expect(!undoManager.canUndo)
            #expect(!undoManager.canRedo)
            #expect(photo.title == nil)
        }
    }
}
