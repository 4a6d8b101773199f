import Foundation
import ObjectGraph

// The main job until `spot serve` lands: SPoT's Photo/Tag model on ObjectGraph, in an SQLite
// file — insert (once), save, fetch with NSPredicate-format predicates, print.

final class Photo: ManagedObject {
    @Managed var unique: String?
    @Managed var title: String?
    @Managed var views: Int64
    @Managed var tags: Set<Tag>
}

final class Tag: ManagedObject {
    @Managed var name: String?
    @Managed var photos: Set<Photo>
}

let model = ManagedObjectModel {
    EntityDescription("Photo", class: Photo.self) {
        AttributeDescription("unique", .string, optional: false)
        AttributeDescription("title", .string)
        AttributeDescription("views", .integer64, optional: false, defaultValue: 0)
        RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true)
    }
    .unique("unique")
    EntityDescription("Tag", class: Tag.self) {
        AttributeDescription("name", .string, optional: false)
        RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true)
    }
    .unique("name")
}

let arguments = CommandLine.arguments.dropFirst()
let storeURL = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("-") } ?? "spot-demo.sqlite")
let container = PersistentContainer(name: "SPoT", managedObjectModel: model)
container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
container.loadPersistentStores { description, error in
    if let error {
        print("Could not open \(description.url?.path ?? "the store"): \(error)")
        exit(1)
    }
}

let context = container.viewContext
let catalogue: [(String, String, Int64, [String])] = [
    ("5811", "Hoover Tower at dusk", 42, ["hoover", "landscape"]),
    ("5812", "Hoover Tower from the Oval", 17, ["hoover", "oval"]),
    ("5813", "Memorial Church mosaic", 63, ["memchu", "portrait"]),
    ("5814", "Main Quad arcades", 8, ["quad", "landscape"]),
    ("5815", "The Dish trail in spring", 29, ["dish", "landscape"]),
]

do {
    if try context.count(for: Photo.fetchRequest()) == 0 {
        var tags: [String: Tag] = [:]
        for (unique, title, views, tagNames) in catalogue {
            let photo = Photo(context: context)
            photo.unique = unique
            photo.title = title
            photo.views = views
            for name in tagNames {
                let tag = tags[name] ?? { let tag = Tag(context: context); tag.name = name; tags[name] = tag; return tag }()
                try photo.addObject(tag, toRelationship: "tags")
            }
        }
        try context.save()
        print("Saved \(catalogue.count) photos to \(storeURL.path)")
    }

    let spots = Tag.fetchRequest()
    spots.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
    print("Spots:")
    for tag in try context.fetch(spots) {
        print("  \(tag.name ?? "?") — \(tag.photos.count) photo\(tag.photos.count == 1 ? "" : "s")")
    }

    let popular = Photo.fetchRequest()
    popular.predicate = FetchPredicate(format: "views >= %d AND ANY tags.name == %@", 20, "landscape")
    popular.sortDescriptors = [FetchSortDescriptor(key: "views", ascending: false)]
    print("Popular landscapes (\(popular.predicate!)):")
    for photo in try context.fetch(popular) {
        print("  \(photo.title ?? "untitled") — \(photo.views) views")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
