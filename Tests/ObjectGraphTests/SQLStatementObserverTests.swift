import Foundation
import ObjectGraph
import TestSupport
import Testing

private final class Shelf: ManagedObject {
    @Managed var name: String?
    @Managed var books: Set<Book>
}

private final class Book: ManagedObject {
    @Managed var title: String?
    @Managed var shelf: Shelf?
}

@Suite("SQL statement observer")
struct SQLStatementObserverTests {
    private func container(maxBooks: Int? = nil, log: StatementLog) throws -> PersistentContainer {
        let model = ManagedObjectModel {
            EntityDescription("Shelf", class: Shelf.self) {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "shelf", toMany: true, maxCount: maxBooks)
            }
            EntityDescription("Book", class: Book.self) {
                AttributeDescription("title", .string)
                RelationshipDescription("shelf", to: "Shelf", inverse: "books")
            }
        }
        let directory = TestDirectory.make("objectgraph-sql")
        let description = PersistentStoreDescription(url: directory.appendingPathComponent("Store.sqlite"))
        description.setOption(log.observer, forKey: PersistentStore.sqlStatementObserverOption)
        let container = PersistentContainer(name: "Shelves", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    @Test("the observer sees each statement, and a save that adds to a large to-many does not read its members")
    func addingToAnUnconstrainedToManyReadsNoMembers() throws {
        let log = StatementLog()
        let context = try container(log: log).newBackgroundContext()
        try context.performAndWait {
            let shelf = Shelf(context: context)
            shelf.name = "Fiction"
            for number in 0..<200 {
                let book = Book(context: context)
                book.title = "Book \(number)"
                book.shelf = shelf
            }
            try context.save()
            context.reset()
            _ = log.take()

            let fetched = try #require(try context.fetch(Shelf.fetchRequest()).first)
            for number in 0..<50 {
                let book = Book(context: context)
                book.title = "More \(number)"
                book.shelf = fetched
            }
            try context.save()
            let statements = log.take()
            #expect(statements.contains { $0.hasPrefix("INSERT INTO ZBOOK") })
            #expect(!statements.contains { $0.hasPrefix("SELECT") && $0.contains("FROM ZBOOK") }, "\(statements)")
            #expect(fetched.books.count == 250)
        }
    }

    @Test("a to-many with a maximum count is still checked at save")
    func aMaximumCountIsStillEnforced() throws {
        let log = StatementLog()
        let context = try container(maxBooks: 2, log: log).newBackgroundContext()
        try context.performAndWait {
            let shelf = Shelf(context: context)
            for number in 0..<2 {
                let book = Book(context: context)
                book.title = "Book \(number)"
                book.shelf = shelf
            }
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(Shelf.fetchRequest()).first)
            let extra = Book(context: context)
            extra.shelf = fetched
            #expect(throws: ObjectGraphError.self) { try context.save() }
        }
    }
}
