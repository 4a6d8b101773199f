import Foundation
import ObjectGraph
import Testing

/// A model for batch-request tests, every entity a plain `ManagedObject` (used by key):
/// shelves cascade to books, books to their ordered chapters, chapters to notes (three levels);
/// a book's tags are many-to-many (nullify), its fans point at it with a to-one (nullify), its
/// loans deny its deletion; an e-book is a book; `isbn` is unique.
enum LibraryModel {
    static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Shelf") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "shelf", toMany: true, deleteRule: .cascade)
            }
            EntityDescription("Book") {
                AttributeDescription("isbn", .string)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("year", .integer64, optional: false, defaultValue: 1900)
                AttributeDescription("price", .double, optional: false, defaultValue: 9.5)
                AttributeDescription("published", .date)
                AttributeDescription("subtitle", .string)
                RelationshipDescription("shelf", to: "Shelf", inverse: "books")
                RelationshipDescription("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true, deleteRule: .cascade)
                RelationshipDescription("tags", to: "Tag", inverse: "books", toMany: true)
                RelationshipDescription("fans", to: "Reader", inverse: "favourite", toMany: true)
                RelationshipDescription("loans", to: "Loan", inverse: "book", toMany: true, deleteRule: .deny)
            }
            .unique("isbn")
            EntityDescription("Ebook", parent: "Book") {
                AttributeDescription("fileSize", .integer64, optional: false, defaultValue: 0)
            }
            EntityDescription("Chapter") {
                AttributeDescription("title", .string)
                RelationshipDescription("book", to: "Book", inverse: "chapters")
                RelationshipDescription("notes", to: "Note", inverse: "chapter", toMany: true, deleteRule: .cascade)
            }
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                RelationshipDescription("chapter", to: "Chapter", inverse: "notes")
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "tags", toMany: true)
            }
            EntityDescription("Reader") {
                AttributeDescription("name", .string)
                RelationshipDescription("favourite", to: "Book", inverse: "fans")
            }
            EntityDescription("Loan") {
                AttributeDescription("borrower", .string)
                RelationshipDescription("book", to: "Book", inverse: "loans")
            }
        }
    }

    /// A fresh stack on the library model: an SQLite file, or in memory.
    static func stack(inMemory: Bool) throws -> TestStack {
        try TestStack(inMemory: inMemory, model: make())
    }

    /// A new, empty store of `kind` with the library model.
    static func stack(_ kind: StoreKind) throws -> TestStack {
        try TestStack(kind, model: make())
    }

    /// Inserts an object of `entity` with `values` in `context` (unsaved).
    @discardableResult
    static func insert(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) throws -> ManagedObject {
        let object = try context.insertObject(entityName: entity)
        for (key, value) in values { try object.setCheckedValue(value, forKey: key) }
        return object
    }

    /// Every object of `entity` in a fresh context, described by `describe`, sorted.
    static func all(_ entity: String, in stack: TestStack, _ describe: @escaping (ManagedObject) -> String) throws -> [String] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map(describe).sorted()
        }
    }

    /// The number of objects of `entity` in a fresh context.
    static func count(_ entity: String, in stack: TestStack) throws -> Int {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: entity)) }
    }
}

/// Batch-request results merged into a context with a live, sectioned controller over items.
struct LiveItems {
    let stack: TestStack
    let context: ManagedObjectContext
    let controller: FetchedResultsController<Item>
    let recorder: ChangeRecorder

    /// A stack with `items` (name, group, rank) saved, and a controller sectioned by group,
    /// sorted by group, rank and name, already fetched.
    init(_ kind: StoreKind, items: [(String, String, Int64)]) throws {
        stack = try TestStack(kind, model: ItemModel.make())
        context = stack.container.newBackgroundContext()
        let context = context
        (controller, recorder) = try context.performAndWait {
            for (name, group, rank) in items {
                let item = Item(context: context)
                item.name = name
                item.group = group
                item.rank = rank
            }
            try context.save()
            let controller = FetchedResultsController(
                fetchRequest: LiveItems.request(),
                managedObjectContext: context,
                sectionNameKeyPath: "group",
                cacheName: nil
            )
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, recorder)
        }
    }

    static func request() -> FetchRequest<Item> {
        let request = Item.fetchRequest()
        request.sortDescriptors = [
            FetchSortDescriptor(key: "group", ascending: true), FetchSortDescriptor(key: "rank", ascending: true),
            FetchSortDescriptor(key: "name", ascending: true),
        ]
        return request
    }

    /// The controller's sections now.
    var sections: SectionsModel { context.performAndWait { SectionsModel(controller) } }

    /// What a new controller on a new context shows.
    func freshSections() throws -> SectionsModel {
        let fresh = stack.container.newBackgroundContext()
        return try fresh.performAndWait {
            let controller = FetchedResultsController(
                fetchRequest: LiveItems.request(),
                managedObjectContext: fresh,
                sectionNameKeyPath: "group",
                cacheName: nil
            )
            try controller.performFetch()
            return SectionsModel(controller)
        }
    }

    /// Runs `request` in a second context, merges `changes(result)` into the live context and
    /// checks the controller: its content equals a fresh fetch, and the batches its delegate
    /// reported, applied to the content before, give the content after.
    func runAndMerge(
        _ request: PersistentStoreRequest,
        changes: (PersistentStoreResult) -> [AnyHashable: Any]
    ) throws -> [ChangeRecorder.Batch] {
        let before = sections
        let worker = stack.container.newBackgroundContext()
        let result = try worker.performAndWait { try worker.execute(request) }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes(result), into: [context])
        let after = sections
        #expect(after == (try freshSections()))
        let batches = context.performAndWait { recorder.drain() }
        var replayed = before
        for batch in batches { replayed = try replayed.applying(batch) }
        #expect(replayed == after, "the delegate's changes, applied, give \(replayed), the controller shows \(after)")
        return batches
    }

    /// The IDs of the items named `names` (fresh context).
    func ids(_ names: [String]) throws -> [ManagedObjectID] {
        let fresh = stack.container.newBackgroundContext()
        return try fresh.performAndWait {
            let request = Item.fetchRequest()
            request.predicate = FetchPredicate(format: "name IN %@", names)
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            return try fresh.fetch(request).map(\.objectID)
        }
    }
}
