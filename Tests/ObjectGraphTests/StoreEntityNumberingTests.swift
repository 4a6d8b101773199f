import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Entities are numbered as Core Data numbers them, and a store ObjectGraph wrote when it
/// numbered them by name alone is renumbered once when it opens.
@Suite("Store entity numbering")
struct StoreEntityNumberingTests {
    /// Animal with subentity Cat, and Bird: Core Data numbers Animal 1, Cat 2, Bird 3; by name
    /// alone they were Animal 1, Bird 2, Cat 3.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Animal") {
                AttributeDescription("name", .string)
                RelationshipDescription("friend", to: "Animal", inverse: nil)
            }
            EntityDescription("Cat", parent: "Animal") { AttributeDescription("lives", .integer16, optional: false, defaultValue: 9) }
            EntityDescription("Bird") { AttributeDescription("name", .string) }
        }
    }

    static func container(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Zoo", managedObjectModel: model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    @Test("a store numbered by name alone is renumbered as Core Data numbers, and reads as before")
    func oldNumberingRenumbered() throws {
        let folder = TestDirectory.make("objectgraph-numbering")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Zoo.sqlite")
        do {
            let container = try Self.container(url)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let cat = try context.insertObject(entityName: "Cat")
                cat.setValue("Tom", forKey: "name")
                let animal = try context.insertObject(entityName: "Animal")
                animal.setValue("Generic", forKey: "name")
                animal.setValue(cat, forKey: "friend")
                let bird = try context.insertObject(entityName: "Bird")
                bird.setValue("Tweety", forKey: "name")
                try context.save()
            }
        }
        let fresh = try #require(try CoreDataStoreFixtures.reference(["schema", url.path])["primarykeys"] as? [String: [String: Int]])
        #expect(fresh["Animal"]?["ent"] == 1 && fresh["Cat"]?["ent"] == 2 && fresh["Bird"]?["ent"] == 3)
        #expect(fresh["Cat"]?["super"] == 1)

        // Forge what ObjectGraph wrote before: Bird 2, Cat 3.
        let forge = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE ZANIMAL SET Z_ENT = 3 WHERE Z_ENT = 2")
            db.execute("UPDATE ZANIMAL SET Z1_FRIEND = 3 WHERE Z1_FRIEND = 2")
            db.execute("UPDATE ZBIRD SET Z_ENT = 2 WHERE Z_ENT = 3")
            maxima = dict(db.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").fetchall())
            db.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT IN (2, 3)")
            db.execute("INSERT INTO Z_PRIMARYKEY VALUES (2, 'Bird', 0, ?)", (maxima["Bird"],))
            db.execute("INSERT INTO Z_PRIMARYKEY VALUES (3, 'Cat', 1, ?)", (maxima["Cat"],))
            db.commit()
            """
        let (status, _) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", forge, url.path])
        #expect(status == 0)
        let forged = try #require(try CoreDataStoreFixtures.reference(["schema", url.path])["primarykeys"] as? [String: [String: Int]])
        #expect(forged["Bird"]?["ent"] == 2 && forged["Cat"]?["ent"] == 3)

        let container = try Self.container(url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let cats = try context.fetch(FetchRequest<ManagedObject>(entityName: "Cat"))
            #expect(cats.map { $0.value(forKey: "name") as? String } == ["Tom"])
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Animal")) == 2)
            let generic = try context.fetch(FetchRequest<ManagedObject>(entityName: "Animal")).first {
                $0.value(forKey: "name") as? String == "Generic"
            }
            #expect((generic?.value(forKey: "friend") as? ManagedObject)?.entity.name == "Cat")
            #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Bird")).count == 1)
        }
        let renumbered = try CoreDataStoreFixtures.reference(["schema", url.path])
        let keys = try #require(renumbered["primarykeys"] as? [String: [String: Int]])
        #expect(keys["Animal"]?["ent"] == 1 && keys["Cat"]?["ent"] == 2 && keys["Bird"]?["ent"] == 3)
        #expect(keys["Cat"]?["super"] == 1 && keys["Bird"]?["super"] == 0)
        #expect(renumbered["integrity"] as? [String] == ["ok"])
        let cats = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Cat"])["rows"] as? [String: [String: Any]])
        #expect(cats.values.map { $0["Z_ENT"] as? Int } == [2])
        let animals = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Animal"])["rows"] as? [String: [String: Any]])
        #expect(animals.values.compactMap { $0["Z1_FRIEND"] as? Int } == [2])
    }
}
