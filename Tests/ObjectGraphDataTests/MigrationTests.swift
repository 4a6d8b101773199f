import Foundation
import ObjectGraphData
import Testing

enum ShelfSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Shelf.self] }

    @Model final class Shelf {
        var label: String
        var slots: Int
        init(label: String, slots: Int) {
            self.label = label
            self.slots = slots
        }
    }
}

enum ShelfSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Shelf.self] }

    @Model final class Shelf {
        var label: String
        var slots: Int
        var summary: String?
        init(label: String, slots: Int) {
            self.label = label
            self.slots = slots
        }
    }
}

enum ShelfMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShelfSchemaV1.self, ShelfSchemaV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: ShelfSchemaV1.self,
                toVersion: ShelfSchemaV2.self,
                willMigrate: { context in
                    // Before: in the old schema, labels become upper case.
                    for shelf in try context.fetch(FetchDescriptor<ShelfSchemaV1.Shelf>()) { shelf.label = shelf.label.uppercased() }
                    try context.save()
                },
                didMigrate: { context in
                    // After: in the new schema, the new attribute is filled in.
                    for shelf in try context.fetch(FetchDescriptor<ShelfSchemaV2.Shelf>()) { shelf.summary = "\(shelf.slots) slots" }
                    try context.save()
                }
            )
        ]
    }
}

@Suite("ObjectGraphData migrations")
struct MigrationTests {
    @Test("A store of V1 migrates to V2 through a custom stage: willMigrate on V1, didMigrate on V2")
    func customStage() throws {
        let configuration = ModelConfiguration(url: TestFiles.url("shelves.store"))
        do {
            let container = try ModelContainer(for: Schema(versionedSchema: ShelfSchemaV1.self), configurations: configuration)
            let context = ModelContext(container)
            context.insert(ShelfSchemaV1.Shelf(label: "fiction", slots: 12))
            context.insert(ShelfSchemaV1.Shelf(label: "poetry", slots: 3))
            try context.save()
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: ShelfSchemaV2.self),
            migrationPlan: ShelfMigrationPlan.self,
            configurations: [configuration]
        )
        let reader = ModelContext(container)
        let shelves = try reader.fetch(FetchDescriptor<ShelfSchemaV2.Shelf>(sortBy: [SortDescriptor(\.label)]))
        #expect(shelves.map(\.label) == ["FICTION", "POETRY"])
        #expect(shelves.map(\.summary) == ["12 slots", "3 slots"])

        // Opened again with the plan, the store is already at V2: nothing runs twice.
        let again = try ModelContainer(
            for: Schema(versionedSchema: ShelfSchemaV2.self),
            migrationPlan: ShelfMigrationPlan.self,
            configurations: [configuration]
        )
        #expect(try ModelContext(again).fetchCount(FetchDescriptor<ShelfSchemaV2.Shelf>()) == 2)
    }
}
