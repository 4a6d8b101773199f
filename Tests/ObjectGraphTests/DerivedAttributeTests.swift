import Foundation
import ObjectGraph
import Synchronization
import TestSupport
import Testing

/// A derived attribute that counts a to-many relationship (`books.@count`, `count:(chapters)`),
/// in a store this library creates: kept by Core Data's triggers, whoever writes the members,
/// and shown in the saving context's objects after the save, as Core Data's are.
@Suite struct DerivedAttributeTests {
    static func model() -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Shelf") {
                AttributeDescription("name", .string)
                AttributeDescription("bookCount", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("books", to: "Book", inverse: "shelf", toMany: true, deleteRule: .cascade)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("chapterCount", .integer32, optional: false, defaultValue: 0)
                RelationshipDescription("shelf", to: "Shelf", inverse: "books")
                RelationshipDescription("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true, deleteRule: .cascade)
            }
            EntityDescription("Chapter") {
                AttributeDescription("title", .string)
                RelationshipDescription("book", to: "Book", inverse: "chapters")
            }
        }
        // Core Data's spellings, both: the model editor's key path and the archived function.
        attribute("bookCount", of: "Shelf", in: model).derivationExpression = "books.@count"
        attribute("chapterCount", of: "Book", in: model).derivationExpression = "count:(chapters)"
        return model
    }

    /// An attribute of a model not loaded yet (whose `attributesByName` is not there yet).
    static func attribute(_ name: String, of entity: String, in model: ManagedObjectModel) -> AttributeDescription {
        model.entitiesByName[entity]!.properties.first { $0.name == name } as! AttributeDescription
    }

    /// Inserts a shelf named `name` with a book per key of `books`, holding that many chapters
    /// (titled "<book> 1", "<book> 2", …).
    static func insertShelf(_ name: String, books: [String: Int], in context: ManagedObjectContext) throws {
        let shelf = try context.insertObject(entityName: "Shelf")
        shelf.setValue(name, forKey: "name")
        for (title, chapters) in books {
            let book = try context.insertObject(entityName: "Book")
            book.setValue(title, forKey: "title")
            book.setValue(shelf, forKey: "shelf")
            for number in stride(from: 1, through: chapters, by: 1) {
                let chapter = try context.insertObject(entityName: "Chapter")
                chapter.setValue("\(title) \(number)", forKey: "title")
                chapter.setValue(book, forKey: "book")
            }
        }
    }

    /// Every shelf's and book's count, read in a fresh context.
    static func counts(in stack: TestStack) throws -> [String: Int64] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            var counts: [String: Int64] = [:]
            for shelf in try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")) {
                counts[shelf.value(forKey: "name") as! String] = shelf.value(forKey: "bookCount") as? Int64
            }
            for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                counts[book.value(forKey: "title") as! String] = (book.value(forKey: "chapterCount") as? Int32).map(Int64.init)
            }
            return counts
        }
    }

    @Test("counts follow inserts, moves, deletes and cascades, in the saving context and the store", arguments: [false, true])
    func countsFollowTheMembers(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let fiction = try context.insertObject(entityName: "Shelf")
            fiction.setValue("fiction", forKey: "name")
            let poetry = try context.insertObject(entityName: "Shelf")
            poetry.setValue("poetry", forKey: "name")
            var books: [String: ManagedObject] = [:]
            for (title, chapters) in [("dune", 3), ("emma", 2), ("odes", 0)] {
                let book = try context.insertObject(entityName: "Book")
                book.setValue(title, forKey: "title")
                book.setValue(title == "odes" ? poetry : fiction, forKey: "shelf")
                for index in 0..<chapters {
                    let chapter = try context.insertObject(entityName: "Chapter")
                    chapter.setValue("\(title) \(index)", forKey: "title")
                    chapter.setValue(book, forKey: "book")
                }
                books[title] = book
            }
            try context.save()
            // The store's values, in the saving context's objects at once, and not as changes.
            #expect(fiction.value(forKey: "bookCount") as? Int64 == 2)
            #expect(poetry.value(forKey: "bookCount") as? Int64 == 1)
            #expect(books["dune"]!.value(forKey: "chapterCount") as? Int32 == 3)
            #expect(books["odes"]!.value(forKey: "chapterCount") as? Int32 == 0)
            #expect(!context.hasChanges)

            // A book moves to another shelf; a chapter moves to another book; a book is deleted
            // with its chapters (a cascade).
            books["emma"]!.setValue(poetry, forKey: "shelf")
            let first = FetchRequest<ManagedObject>(entityName: "Chapter")
            first.predicate = FetchPredicate(format: "title == 'dune 0'")
            let chapter = try #require(try context.fetch(first).first)
            chapter.setValue(books["odes"]!, forKey: "book")
            try context.save()
            #expect(fiction.value(forKey: "bookCount") as? Int64 == 1)
            #expect(poetry.value(forKey: "bookCount") as? Int64 == 2)
            #expect(books["dune"]!.value(forKey: "chapterCount") as? Int32 == 2)
            #expect(books["odes"]!.value(forKey: "chapterCount") as? Int32 == 1)
            // The book the cascade's triggers counted down is reported deleted, not updated.
            let saves = Mutex<ContextDidSave?>(nil)
            let observer = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) { note in
                let payload = note.contextDidSave
                saves.withLock { $0 = payload }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let dune = books["dune"]!.objectID
            context.delete(books["dune"]!)
            try context.save()
            #expect(fiction.value(forKey: "bookCount") as? Int64 == 0)
            let reported = saves.withLock { $0 }
            #expect(reported?.deletedObjectIDs.contains(dune) == true)
            #expect(reported?.updatedObjectIDs.contains(dune) == false)
            #expect(reported?.updatedObjectIDs.contains(fiction.objectID) == true)
        }
        #expect(try Self.counts(in: stack) == ["fiction": 0, "poetry": 2, "emma": 2, "odes": 1])
    }

    @Test("a batch delete, which no context saves, keeps the counts too")
    func batchDeleteKeepsTheCounts() throws {
        let stack = try TestStack(model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Self.insertShelf("fiction", books: ["dune": 1, "emma": 1], in: context)
            try context.save()
            let chapters = FetchRequest<any FetchRequestResult>(entityName: "Chapter")
            chapters.predicate = FetchPredicate(format: "title BEGINSWITH 'dune'")
            _ = try context.execute(BatchDeleteRequest(fetchRequest: chapters))
        }
        let counted = try Self.counts(in: stack)
        #expect(counted == ["fiction": 2, "dune": 0, "emma": 1], "\(counted)")
    }

    @Test("a migration that adds the derived attribute counts the rows there, and keeps counting")
    func migrationAddsTheCount() throws {
        let url = TestDirectory.make("derived-migration").appendingPathComponent("Library.sqlite")
        // Version 1: no counts.
        let plain = Self.model()
        Self.attribute("bookCount", of: "Shelf", in: plain).derivationExpression = nil
        Self.attribute("chapterCount", of: "Book", in: plain).derivationExpression = nil
        do {
            let stack = try TestStack(model: plain, file: url)
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                try Self.insertShelf("fiction", books: ["dune": 0, "emma": 0], in: context)
                try context.save()
            }
            #expect(try Self.counts(in: stack) == ["fiction": 0, "dune": 0, "emma": 0])
        }
        // Version 2 derives them: the migration counts, and the triggers go on counting.
        let stack = try TestStack(model: Self.model(), file: url)
        let migrated = try Self.counts(in: stack)
        #expect(migrated == ["fiction": 2, "dune": 0, "emma": 0], "\(migrated)")
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == 'emma'")
            let emma = try #require(try context.fetch(request).first)
            let chapter = try context.insertObject(entityName: "Chapter")
            chapter.setValue("emma 1", forKey: "title")
            chapter.setValue(emma, forKey: "book")
            try context.save()
        }
        let counted = try Self.counts(in: stack)
        #expect(counted == ["fiction": 2, "dune": 0, "emma": 1], "\(counted)")
    }

    @Test("a derivation the store cannot keep refuses the store, naming the attribute, as Core Data refuses it")
    func unkeptDerivationsRefuseTheStore() throws {
        for (expression, why) in [
            ("chapters.@sum.title", "sums 'title'"), ("chapters.@avg.title", "only @count and @sum"), ("shelf.books.@count", "not a stored to-many"),
            ("abs:(chapterCount)", "calls abs:"), ("shelf.name.length", "one to-one step"), ("FUNCTION(title, 'x')", "not one of the forms"),
            ("now()", "is a time, kept in an attribute of type integer32"), ("title", "replicates a string value into an attribute of type integer32"),
        ] {
            let model = Self.model()
            Self.attribute("chapterCount", of: "Book", in: model).derivationExpression = expression
            let error = #expect(throws: ObjectGraphError.self) { _ = try TestStack(model: model) }
            #expect(error?.code == .persistentStoreIncompatibleSchema, "\(expression)")
            #expect(error?.message.contains("'Book.chapterCount'") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(expression) == true && error?.message.contains(why) == true, "\(error?.message ?? "")")
        }
    }
}
