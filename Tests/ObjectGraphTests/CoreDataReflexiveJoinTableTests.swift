import Foundation
import ObjectGraph
import TestSupport
import Testing

/// A to-many relationship that is its own inverse — `Person.friends`, a friendship being
/// mutual — in Core Data's layout: one join table `Z_1FRIENDS ( Z_1FRIENDS, REFLEXIVE )` with a
/// row from each side. Read, faulted, prefetched, saved and deleted through in a store built by
/// hand (`friends_store.py`), in a store an earlier ObjectGraph wrote with its own column name,
/// and on every store kind.
@Suite("Core Data stores: a relationship that is its own inverse (REFLEXIVE)")
struct CoreDataReflexiveJoinTableTests {
    /// A store built by `friends_store.py` with the model's version hash: Core Data's column
    /// names, or, with `objectGraphColumn`, the members' column an earlier ObjectGraph named.
    static func handBuiltStore(objectGraphColumn: Bool = false) throws -> URL {
        let model = CoreDataJoinTableTests.friendsModel()
        let folder = TestDirectory.make("objectgraph-friends")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Friends.sqlite")
        let hash = try #require(model.entityVersionHashesByName["Person"])
        let script = CoreDataStoreFixtures.folder.appendingPathComponent("friends_store.py").path
        let (status, output) = try ChildExecutable.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script, url.path, hash.hex] + (objectGraphColumn ? ["--objectgraph-column"] : [])
        )
        guard status == 0 else { throw ReferenceReaderError(arguments: ["friends_store.py"], status: status, output: output) }
        return url
    }

    /// The person named `name`.
    static func person(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let request = FetchRequest<ManagedObject>(entityName: "Person")
        request.predicate = FetchPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first, "no person \(name)")
    }

    /// The names of `friends` (a set of people), sorted.
    static func names(_ friends: Any?) -> [String] {
        (friends as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    /// Each person's friends, as `name: friend friend`, from a fresh context of `container`.
    static func friendships(in container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).map { person in
                "\(person.value(forKey: "name") as? String ?? "?"): \(names(person.value(forKey: "friends")).joined(separator: " "))"
            }
        }
    }

    /// The join table's rows as Python reads them, `person friend`, from the column `members`.
    static func rows(_ url: URL, members: String = "REFLEXIVE") throws -> [String] {
        try CoreDataJoinTableTests.rows(
            "SELECT a.ZNAME || ' ' || b.ZNAME FROM Z_1FRIENDS j JOIN ZPERSON a ON a.Z_PK = j.Z_1FRIENDS JOIN ZPERSON b ON b.Z_PK = j.\(members) ORDER BY 1",
            in: url
        )
    }

    @Test("its version hash is Core Data's rule (no inverse name) before the model is validated as after")
    func versionHashBeforeValidation() throws {
        let model = CoreDataJoinTableTests.friendsModel()
        let before = try #require(model.entityVersionHashesByName["Person"])
        try model.validate()
        #expect(model.entityVersionHashesByName["Person"]?.hex == before.hex)
    }

    @Test("a hand-built store in Core Data's layout reads, faults, prefetches, saves and deletes through REFLEXIVE")
    func handBuiltStore() throws {
        let url = try Self.handBuiltStore()
        let model = CoreDataJoinTableTests.friendsModel()
        let container = try CoreDataStoreLayoutTests.open(url, model: model)
        #expect(try Self.friendships(in: container) == ["ada: bob cyd", "bob: ada cyd", "cyd: ada bob", "dee: "])

        // Faulting: a friend arrives as a fault and fires on first read.
        let faulting = container.newBackgroundContext()
        try faulting.performAndWait {
            let dee = try Self.person("dee", in: faulting)
            #expect(Self.names(dee.value(forKey: "friends")) == [])
            let cyd = try Self.person("cyd", in: faulting)
            let friends = try #require(cyd.value(forKey: "friends") as? Set<ManagedObject>)
            #expect(friends.count == 2 && friends.allSatisfy(\.isFault))
            let ada = try #require(friends.first { $0.objectID == (try? Self.person("ada", in: faulting))?.objectID })
            #expect(Self.names(ada.value(forKey: "friends")) == ["bob", "cyd"])
        }

        // Prefetching friends of friends with the fetch.
        let prefetching = container.newBackgroundContext()
        try prefetching.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.predicate = FetchPredicate(format: "name == 'dee' OR name == 'ada'")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["friends.friends"]
            let people = try prefetching.fetch(request)
            let friends = try #require(people.first?.value(forKey: "friends") as? Set<ManagedObject>)
            #expect(friends.allSatisfy { !$0.isFault })
            #expect(friends.map { Self.names($0.value(forKey: "friends")) }.sorted { $0.joined() < $1.joined() } == [["ada", "bob"], ["ada", "cyd"]])
            // A predicate through the relationship reads the same rows.
            let request2 = FetchRequest<ManagedObject>(entityName: "Person")
            request2.predicate = FetchPredicate(format: "ANY friends.name == 'cyd'")
            #expect(Set(try prefetching.fetch(request2).compactMap { $0.value(forKey: "name") as? String }) == ["ada", "bob"])
        }

        // Saving from one side writes both rows; deleting takes the person's rows from both columns.
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try Self.person("dee", in: writer).mutableSetValue(forKey: "friends").add(try Self.person("ada", in: writer))
            try Self.person("bob", in: writer).mutableSetValue(forKey: "friends").remove(try Self.person("cyd", in: writer))
            try writer.save()
        }
        #expect(try Self.rows(url) == ["ada bob", "ada cyd", "ada dee", "bob ada", "cyd ada", "dee ada"])
        try writer.performAndWait {
            writer.delete(try Self.person("ada", in: writer))
            try writer.save()
        }
        #expect(try Self.rows(url) == [])

        let reopened = try CoreDataStoreLayoutTests.open(url, model: model)
        #expect(try Self.friendships(in: reopened) == ["bob: ", "cyd: ", "dee: "])
    }

    @Test("a store an earlier ObjectGraph wrote (members in Z_1FRIENDS1) is read as it is read-only, and renamed to REFLEXIVE read-write")
    func earlierObjectGraphColumn() throws {
        let url = try Self.handBuiltStore(objectGraphColumn: true)
        let model = CoreDataJoinTableTests.friendsModel()
        let before = try CoreDataStoreLayoutTests.statements(url)

        let container = try StoreLayoutConversionTests.container(url, model: model, readOnly: true)
        #expect(try Self.friendships(in: container) == ["ada: bob cyd", "bob: ada cyd", "cyd: ada bob", "dee: "])
        #expect(try CoreDataStoreLayoutTests.statements(url) == before, "a read-only open changes nothing")

        let writable = try CoreDataStoreLayoutTests.open(url, model: model)
        #expect(try Self.friendships(in: writable) == ["ada: bob cyd", "bob: ada cyd", "cyd: ada bob", "dee: "])
        #expect(try Self.rows(url) == ["ada bob", "ada cyd", "bob ada", "bob cyd", "cyd ada", "cyd bob"])
        let joinStatements = try CoreDataStoreLayoutTests.statements(url).filter { $0.contains("Z_1FRIENDS") }
        #expect(
            joinStatements.sorted() == [
                "CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)",
                "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )",
            ]
        )
        let context = writable.newBackgroundContext()
        try context.performAndWait {
            try Self.person("dee", in: context).mutableSetValue(forKey: "friends").add(try Self.person("cyd", in: context))
            try context.save()
        }
        #expect(try Self.friendships(in: try CoreDataStoreLayoutTests.open(url, model: model)) == ["ada: bob cyd", "bob: ada cyd", "cyd: ada bob dee", "dee: cyd"])
    }

    @Test("friends are saved, read, prefetched and deleted on every store kind", arguments: StoreKind.allCases)
    func everyStoreKind(store: StoreKind) throws {
        let stack = try TestStack(store, model: CoreDataJoinTableTests.friendsModel())
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let (ada, bob, cyd) = (
                try CoreDataJoinTableTests.named(writer, "Person", "ada"), try CoreDataJoinTableTests.named(writer, "Person", "bob"),
                try CoreDataJoinTableTests.named(writer, "Person", "cyd")
            )
            ada.setValue(Set([bob, cyd]), forKey: "friends")
            #expect(Self.names(bob.value(forKey: "friends")) == ["ada"], "the inverse is kept in memory before the save")
            try writer.save()
        }
        #expect(try Self.friendships(in: stack.container) == ["ada: bob cyd", "bob: ada", "cyd: ada"])

        let editor = stack.container.newBackgroundContext()
        try editor.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.relationshipKeyPathsForPrefetching = ["friends"]
            let people = try editor.fetch(request)
            #expect(people.allSatisfy { ($0.value(forKey: "friends") as? Set<ManagedObject>)?.allSatisfy { !$0.isFault } == true })
            let cyd = try #require(people.first { $0.value(forKey: "name") as? String == "cyd" })
            let bob = try #require(people.first { $0.value(forKey: "name") as? String == "bob" })
            cyd.mutableSetValue(forKey: "friends").add(bob)
            editor.delete(try #require(people.first { $0.value(forKey: "name") as? String == "ada" }))
            try editor.save()
        }
        #expect(try Self.friendships(in: stack.container) == ["bob: cyd", "cyd: bob"])
    }
}
