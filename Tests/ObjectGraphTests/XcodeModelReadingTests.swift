import Foundation
import ObjectGraph
import Testing

@Suite("Xcode models: reading fixtures")
struct XcodeModelReadingTests {
    @Test("an Xcode 4 model: optional everywhere, validation strings, indexes, user info")
    func xcode4Model() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Events.xcdatamodel"))
        #expect(model.entities.map(\.name) == ["Attendee", "Event", "Venue"])
        #expect(model.versionIdentifiers == ["1.0"])

        let attendee = try #require(model.entity("Attendee"))
        #expect(attendee.representedClassName == "Attendee")
        #expect(attendee.managedObjectClass == ManagedObject.self)
        let age = try #require(attendee.attribute("age"))
        #expect(age.attributeType == .integer16)
        #expect(age.isOptional)
        #expect(age.defaultValue as? Int16 == 0)
        #expect(age.minValue as? Int16 == 0)
        #expect(age.maxValue as? Int16 == 150)
        let name = try #require(attendee.attribute("name"))
        #expect(name.isIndexed)
        #expect(name.minLength == 1 && name.maxLength == 80)
        #expect(attendee.attribute("email")?.regularExpression == "[^@ ]+@[^@ ]+")
        #expect(attendee.attribute("vip")?.defaultValue as? Bool == false)

        let event = try #require(model.entity("Event"))
        #expect(event.attribute("capacity")?.attributeType == .integer32)
        #expect(event.attribute("capacity")?.defaultValue as? Int32 == 100)
        #expect(event.attribute("price")?.attributeType == .decimal)
        #expect(event.attribute("price")?.defaultValue as? Decimal == 0)
        #expect(event.attribute("rating")?.attributeType == .float)
        #expect(event.attribute("rating")?.maxValue as? Double == 5)
        #expect(event.attribute("title")?.defaultValue as? String == "Untitled")
        #expect(event.attribute("startDate")?.isIndexed == true)
        let venue = try #require(event.relationship("venue"))
        #expect(!venue.isToMany && venue.isOptional && venue.minCount == 1)
        #expect(venue.deleteRule == .nullify)
        #expect(event.relationship("attendees")?.isToMany == true)
        #expect(model.entity("Venue")?.relationship("events")?.deleteRule == .deny)
        #expect(model.entity("Venue")?.userInfo == ["source": "city listings"])
        // The fetched property is not a property of the entity; the report says so.
        #expect(event.properties.contains { $0.name == "sameVenueEvents" } == false)

        let report = try #require(model.importReport)
        #expect(report.entries.map(\.location) == ["Event.sameVenueEvents", "model", "model"])
        #expect(report.entries.allSatisfy { $0.kind == .skipped })
        #expect(report.entries[0].item == "fetched property")
        #expect(report.entries[0].line == 19)
        #expect(report.entries[1].item == "fetch request template \"UpcomingEvents\"")
        #expect(report.entries[2].item == "configuration \"Public\"")
        #expect(report.entries[2].message.contains("Event, Venue"))
        #expect(report.description.contains("Events.xcdatamodel: 3 items not mapped as in Core Data"))
    }

    @Test("a modern model: constraints, fetch indexes, renaming IDs, user info, transformables, derived and ordered")
    func modernModel() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Library.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["Author", "Book", "Loan", "Publisher", "Tag"])
        #expect(model.versionIdentifiers == ["2024.1"])

        let author = try #require(model.entity("Author"))
        #expect(author.uniquenessConstraints == [["id"]])
        #expect(author.attribute("id")?.attributeType == .uuid)
        #expect(author.attribute("id")?.isOptional == false)
        #expect(author.attribute("name")?.renamingIdentifier == "fullName")
        #expect(author.attribute("name")?.minLength == 1)
        #expect(author.attribute("name")?.maxLength == 200)
        #expect(author.attribute("portrait")?.allowsExternalBinaryDataStorage == true)
        #expect(author.attribute("portrait")?.attributeType == .binaryData)
        #expect(author.attribute("website")?.attributeType == .uri)
        #expect(author.attribute("born")?.minValue as? Date == Date(timeIntervalSinceReferenceDate: -3_155_760_000))
        #expect(author.attribute("displayName")?.derivationExpression == "lowercase:(name)")
        let books = try #require(author.relationship("books"))
        #expect(books.isToMany && books.isOrdered && books.deleteRule == .cascade)
        #expect(books.destinationEntity === model.entity("Book"))  // linked when the model is read, as in Core Data
        #expect(books.inverseRelationship?.name == "author")

        let book = try #require(model.entity("Book"))
        #expect(book.representedClassName == ".Book")
        #expect(book.renamingIdentifier == "Title")
        #expect(book.versionHashModifier == "isbn13")
        #expect(book.userInfo == ["displayName": "Book", "plural": "Books"])
        #expect(book.uniquenessConstraints == [["isbn"], ["title", "author"]])
        #expect(
            book.indexes == [
                FetchIndexDescription(name: "byTitleIndex", elements: [FetchIndexElementDescription(propertyName: "title")]),
                FetchIndexDescription(
                    name: "byRatingAndPublished",
                    elements: [
                        FetchIndexElementDescription(propertyName: "rating", isAscending: false),
                        FetchIndexElementDescription(propertyName: "published"),
                    ]
                ),
            ]
        )
        let isbn = try #require(book.attribute("isbn"))
        #expect(isbn.renamingIdentifier == "code")
        #expect(isbn.versionHashModifier == "13 digits")
        #expect(isbn.userInfo == ["format": "ISBN-13"])
        #expect(isbn.regularExpression == "97[89][0-9]{10}")
        #expect(!isbn.isOptional)
        let pages = try #require(book.attribute("pageCount"))
        #expect(pages.defaultValue as? Int32 == 1)
        #expect(pages.minValue as? Int32 == 1 && pages.maxValue as? Int32 == 10_000)
        #expect(book.attribute("price")?.defaultValue as? Decimal == Decimal(string: "9.99"))
        #expect(book.attribute("published")?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 694_224_000))
        #expect(book.attribute("rating")?.minValue as? Double == 0)
        #expect(book.attribute("rating")?.maxValue as? Double == 5)
        #expect(book.attribute("searchText")?.isTransient == true)
        #expect(book.attribute("weight")?.defaultValue as? Double == 0.5)
        let cover = try #require(book.attribute("coverColor"))
        #expect(cover.attributeType == .transformable)
        #expect(cover.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(cover.attributeValueClassName == "[String]")
        #expect(book.attribute("shelfLocation") == nil)

        let author2 = try #require(book.relationship("author"))
        #expect(!author2.isToMany && !author2.isOptional && author2.deleteRule == .nullify)
        let loans = try #require(book.relationship("loans"))
        #expect(loans.isToMany && loans.maxCount == 3 && loans.deleteRule == .deny)
        #expect(book.relationship("publisher")?.deleteRule == .noAction)
        let tags = try #require(book.relationship("tags"))
        #expect(tags.isToMany && tags.minCount == 1 && tags.maxCount == 0)
        #expect(!tags.isOrdered)
        #expect(model.entity("Loan")?.indexes.map(\.name) == ["byDue"])
        #expect(model.entity("Publisher")?.indexes.isEmpty == true)
    }

    @Test("the report of a modern model lists every item not mapped as Core Data would")
    func modernModelReport() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Library.xcdatamodeld"))
        let report = try #require(model.importReport)
        let lines = report.entries.map { "\($0.kind) \($0.location) \($0.item)" }
        #expect(
            lines == [
                "skipped model usedWithCloudKit=\"YES\"",
                "changed Author.displayName derived attribute",
                "skipped Author.recentBooks fetched property",
                "changed Book.coverColor valueTransformerName=\"NSSecureUnarchiveFromData\"",
                "skipped Book.shelfLocation attributeType=\"Composite\"",
                "changed Publisher.location valueTransformerName=\"LocationTransformer\"",
                "changed Publisher.notes transformable attribute without valueTransformerName",
                "skipped Publisher.region attributeType=\"Undefined\"",
                "skipped Publisher.location fetch index \"byLocation\"",
                "skipped Tag isAccessibilityElement=\"YES\"",
                "skipped model composite attribute type \"Shelf\"",
                "skipped model fetch request template \"TopRated\"",
                "skipped model configuration \"Cloud\"",
            ]
        )
        #expect(report.entries(entity: "Publisher", property: "region").first?.message.contains("Undefined") == true)
        #expect(report.entries(entity: "Publisher").count == 4)
        let rTree = try #require(report.entries(entity: "Publisher").last)
        #expect(rTree.message.contains("RTree"))
        #expect(rTree.line == 75)
    }

    @Test("a registered transformer is not reported")
    func registeredTransformer() throws {
        struct Passthrough: AttributeValueTransformer {
            func transformedValue(_ value: Any) throws -> Data { value as? Data ?? Data() }
            func reverseTransformedValue(_ data: Data) throws -> Any { data }
        }
        // Tests run in parallel and the registry is global: read a copy of the fixture whose
        // transformer has a name no other test uses.
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Library.xcdatamodel")
        try FileManager.default.copyItem(at: XcodeFixtures.url("Library.xcdatamodeld/Library.xcdatamodel"), to: copy)
        let name = "LocationTransformer-\(UUID().uuidString)"
        let contents = copy.appendingPathComponent("contents")
        let xml = try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(of: "\"LocationTransformer\"", with: "\"\(name)\"")
        try xml.write(to: contents, atomically: true, encoding: .utf8)
        ValueTransformerRegistry.setValueTransformer(Passthrough(), forName: name)
        defer { ValueTransformerRegistry.setValueTransformer(nil, forName: name) }

        let model = try ManagedObjectModel(contentsOf: copy)
        #expect(model.entity("Publisher")?.attribute("location")?.valueTransformerName == name)
        let entries = try #require(model.importReport?.entries(entity: "Publisher", property: "location"))
        #expect(entries.map(\.item) == ["fetch index \"byLocation\""])  // no transformer entry
    }

    @Test("parent and abstract entities, ordered to-many to an abstract entity")
    func inheritance() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Media.xcdatamodel"))
        #expect(model.importReport?.isEmpty == true)
        let media = try #require(model.entity("MediaItem"))
        #expect(media.isAbstract)
        #expect(media.uniquenessConstraints == [["identifier"]])
        #expect(model.entity("Photo")?.isAbstract == false)
        #expect(model.entity("Album")?.relationship("items")?.isOrdered == true)
        #expect(model.entity("Video")?.attribute("hasAudio")?.defaultValue as? Bool == true)
        try model.validate()
        #expect(model.entity("Photo")?.superentity === media)
        #expect(model.entity("LivePhoto")?.superentity === model.entity("Photo"))
        #expect(Set(media.subentities.map(\.name)) == ["Photo", "Video"])
        #expect(
            model.entity("LivePhoto")?.propertiesByName.keys.sorted() == [
                "albums", "caption", "captured", "height", "identifier", "motionData", "width",
            ]
        )
        let items = try #require(model.entity("Album")?.relationship("items"))
        #expect(items.destinationEntity === media)
        #expect(items.inverseRelationship === media.relationship("albums"))
    }

    @Test("entities bind to registered classes by entity name or class name")
    func classRegistry() throws {
        final class Photo: ManagedObject {}
        final class Clip: ManagedObject {}
        let model = try ManagedObjectModel(
            contentsOf: XcodeFixtures.url("Media.xcdatamodel"),
            modelClasses: ["Photo": Photo.self, "Video": Clip.self]
        )
        #expect(model.entity("Photo")?.managedObjectClass == Photo.self)
        #expect(model.entity("Video")?.managedObjectClass == Clip.self)
        #expect(model.entity("Album")?.managedObjectClass == ManagedObject.self)
        // With a registry, an entity whose class is missing from it is reported.
        let unbound = try #require(model.importReport?.entries.map(\.location))
        #expect(unbound == ["Album", "LivePhoto", "MediaItem"])

        let library = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Library.xcdatamodeld"), modelClasses: ["Book": Photo.self])
        #expect(library.entity("Book")?.managedObjectClass == Photo.self)  // ".Book" is "Book"
    }
}
