import Foundation
import ObjectGraph
import Testing

@Suite("Delete rules")
struct DeleteRuleTests {
    @Test("nullify removes a deleted tag from its photos, in memory and in the store", arguments: StoreKind.allCases)
    func nullify(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            let tag = Tag(context: context)
            tag.name = "quad"
            photo.tags = [tag]
            try context.save()
            context.delete(tag)
            #expect(tag.isDeleted)
            context.processPendingChanges()
            #expect(photo.tags.isEmpty)
            #expect(context.deletedObjects == [tag])
            #expect(context.updatedObjects == [photo])
            try context.save()
            context.reset()
            let photos = try context.fetch(Photo.fetchRequest())
            #expect(photos.count == 1 && photos[0].tags.isEmpty)
            #expect(try context.count(for: Tag.fetchRequest()) == 0)
        }
    }

    @Test("cascade deletes a photographer's photos and, through them, their recents", arguments: StoreKind.allCases)
    func cascade(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let ansel = Photographer(context: context)
            ansel.name = "Ansel"
            for index in 0..<3 {
                let photo = Photo(context: context)
                photo.unique = "\(index)"
                photo.photographer = ansel
                let recent = Recent(context: context)
                recent.lastViewed = Date(timeIntervalSinceReferenceDate: Double(index))
                recent.photo = photo
            }
            let kept = Photo(context: context)
            kept.unique = "kept"
            try context.save()
            context.delete(ansel)
            try context.save()
            #expect(try context.count(for: Photographer.fetchRequest()) == 0)
            #expect(try context.fetch(Photo.fetchRequest()).map(\.unique) == ["kept"])
            #expect(try context.count(for: Recent.fetchRequest()) == 0)
        }
    }

    @Test("deny refuses the delete and names the relationship", arguments: StoreKind.allCases)
    func deny(store: StoreKind) throws {
        let model = ManagedObjectModel {
            EntityDescription("Album") {
                AttributeDescription("title", .string)
                RelationshipDescription("pictures", to: "Picture", inverse: "album", toMany: true, deleteRule: .deny)
            }
            EntityDescription("Picture") {
                AttributeDescription("title", .string)
                RelationshipDescription("album", to: "Album", inverse: "pictures")
            }
        }
        let stack = try TestStack(store, model: model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let album = try context.insertObject(entityName: "Album")
            let picture = try context.insertObject(entityName: "Picture")
            picture.setValue(album, forKey: "album")
            try context.save()
            context.delete(album)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.failures.count == 1)
            #expect(error.failures.first?.key == "pictures")
            #expect(error.failures.first?.message.contains("deny") == true)
            context.rollback()
            #expect(!album.isDeleted)
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Album")) == 1)
            // Emptying the relationship first lets the delete through.
            context.delete(picture)
            context.delete(album)
            try context.save()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Album")) == 0)
        }
    }

    @Test("deleting an unsaved object just forgets it")
    func deleteInserted() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let tag = Tag(context: context)
            tag.name = "temp"
            context.delete(tag)
            context.processPendingChanges()
            #expect(!context.hasChanges)
            try context.save()
            #expect(try context.count(for: Tag.fetchRequest()) == 0)
        }
    }
}
