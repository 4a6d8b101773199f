import Foundation
import ObjectGraph
import Testing

/// An entity moved under a parent that has rows of its own: the two tables merge, keys stay
/// unique, references follow, and new objects get fresh keys.
@Suite("Migrations: an entity moved under a parent with rows")
struct MigrationTableMergeTests {
    private static func version1() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Vehicle") { AttributeDescription("name", .string) }
            EntityDescription("Boat") {
                AttributeDescription("name", .string)
                AttributeDescription("draft", .double)
                RelationshipDescription("harbor", to: "Harbor", inverse: "boats")
                RelationshipDescription("crew", to: "Sailor", inverse: "boats", toMany: true)
            }
            EntityDescription("Harbor") {
                AttributeDescription("name", .string)
                RelationshipDescription("boats", to: "Boat", inverse: "harbor", toMany: true, ordered: true)
            }
            EntityDescription("Sailor") {
                AttributeDescription("name", .string)
                RelationshipDescription("boats", to: "Boat", inverse: "crew", toMany: true)
            }
        }
    }

    private static func version2() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Vehicle") { AttributeDescription("name", .string) }
            EntityDescription("Boat", parent: "Vehicle") {
                AttributeDescription("draft", .double)
                RelationshipDescription("harbor", to: "Harbor", inverse: "boats")
                RelationshipDescription("crew", to: "Sailor", inverse: "boats", toMany: true)
            }
            EntityDescription("Harbor") {
                AttributeDescription("name", .string)
                RelationshipDescription("boats", to: "Boat", inverse: "harbor", toMany: true, ordered: true)
            }
            EntityDescription("Sailor") {
                AttributeDescription("name", .string)
                RelationshipDescription("boats", to: "Boat", inverse: "crew", toMany: true)
            }
        }
    }

    private static func container(_ model: ManagedObjectModel, _ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Fleet", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try CompanyStore.load(container)
        return container
    }

    @Test("rows move into the parent's table with fresh keys; relationships, orders and Z_PRIMARYKEY follow")
    func merge() throws {
        let url = try XcodeFixtures.temporaryFolder().appendingPathComponent("Fleet.sqlite")
        do {
            let container = try Self.container(Self.version1(), url)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for name in ["truck", "bus"] { try context.insertObject(entityName: "Vehicle").setValue(name, forKey: "name") }
                let harbor = try context.insertObject(entityName: "Harbor")
                harbor.setValue("Sausalito", forKey: "name")
                let sailor = try context.insertObject(entityName: "Sailor")
                sailor.setValue("Ishmael", forKey: "name")
                for (name, draft) in [("sloop", 1.5), ("ketch", 2.0), ("yawl", 1.2)] {
                    let boat = try context.insertObject(entityName: "Boat")
                    boat.setValue(name, forKey: "name")
                    boat.setValue(draft, forKey: "draft")
                    try harbor.addObject(boat, toRelationship: "boats")
                    if name != "ketch" { try sailor.addObject(boat, toRelationship: "boats") }
                }
                try context.save()
            }
        }
        // No bundle: migrated straight from the snapshot in the store's metadata.
        let container = try Self.container(Self.version2(), url)
        #expect(
            try CompanyStore.all("Vehicle", in: container) { "\($0.entity.name) \($0.value(forKey: "name") as? String ?? "?")" } == [
                "Boat ketch", "Boat sloop", "Boat yawl", "Vehicle bus", "Vehicle truck",
            ]
        )
        let keys = try CompanyStore.all("Vehicle", in: container) { $0.objectID.uriRepresentation().lastPathComponent }
        #expect(Set(keys).count == 5)
        #expect(
            try CompanyStore.all("Boat", in: container) {
                "\($0.value(forKey: "name") as? String ?? "?") \($0.value(forKey: "draft") as? Double ?? 0)"
            } == [
                "ketch 2.0", "sloop 1.5", "yawl 1.2",
            ]
        )
        #expect(
            try CompanyStore.all("Harbor", in: container) { harbor in
                (harbor.value(forKey: "boats") as? [ManagedObject] ?? []).map { $0.value(forKey: "name") as? String ?? "?" }.joined(separator: ",")
            } == ["sloop,ketch,yawl"]
        )
        #expect(
            try CompanyStore.all("Sailor", in: container) { sailor in
                (sailor.value(forKey: "boats") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String }.sorted().joined(
                    separator: ","
                )
            } == ["sloop,yawl"]
        )
        #expect(
            try CompanyStore.all("Boat", in: container) { "\($0.value(forKeyPath: "harbor.name") as? String ?? "-")" }
                == Array(repeating: "Sausalito", count: 3)
        )

        // New vehicles and boats get keys no migrated row has.
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["van", "canoe"] {
                let object = try context.insertObject(entityName: name == "van" ? "Vehicle" : "Boat")
                object.setValue(name, forKey: "name")
            }
            try context.save()
        }
        let all = try CompanyStore.all("Vehicle", in: container) { $0.objectID.uriRepresentation().lastPathComponent }
        #expect(all.count == 7 && Set(all).count == 7)
    }
}
