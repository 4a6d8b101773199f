import Foundation
import ObjectGraph
import Testing

final class Spot: ManagedObject {
    @Managed var name: String?
    @Managed var slug: String?
    @Managed var visits: Int16
    @Managed var price: Decimal?
    @Managed var code: UUID?
    @Managed var link: URL?
    @Managed var blob: Data?
    @Managed var open: Bool
    @Managed var height: Float
    @Managed var tags: [String]?
    @Managed var scratch: String?

    override func awakeFromInsert() {
        setValue("unnamed", forKey: "name")
    }

    override func willSave() {
        if slug != name?.lowercased() { slug = name?.lowercased() }
    }
}

enum SpotModel {
    static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Spot", class: Spot.self) {
                AttributeDescription("name", .string)
                AttributeDescription("slug", .string)
                AttributeDescription("visits", .integer16, optional: false, defaultValue: 0)
                AttributeDescription("price", .decimal)
                AttributeDescription("code", .uuid)
                AttributeDescription("link", .uri)
                AttributeDescription("blob", .binaryData)
                AttributeDescription("open", .boolean, optional: false, defaultValue: true)
                AttributeDescription("height", .float, optional: false, defaultValue: 0)
                AttributeDescription("tags", .transformable, transformableType: [String].self)
                AttributeDescription("scratch", .string, transient: true)
            }
        }
    }
}

@Suite("Managed objects")
struct ManagedObjectTests {
    @Test("every attribute type round-trips exactly through the store", arguments: TestStack.kinds)
    func roundTrip(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: SpotModel.make())
        let context = stack.container.newBackgroundContext()
        let code = UUID()
        let id = try context.performAndWait {
            let spot = Spot(context: context)
            #expect(spot.name == "unnamed")
            #expect(spot.open)
            spot.name = "Zoe\u{0308}’s Café 🌵"
            spot.visits = Int16.max
            spot.price = Decimal(string: "12345678901234567890.123456789")
            spot.code = code
            spot.link = URL(string: "https://www.flickr.com/photos/48247111@N07/")
            spot.blob = Data([0, 1, 2, 255])
            spot.height = 1.5
            spot.tags = ["oak", "palm"]
            spot.scratch = "kept in memory only"
            try context.save()
            #expect(spot.slug == "zoë’s café 🌵")
            return spot.objectID
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let spot = try #require(try reader.existingObject(with: id) as? Spot)
            #expect(spot.name == "Zoë’s Café 🌵")
            #expect(spot.name?.unicodeScalars.count == "Zoë’s Café 🌵".precomposedStringWithCanonicalMapping.unicodeScalars.count)
            #expect(spot.visits == Int16.max)
            #expect(spot.price == Decimal(string: "12345678901234567890.123456789"))
            #expect(spot.code == code)
            #expect(spot.link?.absoluteString == "https://www.flickr.com/photos/48247111@N07/")
            #expect(spot.blob == Data([0, 1, 2, 255]))
            #expect(spot.height == 1.5)
            #expect(spot.tags == ["oak", "palm"])
            #expect(spot.scratch == nil)
            #expect(spot.value(forKey: "visits") is Int16)
            #expect(spot.value(forKey: "height") is Float)
        }
    }

    @Test("text with NUL characters and empty data are saved whole: insert, update, batch update", arguments: TestStack.kinds)
    func textWithNULs(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: SpotModel.make())
        let context = stack.container.newBackgroundContext()
        let text = "before\u{0}after\u{0}"
        let id = try context.performAndWait {
            let spot = Spot(context: context)
            spot.name = text
            spot.blob = Data()
            try context.save()
            return spot.objectID
        }
        // Read by a fetch and by ID, in contexts that never saw the values.
        func expectStored(name: String, _ comment: Comment) throws {
            let reader = stack.container.newBackgroundContext()
            try reader.performAndWait {
                let fetched = try reader.fetch(FetchRequest<Spot>(entityName: "Spot"))
                #expect(fetched.map(\.name) == [name], comment)
                #expect(fetched.first?.name?.utf8.count == name.utf8.count, comment)
                #expect(fetched.first?.blob == Data(), "an empty blob, not nil: \(comment)")
            }
            let byID = stack.container.newBackgroundContext()
            try byID.performAndWait {
                let spot = try #require(try byID.existingObject(with: id) as? Spot)
                #expect(spot.name == name, comment)
            }
        }
        try expectStored(name: text, "after the insert")
        try context.performAndWait {
            let spot = try #require(try context.existingObject(with: id) as? Spot)
            spot.name = "\u{0}" + text
            try context.save()
        }
        try expectStored(name: "\u{0}" + text, "after an update")
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Spot")
            update.propertiesToUpdate = ["name": "batch\u{0}" + text]
            _ = try context.execute(update)
        }
        try expectStored(name: "batch\u{0}" + text, "after a batch update")
    }

    @Test("decimals compare numerically in SQL")
    func decimalOrder() throws {
        let stack = try TestStack(inMemory: true, model: SpotModel.make())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for price in ["9.5", "10", "100.25", "-3"] {
                Spot(context: context).price = Decimal(string: price)
            }
            try context.save()
            let request = Spot.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "price", ascending: true)]
            request.predicate = FetchPredicate(format: "price > %@", Decimal(9))
            #expect(try context.fetch(request).compactMap(\.price) == [9.5, 10, 100.25].map { Decimal($0) })
        }
    }

    @Test("changedValues and committedValues track edits against the last save")
    func changes() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.title = "First"
            #expect(photo.isInserted && !photo.isUpdated)
            #expect(photo.committedValues(forKeys: nil).isEmpty)
            try context.save()
            #expect(!photo.hasChanges && photo.changedValues().isEmpty)
            photo.title = "Second"
            #expect(photo.isUpdated)
            #expect(photo.changedValues()["title"] as? String == "Second")
            #expect(photo.committedValues(forKeys: ["title"])["title"] as? String == "First")
            photo.title = "First"
            #expect(photo.changedValues().isEmpty)
            #expect(!context.hasChanges)
            photo.title = "Third"
            context.rollback()
            #expect(photo.title == "First")
            photo.title = "Fourth"
            context.refresh(photo, mergeChanges: false)
            #expect(photo.isFault)
            #expect(photo.title == "First")
        }
    }

    @Test("each new object starts with its entity's defaults, its own: setting one object's changes no other's")
    func newObjectsOwnTheirDefaults() throws {
        let day = Date(timeIntervalSinceReferenceDate: 86_400)
        let model = ManagedObjectModel {
            // Defaults that hold no reference (copied as bytes) and one that does (a string).
            EntityDescription("Counter") {
                AttributeDescription("count", .integer64, optional: false, defaultValue: Int64(7))
                AttributeDescription("rate", .double, optional: false, defaultValue: 2.5)
                AttributeDescription("on", .boolean, optional: false, defaultValue: true)
                AttributeDescription("since", .date, defaultValue: day)
                AttributeDescription("note", .integer32)
            }
            EntityDescription("Label") {
                AttributeDescription("text", .string, defaultValue: "untitled")
                AttributeDescription("size", .integer16, optional: false, defaultValue: Int16(12))
            }
        }
        let stack = try TestStack(model: model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for entity in ["Counter", "Label"] {
                let first = EntityDescription.insertNewObject(forEntityName: entity, into: context)
                let second = EntityDescription.insertNewObject(forEntityName: entity, into: context)
                if entity == "Counter" {
                    #expect(Set(first.changedValues().keys) == ["count", "rate", "on", "since"])
                    first.setValue(Int64(1), forKey: "count")
                    first.setValue(false, forKey: "on")
                    first.setValue(Int32(5), forKey: "note")
                    #expect(second.value(forKey: "count") as? Int64 == 7)
                    #expect(second.value(forKey: "on") as? Bool == true)
                    #expect(second.value(forKey: "rate") as? Double == 2.5)
                    #expect(second.value(forKey: "since") as? Date == day)
                    #expect(second.value(forKey: "note") == nil)
                } else {
                    first.setValue("mine", forKey: "text")
                    #expect(second.value(forKey: "text") as? String == "untitled")
                }
            }
            try context.save()
            let third = EntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            #expect(third.value(forKey: "count") as? Int64 == 7 && third.value(forKey: "on") as? Bool == true)
            context.rollback()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let counters = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Counter"))
            #expect(counters.compactMap { $0.value(forKey: "count") as? Int64 }.sorted() == [1, 7])
            #expect(counters.compactMap { $0.value(forKey: "on") as? Bool }.sorted { !$0 && $1 } == [false, true])
            let labels = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Label"))
            #expect(labels.compactMap { $0.value(forKey: "text") as? String }.sorted() == ["mine", "untitled"])
        }
    }

    @Test("key paths with collection operators")
    func keyPaths() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            let ansel = Photographer(context: context)
            ansel.name = "Ansel"
            for views in [3, 5, 10] {
                let photo = Photo(context: context)
                photo.unique = "\(views)"
                photo.views = Int64(views)
                photo.title = "t\(views)"
                photo.photographer = ansel
            }
            #expect(ansel.value(forKeyPath: "photos.@count") as? Int == 3)
            #expect(ansel.value(forKeyPath: "photos.@sum.views") as? Int64 == 18)
            #expect(ansel.value(forKeyPath: "photos.@avg.views") as? Double == 6)
            #expect(ansel.value(forKeyPath: "photos.@max.views") as? Int64 == 10)
            #expect(ansel.value(forKeyPath: "photos.@min.title") as? String == "t10")
            // Key-value coding's unions: every value, or each distinct one once.
            for photo in ansel.photos where photo.views != 3 { photo.title = "same" }
            let titles = ansel.value(forKeyPath: "photos.@unionOfObjects.title") as? [Any]
            #expect((titles as? [String])?.sorted() == ["same", "same", "t3"])
            let distinct = ansel.value(forKeyPath: "photos.@distinctUnionOfObjects.title") as? [Any]
            #expect((distinct as? [String])?.sorted() == ["same", "t3"])
            let photographers = ansel.value(forKeyPath: "photos.@distinctUnionOfObjects.photographer") as? [Any]
            #expect((photographers as? [ManagedObject])?.map(ObjectIdentifier.init) == [ObjectIdentifier(ansel)])
            let photo = ansel.photos.first!
            #expect(photo.value(forKeyPath: "photographer.name") as? String == "Ansel")
            #expect(photo.value(forKeyPath: "recent.lastViewed") == nil)
        }
    }

    @Test("a deleted object's values read as nil once the delete is saved")
    func deletedReadsNil() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let tag = Tag(context: context)
            tag.name = "gone soon"
            try context.save()
            context.delete(tag)
            #expect(tag.name == "gone soon")
            try context.save()
            #expect(tag.name == nil)
            #expect(tag.value(forKey: "name") == nil)
            #expect(throws: ObjectGraphError.self) { try context.existingObject(with: tag.objectID) }
        }
    }
}
