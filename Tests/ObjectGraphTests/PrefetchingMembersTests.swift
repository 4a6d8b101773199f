import Foundation
import ObjectGraph
import Testing

/// Prefetched to-many members as a user reads them, on every store: ordered relationships in
/// their order, one-to-many and many-to-many, subentities among the sources, two-step key
/// paths, unsaved changes kept, and, on SQLite, the statements a prefetched fetch runs.
@Suite("Prefetching members")
struct PrefetchingMembersTests {
    /// Books "Book 00"… on one shelf, every third an e-book (a subentity); book `n` has
    /// `n % 4` chapters, inserted in one order and stored in the reverse (ordered), each with
    /// one note, and tags `n % 3` and `(n + 1) % 3` of three. Books are inserted in reverse
    /// title order, so their keys run against their titles.
    private static func seed(_ container: PersistentContainer, books: Int) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let shelf = try LibraryModel.insert("Shelf", ["name": "main"], in: context)
            let tags = try (0..<3).map { try LibraryModel.insert("Tag", ["name": "tag \($0)"], in: context) }
            for number in (0..<books).reversed() {
                let book = try LibraryModel.insert(
                    number % 3 == 0 ? "Ebook" : "Book",
                    ["title": String(format: "Book %02d", number)],
                    in: context
                )
                book.setValue(shelf, forKey: "shelf")
                let chapters = try (0..<number % 4).map { chapter in
                    let made = try LibraryModel.insert("Chapter", ["title": "\(number).\(chapter)"], in: context)
                    try LibraryModel.insert("Note", ["text": "note \(number).\(chapter)", "chapter": made], in: context)
                    return made
                }
                book.setValue(Array(chapters.reversed()), forKey: "chapters")
                book.setValue(Set([tags[number % 3], tags[(number + 1) % 3]]), forKey: "tags")
            }
            try context.save()
        }
    }

    /// Each book as "title: chapters in order | sorted tags | its chapters' notes in order".
    private static func walk(_ books: [ManagedObject]) -> [String] {
        books.map { book in
            let chapters = (book.value(forKey: "chapters") as? [ManagedObject]) ?? []
            let tags = ((book.value(forKey: "tags") as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "name") as? String }
            let notes = chapters.flatMap { (($0.value(forKey: "notes") as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "text") as? String } }
            let titles = chapters.compactMap { $0.value(forKey: "title") as? String }
            return "\(book.value(forKey: "title") as? String ?? ""): \(titles.joined(separator: ",")) | \(tags.sorted().joined(separator: ",")) | \(notes.joined(separator: ","))"
        }
    }

    private static func books(prefetching keyPaths: [String]?, predicate: FetchPredicate? = nil) -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = predicate
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        request.relationshipKeyPathsForPrefetching = keyPaths
        return request
    }

    @Test("ordered, one-to-many and many-to-many members, e-books among books, two steps", arguments: StoreKind.allCases)
    func membersInOrder(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        try Self.seed(stack.container, books: 12)
        let context = stack.container.newBackgroundContext()
        let prefetched = try context.performAndWait {
            Self.walk(try context.fetch(Self.books(prefetching: ["chapters", "tags", "chapters.notes", "shelf.books"])))
        }
        #expect(prefetched.count == 12)
        #expect(prefetched[0] == "Book 00:  | tag 0,tag 1 | ")
        #expect(prefetched[3] == "Book 03: 3.2,3.1,3.0 | tag 0,tag 1 | note 3.2,note 3.1,note 3.0")
        #expect(prefetched[7] == "Book 07: 7.2,7.1,7.0 | tag 1,tag 2 | note 7.2,note 7.1,note 7.0")
        #expect(prefetched[10] == "Book 10: 10.1,10.0 | tag 1,tag 2 | note 10.1,note 10.0")
        // The same graph read without prefetching, object by object.
        let plain = stack.container.newBackgroundContext()
        let walked = try plain.performAndWait { Self.walk(try plain.fetch(Self.books(prefetching: nil))) }
        #expect(prefetched == walked)
        let shelfBooks = try context.performAndWait {
            let shelf = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).first)
            return (shelf.value(forKey: "books") as? Set<ManagedObject>)?.count
        }
        #expect(shelfBooks == 12, "a one-to-many step after a to-one step")
    }

    @Test("a context's unsaved changes to prefetched relationships win over the store", arguments: StoreKind.allCases)
    func unsavedChangesWin(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        try Self.seed(stack.container, books: 8)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let byTitle = try context.fetch(Self.books(prefetching: nil))
            // Book 07's chapters reordered, one dropped, one new; a tag dropped (both loaded).
            let book = byTitle[7]
            let chapters = try #require(book.value(forKey: "chapters") as? [ManagedObject])
            let added = try LibraryModel.insert("Chapter", ["title": "7.new"], in: context)
            book.setValue([chapters[2], added, chapters[0]], forKey: "chapters")
            let tags = try #require(book.value(forKey: "tags") as? Set<ManagedObject>)
            book.setValue(Set(tags.filter { $0.value(forKey: "name") as? String == "tag 2" }), forKey: "tags")
            // Book 06 gains a chapter and book 05 loses its one through the chapters' side,
            // their own members never read: the prefetch loads them with the changes on top.
            try LibraryModel.insert("Chapter", ["title": "6.new", "book": byTitle[6]], in: context)
            let request = FetchRequest<ManagedObject>(entityName: "Chapter")
            request.predicate = FetchPredicate(format: "title == '5.0'")
            try #require(try context.fetch(request).first).setValue(nil, forKey: "book")
            let walked = Self.walk(try context.fetch(Self.books(prefetching: ["chapters", "tags", "chapters.notes"])))
            #expect(walked[7] == "Book 07: 7.0,7.new,7.2 | tag 2 | note 7.0,note 7.2")
            #expect(walked[6] == "Book 06: 6.1,6.0,6.new | tag 0,tag 1 | note 6.1,note 6.0")
            #expect(walked[5] == "Book 05:  | tag 0,tag 2 | ")
            #expect(walked[4] == "Book 04:  | tag 1,tag 2 | ", "others as stored")
            #expect(walked[3] == "Book 03: 3.2,3.1,3.0 | tag 0,tag 1 | note 3.2,note 3.1,note 3.0", "others as stored")
            #expect(context.hasChanges)
        }
    }

    @Test("a fetch of nothing, and sources without members, read no members and walk with no query")
    func emptyResults() throws {
        let stack = try SQLRecordingStack(model: LibraryModel.make())
        try Self.seed(stack.container, books: 4)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var none: [ManagedObject] = []
            let nothing = try stack.recording {
                none = try context.fetch(Self.books(prefetching: ["chapters", "tags"], predicate: FetchPredicate(format: "title == 'none'")))
            }
            #expect(none.isEmpty)
            #expect(nothing.touchingData.count == 1, "the books' query alone: \(nothing.touchingData)")
            var books: [ManagedObject] = []
            let fetch = try stack.recording {
                books = try context.fetch(Self.books(prefetching: ["chapters.notes"], predicate: FetchPredicate(format: "title == 'Book 00'")))
            }
            #expect(fetch.touchingData.count == 2, "the book, its (no) chapters; no notes' query for no chapters: \(fetch.touchingData)")
            var walked: [String] = []
            let walk = stack.recording { walked = books.map { "\(($0.value(forKey: "chapters") as? [ManagedObject])?.count ?? -1)" } }
            #expect(walked == ["0"])
            #expect(walk.touchingData.isEmpty, "\(walk)")
        }
    }

    @Test("a prefetched fetch of many books runs one members statement per step, whatever the sources' keys")
    func statementsForManySources() throws {
        let stack = try SQLRecordingStack(model: LibraryModel.make())
        try Self.seed(stack.container, books: 1_500)
        func members(_ statements: [String], of table: String) -> [String] {
            statements.touchingData.selects(from: table).filter { $0.contains("ORDER BY") }
        }
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            // All books, keys dense (in the reverse of the titles' order): one ordered query
            // for their chapters, one for their tags' memberships; the walk reads none.
            var books: [ManagedObject] = []
            let all = try stack.recording { books = try context.fetch(Self.books(prefetching: ["chapters", "tags"])) }
            #expect(books.count == 1_500)
            #expect(members(all, of: "ZCHAPTER").count == 1, "\(all.touchingData)")
            #expect(members(all, of: "Z_").count == 1, "\(all.touchingData)")
            var walked: [String] = []
            let walk = stack.recording { walked = Self.walk(books).map { String($0.prefix(while: { $0 != "|" })) } }
            #expect(members(walk, of: "ZCHAPTER").isEmpty && members(walk, of: "Z_").isEmpty, "\(walk)")
            #expect(walked.contains("Book 1199: 1199.2,1199.1,1199.0 "))
            #expect(walked.contains("Book 1200:  "))
        }
        let sparse = stack.container.newBackgroundContext()
        try sparse.performAndWait {
            // Four books in ten: keys too sparse for one range, and more of them (600) than
            // one statement's parameters (500): the memberships in two statements.
            let predicate = FetchPredicate(format: "title ENDSWITH '1' OR title ENDSWITH '3' OR title ENDSWITH '5' OR title ENDSWITH '7'")
            var books: [ManagedObject] = []
            let statements = try stack.recording { books = try sparse.fetch(Self.books(prefetching: ["chapters"], predicate: predicate)) }
            #expect(books.count == 600)
            #expect(members(statements, of: "ZCHAPTER").count == 2, "\(statements.touchingData)")
            let plain = stack.container.newBackgroundContext()
            let expected = try plain.performAndWait { Self.walk(try plain.fetch(Self.books(prefetching: nil, predicate: predicate))) }
            #expect(Self.walk(books) == expected)
        }
    }
}
