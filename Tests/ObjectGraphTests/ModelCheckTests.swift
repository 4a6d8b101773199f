import Foundation
import ObjectGraph
import Testing

@Suite("Model checks at load")
struct ModelCheckTests {
    @Test("the Core Data way of building a model works unchanged")
    func coreDataSpelling() throws {
        let tag = EntityDescription()
        tag.name = "Tag"
        let name = AttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        name.isOptional = false
        let photo = EntityDescription()
        photo.name = "Photo"
        let title = AttributeDescription()
        title.name = "title"
        title.attributeType = .string
        title.isOptional = true
        let views = AttributeDescription()
        views.name = "views"
        views.attributeType = .integer64
        let tags = RelationshipDescription()
        tags.name = "tags"
        let photos = RelationshipDescription()
        photos.name = "photos"
        tags.destinationEntity = tag
        tags.inverseRelationship = photos
        tags.minCount = 0
        tags.maxCount = 0
        tags.deleteRule = .nullifyDeleteRule
        photos.destinationEntity = photo
        photos.inverseRelationship = tags
        photos.maxCount = 0
        photo.properties = [title, views, tags]
        tag.properties = [name, photos]
        tag.uniquenessConstraints = [["name"]]
        let model = ManagedObjectModel()
        model.entities = [photo, tag]
        let stack = try TestStack(inMemory: true, model: model)
        let context = stack.container.viewContext
        try context.performAndWait {
            let hoover = EntityDescription.insertNewObject(forEntityName: "Photo", into: context)
            hoover.setValue("Hoover Tower", forKey: "title")
            hoover.setValue(Int64(3), forKey: "views")
            let label = EntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            label.setValue("hoover", forKey: "name")
            label.mutableSetValue(forKey: "photos").add(hoover)
            try context.save()
            let found = try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo"))
            #expect(found.count == 1)
            #expect(found[0].value(forKeyPath: "tags.@count") as? Int == 1)
            let names = (found[0].value(forKeyPath: "tags.name") as? [Any])?.compactMap { $0 as? String }
            #expect(names == ["hoover"])
        }
        #expect(tags.isToMany && !tags.isOrdered)
        #expect(photo.relationshipsByName["tags"] === tags)
    }

    @Test("every error is listed with its entity and property")
    func errors() throws {
        let model = ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("description", .string)
                AttributeDescription("title", .string)
                AttributeDescription("title", .integer16)
                RelationshipDescription("album", to: "Album", inverse: "photos")
                RelationshipDescription("tags", to: "Tag", inverse: "pictures", toMany: true)
            }
            EntityDescription("Tag") {
                RelationshipDescription("pictures", to: "Photo", inverse: "album", toMany: true)
            }
        }
        let error = try #require(throws: ManagedObjectModelError.self) { try model.validate() }
        let duplicate = ManagedObjectModel {
            EntityDescription("Tag") {}
            EntityDescription("Tag") {}
        }
        let duplicateError = try #require(throws: ManagedObjectModelError.self) { try duplicate.validate() }
        let text = error.issues.map(\.description) + duplicateError.issues.map(\.description)
        #expect(text.contains { $0.hasPrefix("Photo.description:") && $0.contains("clashes") })
        #expect(text.contains { $0.hasPrefix("Photo.title:") && $0.contains("duplicate") })
        #expect(text.contains { $0.hasPrefix("Photo.album:") && $0.contains("unknown destination entity 'Album'") })
        #expect(text.contains { $0.hasPrefix("Tag:") && $0.contains("duplicate entity") })
        #expect(text.contains { $0.hasPrefix("Photo.tags:") && $0.contains("names 'album'") })
    }

    @Test("a missing inverse is a warning, not an error")
    func missingInverse() throws {
        let model = ManagedObjectModel {
            EntityDescription("Photo") { RelationshipDescription("cover", to: "Photo", inverse: nil) }
        }
        try model.validate()
        #expect(
            model.warnings.map(\.description) == ["Photo.cover: has no inverse relationship; the object graph cannot keep the other side in step"]
        )
    }

    @Test("changing a loaded model traps")
    func frozen() async {
        await #expect(processExitsWith: .failure) {
            let model = SPoTModel.make()
            _ = try! TestStack(inMemory: true, model: model)
            model.entities.first!.name = "Renamed"
        }
    }

    @Test("sub-entities are stored with their parent and fetched with it", arguments: StoreKind.allCases)
    func inheritance(store: StoreKind) throws {
        let model = ManagedObjectModel {
            EntityDescription("Media", isAbstract: true) {
                AttributeDescription("title", .string)
            }
            EntityDescription("Still", parent: "Media") { AttributeDescription("aperture", .double) }
            EntityDescription("Clip", parent: "Media") { AttributeDescription("seconds", .integer32) }
        }
        let stack = try TestStack(store, model: model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let still = try context.insertObject(entityName: "Still")
            still.setValue("Quad", forKey: "title")
            still.setValue(2.8, forKey: "aperture")
            let clip = try context.insertObject(entityName: "Clip")
            clip.setValue("Dish", forKey: "title")
            clip.setValue(30, forKey: "seconds")
            #expect(throws: ObjectGraphError.self) { try context.insertObject(entityName: "Media") }
            try context.save()
            context.reset()
            let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "Media"))
            #expect(all.map(\.entity.name).sorted() == ["Clip", "Still"])
            let stills = try context.fetch(FetchRequest<ManagedObject>(entityName: "Still"))
            #expect(stills.count == 1 && stills[0].value(forKey: "aperture") as? Double == 2.8)
        }
    }
}
