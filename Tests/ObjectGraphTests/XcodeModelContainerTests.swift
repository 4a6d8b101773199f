import Foundation
import ObjectGraph
import Testing

@Suite("Xcode models: containers")
struct XcodeModelContainerTests {
    @Test("an Xcode 4 model saves and fetches, with defaults and validation", arguments: TestStack.kinds)
    func events(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: ManagedObjectModel(contentsOf: XcodeFixtures.url("Events.xcdatamodel")))
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let venue = try writer.insertObject(entityName: "Venue")
            venue.setValue("Frost Amphitheater", forKey: "name")
            let event = try writer.insertObject(entityName: "Event")
            #expect(event.value(forKey: "title") as? String == "Untitled")
            #expect(event.value(forKey: "capacity") as? Int32 == 100)
            event.setValue(venue, forKey: "venue")
            event.setValue(Decimal(string: "12.50"), forKey: "price")
            let attendee = try writer.insertObject(entityName: "Attendee")
            attendee.setValue("Jane", forKey: "name")
            attendee.setValue("jane@stanford.edu", forKey: "email")
            try attendee.addObject(event, toRelationship: "events")
            try writer.save()
            // Validation strings from the model apply: an age above the maximum, a bad email.
            attendee.setValue(Int16(200), forKey: "age")
            attendee.setValue("not an email", forKey: "email")
            let error = try #require(throws: ObjectGraphError.self) { try writer.save() }
            #expect(Set(error.failures.compactMap(\.key)) == ["age", "email"])
            writer.rollback()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let events = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Event"))
            let event = try #require(events.first)
            #expect(events.count == 1)
            #expect(event.value(forKeyPath: "venue.name") as? String == "Frost Amphitheater")
            #expect(event.value(forKey: "price") as? Decimal == Decimal(string: "12.5"))
            let attendees = try #require(event.value(forKey: "attendees") as? Set<ManagedObject>)
            #expect(attendees.map { $0.value(forKey: "name") as? String } == ["Jane"])
            #expect(attendees.first?.value(forKey: "age") as? Int16 == 0)
        }
    }

    @Test("a modern model saves and fetches, constraints and delete rules included", arguments: TestStack.kinds)
    func library(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: ManagedObjectModel(contentsOf: XcodeFixtures.url("Library.xcdatamodeld")))
        let writer = stack.container.newBackgroundContext()
        let authorID = UUID()
        try writer.performAndWait {
            let author = try writer.insertObject(entityName: "Author")
            author.setValue(authorID, forKey: "id")
            author.setValue("Wallace Stegner", forKey: "name")
            author.setValue(URL(string: "https://example.org/stegner"), forKey: "website")
            let tag = try writer.insertObject(entityName: "Tag")
            tag.setValue("fiction", forKey: "name")
            for (title, isbn) in [("Angle of Repose", "9780143039952"), ("Crossing to Safety", "9780143039969")] {
                let book = try writer.insertObject(entityName: "Book")
                #expect(book.value(forKey: "pageCount") as? Int32 == 1)
                #expect(book.value(forKey: "price") as? Decimal == Decimal(string: "9.99"))
                book.setValue(title, forKey: "title")
                book.setValue(isbn, forKey: "isbn")
                book.setValue(4.5, forKey: "rating")
                book.setValue(Data([1, 2, 3]), forKey: "coverColor")
                try author.addObject(book, toRelationship: "books")
                try book.addObject(tag, toRelationship: "tags")
            }
            let publisher = try writer.insertObject(entityName: "Publisher")
            publisher.setValue("Penguin", forKey: "name")
            (author.value(forKey: "books") as? [ManagedObject])?.first?.setValue(publisher, forKey: "publisher")
            try writer.save()

            // A second book with the same ISBN breaks the uniqueness constraint.
            let copy = try writer.insertObject(entityName: "Book")
            copy.setValue("Angle of Repose (copy)", forKey: "title")
            copy.setValue("9780143039952", forKey: "isbn")
            copy.setValue(author, forKey: "author")
            try copy.addObject(tag, toRelationship: "tags")
            let error = try #require(throws: ObjectGraphError.self) { try writer.save() }
            #expect(error.code == .constraintConflict)
            writer.rollback()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = FetchPredicate(format: "id == %@", authorID)
            let author = try #require(try reader.fetch(request).first)
            let books = try #require(author.value(forKey: "books") as? [ManagedObject])
            #expect(books.map { $0.value(forKey: "title") as? String } == ["Angle of Repose", "Crossing to Safety"])
            #expect(books[0].value(forKeyPath: "publisher.name") as? String == "Penguin")
            #expect(books[0].value(forKey: "coverColor") as? Data == Data([1, 2, 3]))
            let byRating = FetchRequest<ManagedObject>(entityName: "Book")
            byRating.predicate = FetchPredicate(format: "rating > 4 AND ANY tags.name == 'fiction'")
            #expect(try reader.count(for: byRating) == 2)
            // Cascade from Author to its books.
            reader.delete(author)
            try reader.save()
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Book")) == 0)
        }
    }

    @Test("parent and abstract entities save and fetch through the parent", arguments: TestStack.kinds)
    func media(inMemory: Bool) throws {
        let stack = try TestStack(inMemory: inMemory, model: ManagedObjectModel(contentsOf: XcodeFixtures.url("Media.xcdatamodel")))
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let album = try context.insertObject(entityName: "Album")
            #expect(album.value(forKey: "name") as? String == "New Album")
            #expect(throws: ObjectGraphError.self) { try context.insertObject(entityName: "MediaItem") }
            var items: [ManagedObject] = []
            for entity in ["LivePhoto", "Video", "Photo"] {
                let item = try context.insertObject(entityName: entity)
                item.setValue(UUID(), forKey: "identifier")
                item.setValue(entity.lowercased(), forKey: "caption")
                items.append(item)
            }
            items[1].setValue(12.5, forKey: "duration")
            album.setValue(items, forKey: "items")
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let all = try reader.fetch(FetchRequest<ManagedObject>(entityName: "MediaItem"))
            #expect(Set(all.map(\.entity.name)) == ["LivePhoto", "Video", "Photo"])
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Photo")) == 2)
            let album = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Album")).first)
            let items = try #require(album.value(forKey: "items") as? [ManagedObject])
            #expect(items.map { $0.value(forKey: "caption") as? String } == ["livephoto", "video", "photo"])
            #expect(items[1].value(forKey: "duration") as? Double == 12.5)
            #expect(items[1].value(forKey: "hasAudio") as? Bool == true)
        }
    }

    @Test("every version of a bundle opens a container that saves and fetches", arguments: ["Company", "Company 2", "Company 3", "Company 4"])
    func companyVersions(version: String) throws {
        let bundle = try ManagedObjectModelBundle(contentsOf: XcodeFixtures.url("Company.xcdatamodeld"))
        let model = try #require(bundle.version(named: version)?.model)
        let stack = try TestStack(model: model)
        let organization = model.entitiesByName["Organization"] != nil ? "Organization" : "Company"
        let nameKey = model.entitiesByName["Person"]?.propertiesByName["fullName"] != nil ? "fullName" : "name"
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let company = try context.insertObject(entityName: organization)
            company.setValue("Stanford", forKey: "name")
            let person = try context.insertObject(entityName: "Person")
            person.setValue("Leland", forKey: nameKey)
            if person.entity.relationshipsByName["employers"] != nil {
                try person.addObject(company, toRelationship: "employers")
            } else {
                person.setValue(company, forKey: "employer")
            }
            if person.entity.relationshipsByName["addresses"] != nil {
                let address = try context.insertObject(entityName: "Address")
                address.setValue("Palo Alto", forKey: "city")
                address.setValue(person, forKey: "resident")
            }
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let person = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
            #expect(person.value(forKey: nameKey) as? String == "Leland")
            let employerPath = person.entity.relationshipsByName["employers"] != nil ? "employers.name" : "employer.name"
            let employers = person.value(forKeyPath: employerPath)
            #expect((employers as? String) == "Stanford" || (employers as? Set<String>) == ["Stanford"] || (employers as? [String]) == ["Stanford"])
            if person.entity.propertiesByName["email"]?.isOptional == false {
                #expect(person.value(forKey: "email") as? String == "")
            }
            if let addresses = person.value(forKey: "addresses") as? Set<ManagedObject> {
                #expect(addresses.first?.value(forKey: "city") as? String == "Palo Alto")
                if version == "Company 4" { #expect(addresses.first?.value(forKey: "country") as? String == "US") }
            }
        }
    }
}
