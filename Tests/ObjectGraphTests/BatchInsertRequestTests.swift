import Foundation
import ObjectGraph
import Testing

@Suite("Batch insert requests")
struct BatchInsertRequestTests {
    private func execute(_ request: BatchInsertRequest, in stack: TestStack) throws -> BatchInsertResult {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait { try #require(try context.execute(request) as? BatchInsertResult) }
    }

    @Test("dictionaries are inserted with defaults for missing keys; IDs come back in order", arguments: StoreKind.allCases)
    func insertsDictionaries(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let published = Date(timeIntervalSinceReferenceDate: 1_000_000)
        let request = BatchInsertRequest(
            entityName: "Book",
            objects: [
                ["isbn": "1", "title": "Dune", "year": Int32(1965), "published": published],
                ["isbn": "2", "title": "Emma", "price": 3, "subtitle": NSNull()],
                ["title": "Kim", "year": Int16(1901), "subtitle": Optional<String>.none as Any],
            ]
        )
        request.resultType = .objectIDs
        let ids = try #require(try execute(request, in: stack).result as? [ManagedObjectID])
        #expect(ids.count == 3 && Set(ids).count == 3 && ids.allSatisfy { $0.entityName == "Book" })
        let rows = try LibraryModel.all("Book", in: stack) { book in
            let date = (book.value(forKey: "published") as? Date).map { "\($0.timeIntervalSinceReferenceDate)" } ?? "-"
            return
                "\(book.value(forKey: "title")!) \(book.value(forKey: "year")!) \(book.value(forKey: "price")!) \(date) \(book.value(forKey: "subtitle") ?? "-")"
        }
        #expect(rows == ["Dune 1965 9.5 1000000.0 -", "Emma 1900 3.0 - -", "Kim 1901 9.5 - -"])
        let context = stack.container.newBackgroundContext()
        let title = try context.performAndWait { try context.existingObject(with: ids[1]).value(forKey: "title") as? String }
        #expect(title == "Emma")
    }

    @Test("every result type: status, IDs, count", arguments: StoreKind.allCases)
    func resultTypes(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let status = BatchInsertRequest(entityName: "Tag", objects: [["name": "a"]])
        #expect(try execute(status, in: stack).result as? Bool == true)
        let counted = BatchInsertRequest(entityName: "Tag", objects: [["name": "b"], ["name": "c"]])
        counted.resultType = .count
        #expect(try execute(counted, in: stack).result as? Int == 2)
        #expect(try LibraryModel.count("Tag", in: stack) == 3)
    }

    @Test("a dictionary handler fills one object per call until it returns true", arguments: StoreKind.allCases)
    func dictionaryHandler(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let model = stack.container.managedObjectModel
        let entity = try #require(model.entitiesByName["Book"])
        var next = 0
        let request = BatchInsertRequest(entity: entity) { (dictionary: NSMutableDictionary) in
            guard next < 5 else { return true }
            dictionary["title"] = "Book \(next)"
            dictionary["year"] = 2000 + next
            dictionary["isbn"] = "isbn-\(next)"
            next += 1
            return false
        }
        request.resultType = .count
        #expect(try execute(request, in: stack).result as? Int == 5)
        let rows = try LibraryModel.all("Book", in: stack) { "\($0.value(forKey: "title")!)/\($0.value(forKey: "year")!)" }
        #expect(rows == ["Book 0/2000", "Book 1/2001", "Book 2/2002", "Book 3/2003", "Book 4/2004"])
    }

    @Test("a managed object handler sets up one object per call; a wrong value throws", arguments: StoreKind.allCases)
    func managedObjectHandler(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        var next = 0
        let request = BatchInsertRequest(entityName: "Book") { (book: ManagedObject) in
            guard next < 3 else { return true }
            book.setValue("Book \(next)", forKey: "title")
            book.setValue(next, forKey: "year")
            next += 1
            return false
        }
        request.resultType = .objectIDs
        #expect((try execute(request, in: stack).result as? [ManagedObjectID])?.count == 3)
        #expect(
            try LibraryModel.all("Book", in: stack) { "\($0.value(forKey: "title")!)/\($0.value(forKey: "year")!)/\($0.value(forKey: "price")!)" }
                == [
                    "Book 0/0/9.5", "Book 1/1/9.5", "Book 2/2/9.5",
                ]
        )
        var calls = 0
        let wrong = BatchInsertRequest(entityName: "Book") { (book: ManagedObject) in
            calls += 1
            book.setValue("x", forKey: "title")
            book.setValue("not a year", forKey: "year")
            return calls > 2
        }
        let error = try #require(throws: ObjectGraphError.self) { try execute(wrong, in: stack) }
        #expect(error.message.contains("year") && error.message.contains("object 0"), "\(error)")
        #expect(try LibraryModel.count("Book", in: stack) == 3)
    }

    @Test("uniqueness constraints make a batch insert an upsert; without one, duplicates insert", arguments: StoreKind.allCases)
    func upsert(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let context = stack.container.newBackgroundContext()
        let existing = try context.performAndWait {
            let book = try LibraryModel.insert("Book", ["isbn": "A", "title": "Old", "year": 1999], in: context)
            try context.save()
            return book.objectID
        }
        let request = BatchInsertRequest(
            entityName: "Book",
            objects: [["isbn": "A", "title": "New"], ["isbn": "B", "title": "Other"], ["isbn": "B", "title": "Other again"]]
        )
        request.resultType = .objectIDs
        let result = try execute(request, in: stack)
        let ids = try #require(result.result as? [ManagedObjectID])
        #expect(ids[0] == existing)
        #expect(ids[1] == ids[2] && ids[1] != existing)
        let rows = try LibraryModel.all("Book", in: stack) {
            "\($0.value(forKey: "isbn")!) \($0.value(forKey: "title")!) \($0.value(forKey: "year")!)"
        }
        // The upsert writes the keys it gives; the others keep their stored values.
        #expect(rows == ["A New 1999", "B Other again 1900"])
        #expect(result.changes[InsertedObjectsKey] as? [ManagedObjectID] == [ids[1]])

        let tags = BatchInsertRequest(entityName: "Tag", objects: [["name": "same"], ["name": "same"]])
        _ = try execute(tags, in: stack)
        #expect(try LibraryModel.all("Tag", in: stack) { "\($0.value(forKey: "name")!)" } == ["same", "same"])
    }

    /// A valid object, then one with an unknown key, a wrong type, a missing required
    /// attribute, a relationship — and the key each error must name.
    private static let badObjects: [([String: any Sendable], String)] = [
        (["title": "x", "colour": "red"], "colour"),
        (["title": "x", "year": "1999"], "year"),
        (["isbn": "no title"], "title"),
        (["title": "x", "shelf": NSNull()], "shelf"),
    ]

    @Test("bad input throws naming the key, the entity and the object's index, and writes nothing", arguments: StoreKind.allCases, 0..<4)
    func badInput(store: StoreKind, index: Int) throws {
        let (bad, key) = Self.badObjects[index]
        let good: [String: Any] = ["title": "ok"]
        let stack = try LibraryModel.stack(store)
        let request = BatchInsertRequest(entityName: "Book", objects: [good, bad])
        let error = try #require(throws: ObjectGraphError.self) { try execute(request, in: stack) }
        #expect(error.message.contains(key) && error.message.contains("Book") && error.message.contains("object 1"), "\(error)")
        #expect(try LibraryModel.count("Book", in: stack) == 0)
    }

    @Test("merged into a context, the inserts reach a live sectioned controller", arguments: StoreKind.allCases)
    func mergeIntoController(store: StoreKind) throws {
        let live = try LiveItems(store, items: [("a", "A", 1), ("b", "B", 1), ("c", "B", 3)])
        let request = BatchInsertRequest(
            entityName: "Item",
            objects: [["name": "b2", "group": "B", "rank": 2], ["name": "z", "group": "Z", "rank": 1], ["name": "a0", "group": "A", "rank": 0]]
        )
        request.resultType = .objectIDs
        let batches = try live.runAndMerge(request) { [InsertedObjectsKey: ($0 as! BatchInsertResult).result as! [ManagedObjectID]] }
        let inserted = batches.flatMap(\.objects).filter { $0.type == .insert }
        #expect(Set(inserted.map(\.id)) == Set(try live.ids(["a0", "b2", "z"])))
        #expect(batches.flatMap(\.sections).map(\.name) == ["Z"])
        #expect(live.sections.description.contains("Z"))
    }
}
