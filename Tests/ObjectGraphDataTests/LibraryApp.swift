// A small library app's models and data logic, written as an iOS app on SwiftData writes them.
// Compiled unchanged here but for the import: on Apple platforms this file imports SwiftData.
#if canImport(SwiftData)
import SwiftData
#else
import ObjectGraphData
#endif
import Foundation

@Model
final class Author {
    @Attribute(.unique) var name: String
    var born: Int?
    @Relationship(deleteRule: .cascade, inverse: \Book.author) var books: [Book] = []

    init(name: String, born: Int? = nil) {
        self.name = name
        self.born = born
    }
}

@Model
final class Book {
    @Attribute(.unique) var isbn: String
    var title: String
    var published: Date
    var pages: Int = 0
    var rating: Double?
    var genres: [String] = []
    var author: Author?
    @Relationship(deleteRule: .cascade) var loans: [Loan] = []
    @Transient var isSelected = false

    init(isbn: String, title: String, published: Date = Date(timeIntervalSince1970: 0), pages: Int = 0, author: Author? = nil) {
        self.isbn = isbn
        self.title = title
        self.published = published
        self.pages = pages
        self.author = author
    }

    var isOnLoan: Bool { loans.contains { $0.returned == nil } }
}

@Model
final class Loan {
    var borrower: String
    var due: Date
    var returned: Date?
    var book: Book?

    init(borrower: String, due: Date, book: Book) {
        self.borrower = borrower
        self.due = due
        self.book = book
    }
}

/// The app's data logic: what its views and intents call.
struct Library {
    let context: ModelContext

    @discardableResult
    func addBook(isbn: String, title: String, by authorName: String, pages: Int) throws -> Book {
        let author = try existingAuthor(named: authorName) ?? Author(name: authorName)
        let book = Book(isbn: isbn, title: title, pages: pages, author: author)
        context.insert(book)
        try context.save()
        return book
    }

    func existingAuthor(named name: String) throws -> Author? {
        var descriptor = FetchDescriptor<Author>(predicate: #Predicate { $0.name == name })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }

    func search(_ text: String) throws -> [Book] {
        let descriptor = FetchDescriptor<Book>(
            predicate: #Predicate { $0.title.localizedStandardContains(text) },
            sortBy: [SortDescriptor(\.title, comparator: .localizedStandard)]
        )
        return try context.fetch(descriptor)
    }

    func lend(_ book: Book, to borrower: String, until due: Date) throws {
        let loan = Loan(borrower: borrower, due: due, book: book)
        context.insert(loan)
        try context.save()
    }

    func giveBack(_ book: Book, on date: Date) throws {
        for loan in book.loans where loan.returned == nil { loan.returned = date }
        try context.save()
    }

    func overdueLoans(on date: Date) throws -> [Loan] {
        try context.fetch(
            FetchDescriptor<Loan>(
                predicate: #Predicate { $0.returned == nil && $0.due < date },
                sortBy: [SortDescriptor(\.due)]
            )
        )
    }

    func availableBooks() throws -> [Book] {
        try context.fetch(
            FetchDescriptor<Book>(
                predicate: #Predicate { book in book.loans.allSatisfy { $0.returned != nil } },
                sortBy: [SortDescriptor(\.title)]
            )
        )
    }

    func books(by authorName: String, longerThan pages: Int) throws -> [Book] {
        try context.fetch(
            FetchDescriptor<Book>(
                predicate: #Predicate { $0.author?.name == authorName && $0.pages > pages },
                sortBy: [SortDescriptor(\.pages, order: .reverse)]
            )
        )
    }

    func prolificAuthors(minimumBooks: Int) throws -> [Author] {
        try context.fetch(
            FetchDescriptor<Author>(predicate: #Predicate { $0.books.count >= minimumBooks }, sortBy: [SortDescriptor(\.name)])
        )
    }

    func removeAuthor(_ author: Author) throws {
        context.delete(author)
        try context.save()
    }
}
