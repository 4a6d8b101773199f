import Foundation
import ObjectGraph
import TestSupport

/// The SPoT shape used across the tests: Photo ↔ Tag many-to-many, Photo ↔ Recent one-to-one,
/// Photographer ↔ Photo one-to-many.
final class Photo: ManagedObject {
    @Managed var unique: String?
    @Managed var title: String?
    @Managed var subtitle: String?
    @Managed var views: Int64
    @Managed var rating: Double
    @Managed var uploaded: Date?
    @Managed var tags: Set<Tag>
    @Managed var photographer: Photographer?
    @Managed var recent: Recent?
}

final class Tag: ManagedObject {
    @Managed var name: String?
    @Managed var photos: Set<Photo>
}

final class Photographer: ManagedObject {
    @Managed var name: String?
    @Managed var photos: Set<Photo>
}

final class Recent: ManagedObject {
    @Managed var lastViewed: Date?
    @Managed var photo: Photo?
}

enum SPoTModel {
    /// A fresh model (each container freezes its own).
    static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Photo", class: Photo.self) {
                AttributeDescription("unique", .string, optional: false)
                AttributeDescription("title", .string)
                AttributeDescription("subtitle", .string)
                AttributeDescription("views", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("rating", .double, optional: false, defaultValue: 0.0)
                AttributeDescription("uploaded", .date)
                RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true)
                RelationshipDescription("photographer", to: "Photographer", inverse: "photos")
                RelationshipDescription("recent", to: "Recent", inverse: "photo", deleteRule: .cascade)
            }
            .unique("unique")
            EntityDescription("Tag", class: Tag.self) {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true)
            }
            .unique("name")
            EntityDescription("Photographer", class: Photographer.self) {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("photos", to: "Photo", inverse: "photographer", toMany: true, deleteRule: .cascade)
            }
            EntityDescription("Recent", class: Recent.self) {
                AttributeDescription("lastViewed", .date, optional: false)
                RelationshipDescription("photo", to: "Photo", inverse: "recent", optional: false)
            }
        }
    }
}

/// A container on a fresh SQLite file in a temporary directory (or in memory).
struct TestStack {
    let container: PersistentContainer
    let url: URL?

    init(inMemory: Bool = false, model: ManagedObjectModel = SPoTModel.make(), file: URL? = nil) throws {
        container = PersistentContainer(name: "Test", managedObjectModel: model)
        if inMemory {
            let description = PersistentStoreDescription()
            description.type = InMemoryStoreType
            container.persistentStoreDescriptions = [description]
            url = nil
        } else {
            let url =
                file
                ?? TestDirectory.make("objectgraph-tests")
                .appendingPathComponent("Test.sqlite")
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            self.url = url
        }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    /// A container on the store `description` names (see `StoreKind`).
    init(description: PersistentStoreDescription, model: ManagedObjectModel = SPoTModel.make()) throws {
        container = PersistentContainer(name: "Test", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        url = description.url
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    /// Both kinds of store, for parameterized tests.
    static let kinds: [Bool] = [false, true]
}
