import Foundation
import ObjectGraph
import Testing

@Suite("Validation at save")
struct ValidationTests {
    @Test("a wrong-typed setValue is never stored and makes the save name entity, key and type")
    func wrongType() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.setValue("lots", forKey: "views")
            #expect(photo.views == 0)
            photo.setValue(3.5, forKey: "views")
            photo.setValue(Int8(7), forKey: "rating")
            #expect(photo.rating == 7)
            photo.setValue("x", forKey: "noSuchKey")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .validationMultipleErrors)
            let keys = error.failures.map(\.key)
            #expect(keys == ["views", "views", "noSuchKey"])
            #expect(error.failures[0].entityName == "Photo")
            #expect(error.failures[0].message.contains("Int64"))
            #expect(error.description.contains("noSuchKey"))
            #expect(try context.count(for: Photo.fetchRequest()) == 1)  // pending insert, not saved
            context.rollback()
            #expect(try context.count(for: Photo.fetchRequest()) == 0)
        }
    }

    @Test("setCheckedValue reports a bad value at once")
    func checked() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            let mismatch = try #require(throws: ObjectGraphError.self) { try photo.setCheckedValue(Date(), forKey: "title") }
            #expect(mismatch.code == .typeMismatch)
            #expect(mismatch.message.contains("Photo.title"))
            let unknown = try #require(throws: ObjectGraphError.self) { try photo.setCheckedValue(1, forKey: "colour") }
            #expect(unknown.code == .unknownKey)
            try photo.setCheckedValue(UInt8(200), forKey: "views")
            #expect(photo.views == 200)
            #expect(throws: ObjectGraphError.self) { try photo.setCheckedValue(Int64.max, forKey: "rating") }
        }
    }

    @Test("one save error lists every invalid object and key")
    func multiple() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            _ = Photo(context: context)  // unique missing
            _ = Tag(context: context)  // name missing
            _ = Recent(context: context)  // lastViewed and photo missing
            do {
                try context.save()
                Issue.record("the save should fail")
            } catch let error as ObjectGraphError {
                let pairs = Set(error.failures.map { "\($0.entityName).\($0.key ?? "")" })
                #expect(pairs == ["Photo.unique", "Tag.name", "Recent.lastViewed", "Recent.photo"])
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test("range, length and pattern rules")
    func rules() throws {
        let model = ManagedObjectModel {
            EntityDescription("Spot") {
                AttributeDescription("name", .string, optional: false).length(2...20).pattern("[A-Z][A-Za-z ]+")
                AttributeDescription("rating", .integer16, defaultValue: 1).range(1...5)
            }
        }
        let stack = try TestStack(inMemory: true, model: model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let spot = try context.insertObject(entityName: "Spot")
            spot.setValue("hoover", forKey: "name")
            spot.setValue(9, forKey: "rating")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.failures.count == 2)
            #expect(error.failures.contains { $0.key == "name" && $0.message.contains("pattern") })
            #expect(error.failures.contains { $0.key == "rating" && $0.message.contains("maximum") })
            spot.setValue("Hoover Tower", forKey: "name")
            spot.setValue(5, forKey: "rating")
            try context.save()
            spot.setValue("H", forKey: "name")
            let short = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(short.failures.first?.message.contains("shorter") == true)
        }
    }

    @Test("a uniqueness constraint refuses a duplicate", arguments: TestStack.kinds)
    func uniqueness(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let first = Tag(context: context)
            first.name = "quad"
            try context.save()
            let second = Tag(context: context)
            second.name = "quad"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .constraintConflict)
            #expect(error.message.contains("Tag.name"))
            context.delete(second)
            try context.save()
            #expect(try context.count(for: Tag.fetchRequest()) == 1)
        }
    }
}
