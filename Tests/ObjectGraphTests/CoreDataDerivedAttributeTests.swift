import Foundation
import ObjectGraph
import Testing

/// A store Core Data wrote with a derived attribute (SampleModel2's `Book.pagesCount`,
/// `count:(pages)`) keeps Core Data's triggers: writing pages through ObjectGraph runs them,
/// and the count stays right.
@Suite struct CoreDataDerivedAttributeTests {
    private static func pagesCount(of title: String, in container: PersistentContainer) throws -> (stored: Int64?, pages: Int) {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == %@", title)
            let book = try #require(try context.fetch(request).first)
            return (book.value(forKey: "pagesCount") as? Int64, (book.value(forKey: "pages") as? Set<ManagedObject>)?.count ?? -1)
        }
    }

    @Test("adding, moving and deleting pages in SampleModel2's store runs Core Data's pagesCount triggers")
    func triggersKeepTheDerivedCount() throws {
        let url = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel2/SampleModel2_V1.sqlite")
        let model = try ManagedObjectModel(cachedInStoreAt: url)
        let container = PersistentContainer(name: "SampleModel2", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }

        let context = container.newBackgroundContext()
        let (first, second): (String, String) = try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "pages.@count > 0")
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let books = try context.fetch(request)
            return (books[0].value(forKey: "title") as! String, books[1].value(forKey: "title") as! String)
        }
        let before = try Self.pagesCount(of: first, in: container)
        let otherBefore = try Self.pagesCount(of: second, in: container)
        #expect(before.stored == Int64(before.pages), "Core Data's own count, as the fixture holds it")

        // Another context holding the book, merging the first one's saves.
        let watcher = container.newBackgroundContext()
        let watched: ManagedObject = try watcher.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == %@", first)
            let book = try #require(try watcher.fetch(request).first)
            _ = book.value(forKey: "pagesCount")
            return book
        }
        let merging = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) { note in
            watcher.performAndWait { watcher.mergeChanges(fromContextDidSave: note) }
        }
        defer { NotificationCenter.default.removeObserver(merging) }

        // Two new pages for the first book.
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "title == %@", first)
            let book = try #require(try context.fetch(request).first)
            // Page.content is required: the new pages take an existing page's.
            let content = (book.value(forKey: "pages") as? Set<ManagedObject>)?.first?.value(forKey: "content")
            for number in 1_000..<1_002 {
                let page = try context.insertObject(entityName: "Page")
                page.setValue(Int32(number), forKey: "number")
                page.setValue(content, forKey: "content")
                page.setValue(book, forKey: "book")
            }
            try context.save()
            // The triggers' values show in the saving context's object at once, as Core
            // Data's do (its triggers report them), not as a change.
            #expect(book.value(forKey: "pagesCount") as? Int64 == before.stored.map { $0 + 2 })
            #expect(!book.hasChanges)
        }
        // A context merging the save sees them too: the book is among the updated objects.
        watcher.performAndWait {
            #expect(watched.value(forKey: "pagesCount") as? Int64 == before.stored.map { $0 + 2 })
        }
        #expect(try Self.pagesCount(of: first, in: container) == (before.stored.map { $0 + 2 }, before.pages + 2))

        // One of them moves to the second book, the other is deleted.
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Page")
            request.predicate = FetchPredicate(format: "number >= 1000")
            request.sortDescriptors = [FetchSortDescriptor(key: "number", ascending: true)]
            let pages = try context.fetch(request)
            let other = FetchRequest<ManagedObject>(entityName: "Book")
            other.predicate = FetchPredicate(format: "title == %@", second)
            let target = try #require(try context.fetch(other).first)
            pages[0].setValue(target, forKey: "book")
            context.delete(pages[1])
            try context.save()
        }
        #expect(try Self.pagesCount(of: first, in: container) == (before.stored, before.pages))
        #expect(try Self.pagesCount(of: second, in: container) == (otherBefore.stored.map { $0 + 1 }, otherBefore.pages + 1))
    }
}
