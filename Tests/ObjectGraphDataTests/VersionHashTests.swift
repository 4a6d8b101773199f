import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// A store written through ObjectGraphData carries, as a Core Data store does, the version
/// hash Core Data computes for each entity of the model SwiftData makes of the same classes.
@Suite("ObjectGraphData version hashes")
struct VersionHashTests {
    /// The Core Data model SwiftData makes of `Photo`, `Tag` and `Place`, written by hand: entity
    /// = class name; non-optional Swift types non-optional attributes; `Int` integer 64; an enum
    /// with a `String` raw value a string; `.unique` a uniqueness constraint; arrays of models
    /// unordered, optional to-many relationships; inverses inferred (one relationship each way).
    static func photosModel() -> ManagedObjectModel {
        let tagName = AttributeDescription("name", .string, optional: false)
        tagName.preservesValueInHistoryOnDeletion = true
        return ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("views", .integer64, optional: false)
                AttributeDescription("rating", .double)
                AttributeDescription("caption", .string)
                AttributeDescription("taken", .date)
                AttributeDescription("identifier", .uuid)
                AttributeDescription("isFavorite", .boolean, optional: false, defaultValue: false)
                AttributeDescription("kind", .string, optional: false, defaultValue: "photo")
                RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true)
                RelationshipDescription("place", to: "Place", inverse: "photos")
            }
            EntityDescription("Tag") {
                tagName
                AttributeDescription("uses", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true)
            }
            .unique("name")
            EntityDescription("Place") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("elevation", .integer64)
                // The delete rule (.deny) is not part of the hash.
                RelationshipDescription("photos", to: "Photo", inverse: "place", toMany: true, deleteRule: .deny)
            }
        }
    }

    /// The library app's model (LibraryApp.swift) as SwiftData makes it: `[String]` a
    /// transformable attribute, `@Transient` left out, inverses as declared and inferred.
    static func libraryModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("born", .integer64)
                RelationshipDescription("books", to: "Book", inverse: "author", toMany: true, deleteRule: .cascade)
            }
            .unique("name")
            EntityDescription("Book") {
                AttributeDescription("isbn", .string, optional: false)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("published", .date, optional: false)
                AttributeDescription("pages", .integer64, optional: false)
                AttributeDescription("rating", .double)
                AttributeDescription("genres", .transformable, optional: false, transformableType: [String].self)
                RelationshipDescription("author", to: "Author", inverse: "books")
                RelationshipDescription("loans", to: "Loan", inverse: "book", toMany: true, deleteRule: .cascade)
            }
            .unique("isbn")
            EntityDescription("Loan") {
                AttributeDescription("borrower", .string, optional: false)
                AttributeDescription("due", .date, optional: false)
                AttributeDescription("returned", .date)
                RelationshipDescription("book", to: "Book", inverse: "loans")
            }
        }
    }

    @Test("The hashes of a schema built from @Model classes are those of the hand-built Core Data model")
    func schemaHashesEqualHandBuiltModel() throws {
        for (types, expected) in [
            ([Photo.self, Tag.self, Place.self] as [any PersistentModel.Type], Self.photosModel()),
            ([Book.self], Self.libraryModel()),
        ] {
            try expected.validate()
            let container = try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            let hashes = container.persistentContainer.managedObjectModel.entityVersionHashesByName
            #expect(hashes.count == expected.entities.count)
            for (name, hash) in expected.entityVersionHashesByName {
                #expect(hashes[name] == hash, "entity \(name)")
            }
        }
    }

    @Test("A store written through ObjectGraphData keeps the hashes in its metadata", arguments: TestStoreKind.allCases)
    func storedInMetadata(store: TestStoreKind) throws {
        let configuration = try store.configuration("hashes")
        let container = try ModelContainer(for: Photo.self, configurations: configuration)
        let context = ModelContext(container)
        context.insert(Photo(title: "Hashed"))
        try context.save()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
            type: PersistentStore.StoreType(rawValue: configuration.storeType),
            at: configuration.url
        )
        let stored = try #require(metadata[StoreModelVersionHashesKey] as? [String: Data])
        #expect(stored == Self.photosModel().entityVersionHashesByName)
    }

    @Test("A migrated store keeps the hashes of the new schema version")
    func migratedStoreKeepsNewHashes() throws {
        let configuration = ModelConfiguration(url: TestFiles.url("hashed-shelves.store"))
        let hashes = { (schema: Schema) in
            try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
                .persistentContainer.managedObjectModel.entityVersionHashesByName
        }
        let stored = { () throws -> [String: Data]? in
            try PersistentStoreCoordinator.metadataForPersistentStore(at: configuration.url)[StoreModelVersionHashesKey] as? [String: Data]
        }
        do {
            let container = try ModelContainer(for: Schema(versionedSchema: ShelfSchemaV1.self), configurations: configuration)
            let context = ModelContext(container)
            context.insert(ShelfSchemaV1.Shelf(label: "essays", slots: 4))
            try context.save()
        }
        let v1 = try hashes(Schema(versionedSchema: ShelfSchemaV1.self))
        let v2 = try hashes(Schema(versionedSchema: ShelfSchemaV2.self))
        #expect(v1 != v2)
        #expect(try stored() == v1)
        _ = try ModelContainer(
            for: Schema(versionedSchema: ShelfSchemaV2.self),
            migrationPlan: ShelfMigrationPlan.self,
            configurations: [configuration]
        )
        #expect(try stored() == v2)
    }
}
