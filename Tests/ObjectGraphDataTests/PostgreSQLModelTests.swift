import Foundation
import ObjectGraph
import ObjectGraphData
import ObjectGraphPostgres
import Testing
import TestSupport

/// The same behaviour on ObjectGraph's PostgreSQL store (`Scripts/test` starts the server).
@Suite("ObjectGraphData on PostgreSQL")
struct PostgreSQLModelTests {
    /// A configuration in a new schema of the test server. The PostgreSQL store type is
    /// registered first: the tests are their program's root.
    static func configuration() throws -> ModelConfiguration {
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        return ModelConfiguration(url: try TestPostgres.newSchemaURL(prefix: "ogdata"), storeType: PostgreSQLStoreType)
    }

    @Test("Insert, relate, save and fetch in a second container")
    func roundTrip() throws {
        let configuration = try Self.configuration()
        do {
            let context = ModelContext(try makeContainer(configuration))
            let photo = Photo(title: "Hoover Tower", views: 12, rating: 4)
            photo.tags = [Tag(name: "tower")]
            photo.place = Place(name: "Quad")
            photo.kind = .video
            context.insert(photo)
            try context.save()
        }
        let context = ModelContext(try makeContainer(configuration))
        let photo = try #require(try context.fetch(FetchDescriptor<Photo>()).first)
        #expect(photo.title == "Hoover Tower")
        #expect(photo.rating == 4)
        #expect(photo.kind == .video)
        #expect(photo.tags.map(\.name) == ["tower"])
        #expect(photo.place?.photos.map(\.title) == ["Hoover Tower"])
    }

    @Test("A .unique attribute upserts")
    func uniqueUpsert() throws {
        let container = try makeContainer(try Self.configuration())
        let context = ModelContext(container)
        context.insert(Tag(name: "tower", uses: 1))
        try context.save()
        let other = ModelContext(container)
        other.insert(Tag(name: "tower", uses: 5))
        try other.save()
        let reader = ModelContext(container)
        let tags = try reader.fetch(FetchDescriptor<Tag>())
        #expect(tags.map(\.uses) == [5])
    }

    @Test("Generated predicates: translated fetch equals evaluation in Swift (PostgreSQL)", arguments: 0..<2)
    func differential(seed: UInt64) throws {
        let context = ModelContext(try makeContainer(try Self.configuration()))
        try PhotoFixtures.insert(into: context, count: 30, seed: 11)
        let all = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)]))
        var generator = PredicateGenerator(seed: seed + 100)
        for _ in 0..<40 {
            let predicate = generator.predicate()
            let expected = try all.filter { try predicate.evaluate($0) }.map(\.title)
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])).map(\.title)
            #expect(fetched == expected, "\(context.translation(of: FetchDescriptor(predicate: predicate)))")
        }
    }

    @Test("caseInsensitiveCompare == .orderedSame matches in PostgreSQL as in Swift")
    func caseInsensitiveCompare() throws {
        try CaseFixtures.check(in: ModelContext(try makeContainer(try Self.configuration())))
    }

    @Test("The library app's data logic")
    func libraryApp() throws {
        let container = try ModelContainer(for: Book.self, configurations: try Self.configuration())
        let library = Library(context: ModelContext(container))
        let dune = try library.addBook(isbn: "1", title: "Dune", by: "Frank Herbert", pages: 412)
        try library.addBook(isbn: "2", title: "Café", by: "Anna", pages: 90)
        try library.lend(dune, to: "ada", until: Date(timeIntervalSince1970: 100))
        #expect(try library.availableBooks().map(\.title) == ["Café"])
        #expect(try library.search("cafe").map(\.title) == ["Café"])
        #expect(try library.overdueLoans(on: Date(timeIntervalSince1970: 200)).map(\.borrower) == ["ada"])
    }
}
