import Foundation
import ObjectGraph
import Synchronization
import TestSupport
import Testing

/// Every form of derivation Core Data's SQL store keeps, beyond counts by foreign key
/// (`DerivedAttributeTests`): a replicated value (`author.name`), a string function of one
/// (`canonical:`, `lowercase:`, `uppercase:`), `@sum`, counts and sums through a join table,
/// and `now()` — kept in SQL whoever writes, and shown in the saving context after a save.
@Suite struct DerivedAttributeFormTests {
    static func model() -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                AttributeDescription("pageTotal", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("books", to: "Book", inverse: "author", toMany: true, deleteRule: .cascade)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("authorName", .string)
                AttributeDescription("loudAuthor", .string)
                AttributeDescription("searchTitle", .string)
                AttributeDescription("quietTitle", .string)
                AttributeDescription("changed", .date)
                RelationshipDescription("author", to: "Author", inverse: "books")
                RelationshipDescription("tags", to: "Tag", inverse: "books", toMany: true)
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                AttributeDescription("bookCount", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("pageSum", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("books", to: "Book", inverse: "tags", toMany: true)
            }
        }
        for (entity, name, expression) in [
            ("Author", "pageTotal", "sum:(books.pages)"), ("Book", "authorName", "author.name"), ("Book", "loudAuthor", "uppercase:(author.name)"),
            ("Book", "searchTitle", "canonical:(title)"), ("Book", "quietTitle", "lowercase:(title)"), ("Book", "changed", "now()"),
            ("Tag", "bookCount", "books.@count"), ("Tag", "pageSum", "books.@sum.pages"),
        ] {
            DerivedAttributeTests.attribute(name, of: entity, in: model).derivationExpression = expression
        }
        return model
    }

    /// The objects of `entity` by their `key`, in a fresh context: what a fresh fetch shows.
    static func fetched(_ entity: String, by key: String, in stack: TestStack) throws -> [String: [String: Any]] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            var rows: [String: [String: Any]] = [:]
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                var values: [String: Any] = [:]
                for name in object.entity.attributesByName.keys { values[name] = object.value(forKey: name) }
                rows[object.value(forKey: key) as! String] = values
            }
            return rows
        }
    }

    static func insert(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) throws -> ManagedObject {
        let object = try context.insertObject(entityName: entity)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    @Test("replicated values and string functions follow the source, the destination and a batch update", arguments: [false, true])
    func replicatedValuesFollowTheirSources(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let zoe = try Self.insert("Author", ["name": "Zoë"], in: context)
            let ann = try Self.insert("Author", ["name": "ann"], in: context)
            let book = try Self.insert("Book", ["title": "Crème BRÛLÉE", "author": zoe], in: context)
            // A destination inserted in the same save as its source, after it.
            let orphan = try Self.insert("Book", ["title": "Straße"], in: context)
            try context.save()
            #expect(book.value(forKey: "authorName") as? String == "Zoë")
            #expect(book.value(forKey: "loudAuthor") as? String == "ZOË")
            #expect(book.value(forKey: "searchTitle") as? String == "creme brulee")
            #expect(book.value(forKey: "quietTitle") as? String == "crème brûlée")
            #expect(orphan.value(forKey: "authorName") == nil)
            #expect(orphan.value(forKey: "loudAuthor") == nil)
            #expect(orphan.value(forKey: "quietTitle") as? String == "straße")
            #expect(!context.hasChanges, "the store's values are committed values, not changes")

            // The book moves to another author; the other author is renamed.
            book.setValue(ann, forKey: "author")
            try context.save()
            #expect(book.value(forKey: "authorName") as? String == "ann")
            let saves = Mutex<ContextDidSave?>(nil)
            let observer = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) { note in
                let payload = note.contextDidSave
                saves.withLock { $0 = payload }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            ann.setValue("Ann Brontë", forKey: "name")
            try context.save()
            #expect(book.value(forKey: "authorName") as? String == "Ann Brontë")
            #expect(book.value(forKey: "loudAuthor") as? String == "ANN BRONTË")
            #expect(saves.withLock { $0 }?.updatedObjectIDs.contains(book.objectID) == true, "a book the rename changed is reported updated")
            // The author goes: the books go with it (a cascade), and Zoë's none stay behind.
            orphan.setValue(zoe, forKey: "author")
            try context.save()
            #expect(orphan.value(forKey: "authorName") as? String == "Zoë")
        }
        // A batch update, which no context saves, changes the title: the SQL keeps the rest.
        try context.performAndWait {
            let request = BatchUpdateRequest(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == 'Straße'")
            request.propertiesToUpdate = ["title": "ÉTUDE"]
            _ = try context.execute(request)
        }
        let books = try Self.fetched("Book", by: "title", in: stack)
        #expect(books["ÉTUDE"]?["searchTitle"] as? String == "etude")
        #expect(books["ÉTUDE"]?["quietTitle"] as? String == "étude")
        #expect(books["ÉTUDE"]?["authorName"] as? String == "Zoë")
        #expect(books["Crème BRÛLÉE"]?["loudAuthor"] as? String == "ANN BRONTË")
    }

    @Test("sums and join-table counts follow members added, moved, changed and deleted")
    func sumsAndJoinCountsFollowTheMembers() throws {
        let stack = try TestStack(model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let ann = try Self.insert("Author", ["name": "ann"], in: context)
            let bob = try Self.insert("Author", ["name": "bob"], in: context)
            let classic = try Self.insert("Tag", ["name": "classic"], in: context)
            let short = try Self.insert("Tag", ["name": "short"], in: context)
            let emma = try Self.insert("Book", ["title": "emma", "pages": Int64(400), "author": ann], in: context)
            let odes = try Self.insert("Book", ["title": "odes", "pages": Int64(60), "author": ann], in: context)
            emma.mutableSetValue(forKey: "tags").add(classic)
            odes.mutableSetValue(forKey: "tags").union([classic, short])
            try context.save()
            #expect(ann.value(forKey: "pageTotal") as? Int64 == 460)
            #expect(bob.value(forKey: "pageTotal") as? Int64 == 0)
            #expect(classic.value(forKey: "bookCount") as? Int64 == 2)
            #expect(classic.value(forKey: "pageSum") as? Int64 == 460)
            #expect(short.value(forKey: "pageSum") as? Int64 == 60)

            odes.setValue(bob, forKey: "author")
            odes.setValue(Int64(75), forKey: "pages")
            emma.mutableSetValue(forKey: "tags").remove(classic)
            try context.save()
            #expect(ann.value(forKey: "pageTotal") as? Int64 == 400)
            #expect(bob.value(forKey: "pageTotal") as? Int64 == 75)
            #expect(classic.value(forKey: "bookCount") as? Int64 == 1)
            #expect(classic.value(forKey: "pageSum") as? Int64 == 75)
            #expect(short.value(forKey: "pageSum") as? Int64 == 75, "a member's changed value reaches a sum through the join table")

            context.delete(odes)
            try context.save()
            #expect(bob.value(forKey: "pageTotal") as? Int64 == 0)
            #expect(short.value(forKey: "bookCount") as? Int64 == 0)
        }
        let tags = try Self.fetched("Tag", by: "name", in: stack)
        #expect(tags["classic"]?["bookCount"] as? Int64 == 0 && tags["classic"]?["pageSum"] as? Int64 == 0)
        let authors = try Self.fetched("Author", by: "name", in: stack)
        #expect(authors["ann"]?["pageTotal"] as? Int64 == 400)
    }

    @Test("now() is the time of the save that inserted or last changed the object")
    func nowFollowsTheObjectsSaves() throws {
        let stack = try TestStack(model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let before = Date()
            let book = try Self.insert("Book", ["title": "emma"], in: context)
            let other = try Self.insert("Book", ["title": "odes"], in: context)
            try context.save()
            let inserted = try #require(book.value(forKey: "changed") as? Date)
            #expect(inserted >= before.addingTimeInterval(-1) && inserted <= Date().addingTimeInterval(1))
            let otherInserted = try #require(other.value(forKey: "changed") as? Date)

            // Saves go on until SQLite's clock shows a later time (its resolution is a
            // millisecond); only the changed book's time moves.
            var changed = inserted
            var round = 0
            while changed <= inserted {
                round += 1
                book.setValue("emma \(round)", forKey: "title")
                try context.save()
                changed = try #require(book.value(forKey: "changed") as? Date)
            }
            #expect(changed > inserted)
            #expect(other.value(forKey: "changed") as? Date == otherInserted, "an object the save did not change keeps its time")
        }
    }

    @Test("a store opened with a model that newly derives gets the values of the rows there")
    func reopeningWithDerivationsComputesThem() throws {
        let url = TestDirectory.make("derived-forms").appendingPathComponent("Library.sqlite")
        let plain = Self.model()
        for entity in plain.entities {
            for property in entity.properties { (property as? AttributeDescription)?.derivationExpression = nil }
        }
        do {
            let stack = try TestStack(model: plain, file: url)
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                let ann = try Self.insert("Author", ["name": "Ann"], in: context)
                let tag = try Self.insert("Tag", ["name": "classic"], in: context)
                let book = try Self.insert("Book", ["title": "Émma", "pages": Int64(400), "author": ann], in: context)
                book.mutableSetValue(forKey: "tags").add(tag)
                try context.save()
            }
        }
        let stack = try TestStack(model: Self.model(), file: url)
        let book = try #require(try Self.fetched("Book", by: "title", in: stack)["Émma"])
        #expect(book["authorName"] as? String == "Ann")
        #expect(book["searchTitle"] as? String == "emma")
        #expect(book["changed"] is Date, "a row with no time gets the time it was first kept")
        #expect(try Self.fetched("Author", by: "name", in: stack)["Ann"]?["pageTotal"] as? Int64 == 400)
        let tag = try #require(try Self.fetched("Tag", by: "name", in: stack)["classic"])
        #expect(tag["bookCount"] as? Int64 == 1 && tag["pageSum"] as? Int64 == 400)
    }
}
