import Foundation
import ObjectGraph
import TestSupport
import Testing

/// The conversion from a file an earlier build actually wrote, join tables included: the notes
/// model plus people who follow each other and whose `friends` is its own inverse, written by
/// ObjectGraph at c8f373a (the last commit before Core Data's layout; see
/// Fixtures/Stores/README.md), not by today's code in the former layout.
extension StoreLayoutConversionTests {
    /// ``CoreDataStoreLayoutTests/notesModel()`` with `Person`, as the fixture's writer built it.
    static func notesAndPeopleModel() -> ManagedObjectModel {
        let model = CoreDataStoreLayoutTests.notesModel()
        model.entities.append(
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                RelationshipDescription("followers", to: "Person", inverse: "following", toMany: true)
                RelationshipDescription("following", to: "Person", inverse: "followers", toMany: true)
                RelationshipDescription("friends", to: "Person", inverse: "friends", toMany: true)
            }
        )
        return model
    }

    /// Each person's followers and friends in the store at `url`, as a context reads them.
    static func people(_ url: URL, model: ManagedObjectModel, readOnly: Bool) throws -> [String] {
        let context = try Self.container(url, model: model, readOnly: readOnly).newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            func names(_ people: Any?) -> String {
                (people as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String }.sorted().joined(separator: ",")
            }
            return try context.fetch(request).map { person in
                let name = person.value(forKey: "name") as? String ?? "?"
                return "\(name) followers [\(names(person.value(forKey: "followers")))] following [\(names(person.value(forKey: "following")))] friends [\(names(person.value(forKey: "friends")))]"
            }
        }
    }

    static let expectedPeople = [
        "ada followers [bob,cyd] following [] friends [bob]",
        "bob followers [cyd] following [ada] friends [ada,cyd]",
        "cyd followers [] following [ada,bob] friends [bob]",
    ]

    /// A copy of the fixture in a fresh folder.
    static func earlierBuildsNotes() throws -> URL {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            .appendingPathComponent("Stores/Notes-c8f373a-former-layout.sqlite")
        let folder = TestDirectory.make("objectgraph-c8f373a")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        return url
    }

    @Test("a store with join tables an earlier build wrote (c8f373a, a kept fixture) reads as it is read-only")
    func earlierBuildsJoinTablesReadOnly() throws {
        let url = try Self.earlierBuildsNotes()
        let model = Self.notesAndPeopleModel()
        let before = try CoreDataStoreLayoutTests.statements(url)
        #expect(before.contains("CREATE TABLE Z_6FRIENDS (Z_SOURCE INTEGER NOT NULL, Z_DESTINATION INTEGER NOT NULL, PRIMARY KEY (Z_SOURCE, Z_DESTINATION)) WITHOUT ROWID"))
        #expect(try Self.contents(url, model: model, readOnly: true) == Self.expected)
        #expect(try Self.people(url, model: model, readOnly: true) == Self.expectedPeople)
        #expect(try CoreDataStoreLayoutTests.statements(url) == before)
    }

    @Test("a store with join tables an earlier build wrote (c8f373a, a kept fixture) is converted to Core Data's read-write, every member and order kept")
    func earlierBuildsJoinTablesConverted() throws {
        let url = try Self.earlierBuildsNotes()
        let model = Self.notesAndPeopleModel()
        #expect(try Self.contents(url, model: model, readOnly: false) == Self.expected)
        #expect(try Self.people(url, model: model, readOnly: true) == Self.expectedPeople)

        let converted = try CoreDataStoreLayoutTests.statements(url)
        let fresh = try CoreDataStoreLayoutTests.statements(try CoreDataStoreLayoutTests.createStore(Self.notesAndPeopleModel()))
        let entityTables = { (statements: Set<String>) in statements.filter { !$0.contains("Z_METADATA") && !$0.contains("Z_PRIMARYKEY") } }
        #expect(entityTables(converted).subtracting(entityTables(fresh)).sorted() == [])
        #expect(entityTables(fresh).subtracting(entityTables(converted)).sorted() == [])
        #expect(converted.contains("CREATE TABLE Z_6FRIENDS ( Z_6FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_6FRIENDS, REFLEXIVE) )"))
        let songs = "SELECT s.ZTITLE FROM Z_7SONGS j JOIN ZSONG s ON s.Z_PK = j.Z_8SONGS ORDER BY j.Z_FOK_8SONGS"
        #expect(try CoreDataJoinTableTests.rows(songs, in: url) == ["z", "y", "x"])
        let friends = "SELECT a.ZNAME || ' ' || b.ZNAME FROM Z_6FRIENDS j JOIN ZPERSON a ON a.Z_PK = j.Z_6FRIENDS JOIN ZPERSON b ON b.Z_PK = j.REFLEXIVE ORDER BY 1"
        #expect(try CoreDataJoinTableTests.rows(friends, in: url) == ["ada bob", "bob ada", "bob cyd", "cyd bob"])
    }
}
