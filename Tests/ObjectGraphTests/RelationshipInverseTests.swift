import Foundation
import ObjectGraph
import Testing

@Suite("Relationships keep their inverses in step")
struct RelationshipInverseTests {
    @Test("many-to-many: setting one side updates the other at once and after a save", arguments: StoreKind.allCases)
    func manyToMany(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        let ids: (photo: ManagedObjectID, quad: ManagedObjectID, oval: ManagedObjectID) = try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "p1"
            let quad = Tag(context: context)
            quad.name = "quad"
            let oval = Tag(context: context)
            oval.name = "oval"
            photo.tags = [quad, oval]
            #expect(quad.photos == [photo])
            #expect(oval.photos == [photo])
            try photo.removeObject(oval, fromRelationship: "tags")
            #expect(oval.photos.isEmpty)
            #expect(photo.tags == [quad])
            quad.mutableSetValue(forKey: "photos").remove(photo)
            #expect(photo.tags.isEmpty)
            oval.mutableSetValue(forKey: "photos").add(photo)
            #expect(photo.tags == [oval])
            try context.save()
            return (photo.objectID, quad.objectID, oval.objectID)
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let photo = try #require(try reader.existingObject(with: ids.photo) as? Photo)
            #expect(photo.tags.map(\.objectID) == [ids.oval])
            let quad = try #require(try reader.existingObject(with: ids.quad) as? Tag)
            #expect(quad.photos.isEmpty)
            // Change the side whose members were never loaded: the other side must still agree.
            let oval = try #require(reader.object(with: ids.oval) as? Tag)
            photo.tags = [quad]
            #expect(oval.photos.isEmpty)
            #expect(quad.photos == [photo])
            try reader.save()
        }
        let third = stack.container.newBackgroundContext()
        try third.performAndWait {
            let quad = try #require(try third.existingObject(with: ids.quad) as? Tag)
            let oval = try #require(try third.existingObject(with: ids.oval) as? Tag)
            #expect(quad.photos.map(\.objectID) == [ids.photo])
            #expect(oval.photos.isEmpty)
        }
    }

    @Test("one-to-many: moving a photo to another photographer leaves the old one", arguments: StoreKind.allCases)
    func oneToMany(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let ansel = Photographer(context: context)
            ansel.name = "Ansel"
            let dorothea = Photographer(context: context)
            dorothea.name = "Dorothea"
            let photo = Photo(context: context)
            photo.unique = "p"
            photo.photographer = ansel
            #expect(ansel.photos == [photo])
            dorothea.photos = [photo]
            #expect(photo.photographer === dorothea)
            #expect(ansel.photos.isEmpty)
            try context.save()
            context.reset()
            let fetched = try context.fetch(Photographer.fetchRequest())
            let byName = Dictionary(uniqueKeysWithValues: fetched.map { ($0.name!, $0) })
            #expect(byName["Ansel"]?.photos.isEmpty == true)
            #expect(byName["Dorothea"]?.photos.count == 1)
            #expect(byName["Dorothea"]?.photos.first?.photographer === byName["Dorothea"])
        }
    }

    @Test("one-to-one: giving a recent to another photo takes it from the first", arguments: StoreKind.allCases)
    func oneToOne(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            let first = Photo(context: context)
            first.unique = "1"
            let second = Photo(context: context)
            second.unique = "2"
            let recent = Recent(context: context)
            recent.lastViewed = Date()
            first.recent = recent
            #expect(recent.photo === first)
            second.recent = recent
            #expect(recent.photo === second)
            #expect(first.recent == nil)
            recent.photo = nil
            #expect(second.recent == nil)
        }
    }

    @Test("relating objects of the wrong entity or another context is refused")
    func wrongDestination() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        let other = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            let photographer = Photographer(context: context)
            photographer.name = "A"
            #expect(throws: ObjectGraphError.self) { try photo.addObject(photographer, toRelationship: "tags") }
            #expect(throws: ObjectGraphError.self) { try photo.setCheckedValue(photographer, forKey: "recent") }
            let foreign: ManagedObject = other.performAndWait {
                let tag = Tag(context: other)
                tag.name = "x"
                return tag
            }
            let error = try #require(throws: ObjectGraphError.self) { try photo.addObject(foreign, toRelationship: "tags") }
            #expect(error.message.contains("different contexts"))
            #expect(photo.tags.isEmpty)
        }
    }
}
