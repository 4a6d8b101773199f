import Foundation
import ObjectGraphData
import Testing

/// The library app's data logic (LibraryApp.swift, written for SwiftData), run on ObjectGraph.
@Suite("ObjectGraphData library app")
struct LibraryAppTests {
    let container: ModelContainer
    let library: Library

    init() throws {
        container = try ModelContainer(for: Book.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        library = Library(context: ModelContext(container))
    }

    @Test("Schema: the models Book reaches, attributes and relationships with inverses")
    func schema() throws {
        #expect(container.schema.entities.map(\.name) == ["Author", "Book", "Loan"])
        let book = try #require(container.schema.entity(for: Book.self))
        #expect(book.attributeNames.sorted() == ["genres", "isbn", "pages", "published", "rating", "title"])
        #expect(book.relationshipNames.sorted() == ["author", "loans"])
        let model = container.persistentContainer.managedObjectModel
        #expect(model.entitiesByName["Book"]?.relationshipsByName["author"]?.inverseRelationship?.name == "books")
        #expect(model.entitiesByName["Book"]?.relationshipsByName["loans"]?.inverseRelationship?.name == "book")
        #expect(model.entitiesByName["Author"]?.relationshipsByName["books"]?.deleteRule == .cascade)
    }

    @Test("Adding books finds or makes the author, and the inverse follows")
    func addBooks() throws {
        try library.addBook(isbn: "1", title: "Dune", by: "Frank Herbert", pages: 412)
        try library.addBook(isbn: "2", title: "Dune Messiah", by: "Frank Herbert", pages: 256)
        try library.addBook(isbn: "3", title: "Solaris", by: "Stanisław Lem", pages: 204)
        let frank = try #require(try library.existingAuthor(named: "Frank Herbert"))
        #expect(frank.books.map(\.title).sorted() == ["Dune", "Dune Messiah"])
        #expect(try library.context.fetchCount(FetchDescriptor<Author>()) == 2)
        #expect(try library.books(by: "Frank Herbert", longerThan: 300).map(\.title) == ["Dune"])
        #expect(try library.prolificAuthors(minimumBooks: 2).map(\.name) == ["Frank Herbert"])
    }

    @Test("Search is case- and diacritic-insensitive, sorted the Finder's way")
    func search() throws {
        try library.addBook(isbn: "1", title: "Book 10", by: "A", pages: 1)
        try library.addBook(isbn: "2", title: "book 9", by: "A", pages: 1)
        try library.addBook(isbn: "3", title: "Café", by: "B", pages: 1)
        #expect(try library.search("BOOK").map(\.title) == ["book 9", "Book 10"])
        #expect(try library.search("cafe").map(\.title) == ["Café"])
    }

    @Test("Loans: lend, overdue, give back, availability")
    func loans() throws {
        let dune = try library.addBook(isbn: "1", title: "Dune", by: "Frank Herbert", pages: 412)
        try library.addBook(isbn: "2", title: "Emma", by: "Jane Austen", pages: 300)
        let day = 86_400.0
        try library.lend(dune, to: "ada", until: Date(timeIntervalSince1970: 10 * day))
        #expect(dune.isOnLoan)
        #expect(try library.availableBooks().map(\.title) == ["Emma"])
        #expect(try library.overdueLoans(on: Date(timeIntervalSince1970: 11 * day)).map(\.borrower) == ["ada"])
        #expect(try library.overdueLoans(on: Date(timeIntervalSince1970: 9 * day)).isEmpty)
        try library.giveBack(dune, on: Date(timeIntervalSince1970: 12 * day))
        #expect(!dune.isOnLoan)
        #expect(try library.availableBooks().map(\.title) == ["Dune", "Emma"])
        #expect(try library.overdueLoans(on: Date(timeIntervalSince1970: 11 * day)).isEmpty)
    }

    @Test("Deleting an author cascades to their books and the books' loans")
    func cascade() throws {
        let dune = try library.addBook(isbn: "1", title: "Dune", by: "Frank Herbert", pages: 412)
        try library.addBook(isbn: "2", title: "Emma", by: "Jane Austen", pages: 300)
        try library.lend(dune, to: "ada", until: Date(timeIntervalSince1970: 0))
        try library.removeAuthor(try #require(try library.existingAuthor(named: "Frank Herbert")))
        let context = library.context
        #expect(try context.fetch(FetchDescriptor<Book>()).map(\.title) == ["Emma"])
        #expect(try context.fetchCount(FetchDescriptor<Loan>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Author>()) == 1)
    }
}
