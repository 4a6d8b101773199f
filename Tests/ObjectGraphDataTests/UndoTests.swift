import Dispatch
import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// `ModelContext.undoManager`: inserts, changes and deletes undone and redone, before and
/// after a save, on an SQLite file and on PostgreSQL.
@Suite("ObjectGraphData undo")
struct UndoTests {
    /// A context of a new store of `store`'s kind with an undo manager whose groups the test
    /// opens and closes itself.
    static func makeContext(_ store: TestStoreKind) throws -> (ModelContext, UndoManager) {
        let context = ModelContext(try makeContainer(try store.configuration("undo")))
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        context.undoManager = undoManager
        #expect(context.undoManager === undoManager)
        return (context, undoManager)
    }

    /// Runs `body` as one undo group.
    static func group(_ undoManager: UndoManager, _ body: () throws -> Void) rethrows {
        undoManager.beginUndoGrouping()
        try body()
        undoManager.endUndoGrouping()
    }

    /// The titles of the photos a new context of `context`'s container reads from the store.
    static func storedTitles(_ context: ModelContext) throws -> [String] {
        let reader = ModelContext(context.container)
        return try reader.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test("An insert is undone and redone, before and after a save", arguments: TestStoreKind.allCases)
    func insert(store: TestStoreKind) throws {
        let (context, undoManager) = try Self.makeContext(store)
        Self.group(undoManager) { context.insert(Photo(title: "Quad", views: 3)) }
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 0)
        #expect(!context.hasChanges)
        #expect(undoManager.canRedo)
        undoManager.redo()
        #expect(try context.fetch(FetchDescriptor<Photo>()).map(\.title) == ["Quad"])
        try context.save()
        #expect(try Self.storedTitles(context) == ["Quad"])

        // Undone after the save: the photo is deleted by the next save, and comes back by redo.
        undoManager.undo()
        #expect(context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 0)
        try context.save()
        #expect(try Self.storedTitles(context) == [])
        undoManager.redo()
        try context.save()
        let reader = ModelContext(context.container)
        let stored = try reader.fetch(FetchDescriptor<Photo>())
        #expect(stored.map(\.title) == ["Quad"])
        #expect(stored.map(\.views) == [3])
        #expect(!undoManager.canRedo)
    }

    @Test("Changes to values and relationships are undone and redone, inverses included", arguments: TestStoreKind.allCases)
    func change(store: TestStoreKind) throws {
        let (context, undoManager) = try Self.makeContext(store)
        let photo = Photo(title: "Quad", views: 3)
        let tag = Tag(name: "campus")
        Self.group(undoManager) {
            context.insert(photo)
            photo.tags = [tag]
        }
        try context.save()
        Self.group(undoManager) {
            photo.title = "Main Quad"
            photo.views = 9
            photo.rating = 4.5
            photo.tags = []
        }
        #expect(tag.photos.isEmpty)
        undoManager.undo()
        #expect(photo.title == "Quad")
        #expect(photo.views == 3)
        #expect(photo.rating == nil)
        #expect(photo.tags.map(\.name) == ["campus"])
        #expect(tag.photos.map(\.title) == ["Quad"])
        #expect(!context.hasChanges)

        undoManager.redo()
        #expect(photo.title == "Main Quad")
        #expect(photo.views == 9)
        #expect(photo.rating == 4.5)
        #expect(photo.tags.isEmpty)
        #expect(tag.photos.isEmpty)
        try context.save()
        let reader = ModelContext(context.container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Photo>()).first)
        #expect(stored.title == "Main Quad")
        #expect(stored.tags.isEmpty)

        // Two groups back, past the save: the relationship and the values as first inserted.
        undoManager.undo()
        #expect(photo.title == "Quad")
        try context.save()
        let rereader = ModelContext(context.container)
        let again = try #require(try rereader.fetch(FetchDescriptor<Photo>()).first)
        #expect(again.title == "Quad")
        #expect(again.views == 3)
        #expect(again.tags.map(\.name) == ["campus"])
    }

    @Test("A delete is undone with what its delete rules changed, before and after a save", arguments: TestStoreKind.allCases)
    func delete(store: TestStoreKind) throws {
        let (context, undoManager) = try Self.makeContext(store)
        let photo = Photo(title: "Quad")
        let tag = Tag(name: "campus", uses: 5)
        context.insert(photo)
        photo.tags = [tag]
        try context.save()
        undoManager.removeAllActions()

        Self.group(undoManager) { context.delete(tag) }
        try context.save()
        #expect(photo.tags.isEmpty)
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Tag>()) == 0)

        undoManager.undo()
        #expect(try context.fetch(FetchDescriptor<Tag>()).map(\.name) == ["campus"])
        #expect(photo.tags.map(\.name) == ["campus"])
        try context.save()
        let reader = ModelContext(context.container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Tag>()).first)
        #expect(stored.name == "campus")
        #expect(stored.uses == 5)
        #expect(stored.photos.map(\.title) == ["Quad"])

        undoManager.redo()
        #expect(try context.fetchCount(FetchDescriptor<Tag>()) == 0)
        #expect(photo.tags.isEmpty)
        try context.save()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Tag>()) == 0)
    }

    @Test("On the main context, each main-queue turn's changes are one undo group")
    @MainActor
    func mainContextGroupsByEvent() async throws {
        let container = try makeContainer()
        let context = container.mainContext
        context.undoManager = UndoManager()
        let undoManager = try #require(context.undoManager)
        let photo = Photo(title: "Quad")
        context.insert(photo)
        await Self.nextMainQueueTurn()
        photo.title = "Main Quad"
        photo.views = 2
        await Self.nextMainQueueTurn()
        undoManager.undo()
        #expect(photo.title == "Quad")
        #expect(photo.views == 0)
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 1)
        undoManager.undo()
        #expect(try context.fetchCount(FetchDescriptor<Photo>()) == 0)
        #expect(!undoManager.canUndo)
        undoManager.redo()
        undoManager.redo()
        #expect(try context.fetch(FetchDescriptor<Photo>()).map(\.title) == ["Main Quad"])
    }

    /// Returns once the main queue has run what was queued on it before.
    @MainActor
    static func nextMainQueueTurn() async {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }
}
