import Foundation
import ObjectGraph
import Testing

@Suite("Batch update requests")
struct BatchUpdateRequestTests {
    private static let early = Date(timeIntervalSinceReferenceDate: 0)
    private static let late = Date(timeIntervalSinceReferenceDate: 500_000_000)

    /// Four books and an e-book, saved.
    private func library(_ store: StoreKind) throws -> TestStack {
        let stack = try LibraryModel.stack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try LibraryModel.insert("Book", ["isbn": "1", "title": "The Hobbit", "year": 1937, "published": Self.early], in: context)
            try LibraryModel.insert("Book", ["isbn": "2", "title": "the road", "year": 2006, "published": Self.late], in: context)
            try LibraryModel.insert("Book", ["isbn": "3", "title": "Ulysses", "year": 1922], in: context)
            try LibraryModel.insert("Book", ["isbn": "4", "title": "Beloved", "year": 1987, "subtitle": "A novel"], in: context)
            try LibraryModel.insert("Ebook", ["isbn": "5", "title": "The Martian", "year": 2011, "fileSize": 3], in: context)
            try context.save()
        }
        return stack
    }

    private func update(
        _ stack: TestStack,
        entity: String = "Book",
        _ predicate: FetchPredicate?,
        _ values: [AnyHashable: Any],
        subentities: Bool = true,
        resultType: BatchUpdateRequestResultType = .updatedObjectIDsResultType
    ) throws -> BatchUpdateResult {
        let request = BatchUpdateRequest(entityName: entity)
        request.predicate = predicate
        request.propertiesToUpdate = values
        request.includesSubentities = subentities
        request.resultType = resultType
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait { try #require(try context.execute(request) as? BatchUpdateResult) }
    }

    private func titles(where predicate: String, in stack: TestStack) throws -> [String] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: predicate)
            return try context.fetch(request).map { $0.value(forKey: "title") as! String }.sorted()
        }
    }

    @Test(
        "predicates on strings, numbers, dates and nil select the rows updated",
        arguments: StoreKind.allCases
    )
    func predicates(store: StoreKind) throws {
        let stack = try library(store)
        let byString = try update(stack, FetchPredicate(format: "title BEGINSWITH[c] %@", "the"), ["subtitle": "T"])
        #expect((byString.result as? [ManagedObjectID])?.count == 3)
        #expect(try titles(where: "subtitle == 'T'", in: stack) == ["The Hobbit", "The Martian", "the road"])

        _ = try update(stack, FetchPredicate(format: "year < %d", 1950), ["price": 1])
        #expect(try titles(where: "price == 1", in: stack) == ["The Hobbit", "Ulysses"])

        _ = try update(stack, FetchPredicate(format: "published > %@", Self.early as NSDate), ["year": Int16(2000)])
        #expect(try titles(where: "year == 2000", in: stack) == ["the road"])

        let cleared = try update(stack, FetchPredicate(format: "published == nil"), ["subtitle": NSNull(), "published": Self.late])
        #expect((cleared.result as? [ManagedObjectID])?.count == 3)
        #expect(try titles(where: "subtitle == nil", in: stack) == ["Beloved", "The Martian", "Ulysses"])
        #expect(try titles(where: "published == %@", in: stack, Self.late) == ["Beloved", "The Martian", "Ulysses", "the road"])
    }

    private func titles(where predicate: String, in stack: TestStack, _ argument: Date) throws -> [String] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: predicate, argument as NSDate)
            return try context.fetch(request).map { $0.value(forKey: "title") as! String }.sorted()
        }
    }

    @Test("result types, attribute descriptions as keys, and includesSubentities", arguments: StoreKind.allCases)
    func resultTypesAndSubentities(store: StoreKind) throws {
        let stack = try library(store)
        let price = try #require(stack.container.managedObjectModel.entitiesByName["Book"]?.attributesByName["price"])
        let status = try update(stack, nil, [price: 2.5], subentities: false, resultType: .statusOnlyResultType)
        #expect(status.result as? Bool == true)
        #expect(try titles(where: "price == 2.5", in: stack) == ["Beloved", "The Hobbit", "Ulysses", "the road"])
        let counted = try update(stack, nil, ["price": 4.0], resultType: .updatedObjectsCountResultType)
        #expect(counted.result as? Int == 5)
        #expect(try titles(where: "price == 4", in: stack).count == 5)
        let ebooks = try update(stack, entity: "Ebook", nil, ["fileSize": 7])
        #expect((ebooks.result as? [ManagedObjectID])?.map(\.entityName) == ["Ebook"])
    }

    @Test("updated rows get a new version: a context that read them meets a conflict when it saves", arguments: StoreKind.allCases)
    func versionBump(store: StoreKind) throws {
        let stack = try library(store)
        let reader = stack.container.newBackgroundContext()
        let book = try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = FetchPredicate(format: "isbn == '3'")
            return try #require(try reader.fetch(request).first)
        }
        _ = try update(stack, FetchPredicate(format: "isbn == '3'"), ["title": "Ulysses (1922)"])
        let error = try reader.performAndWait {
            book.setValue("Ulysses, annotated", forKey: "subtitle")
            return try #require(throws: ObjectGraphError.self) { try reader.save() }
        }
        #expect(error.code == .managedObjectMerge)
        #expect(try titles(where: "isbn == '3'", in: stack) == ["Ulysses (1922)"])
    }

    @Test("a value breaking a uniqueness constraint throws and writes nothing; bad keys and values throw", arguments: StoreKind.allCases)
    func refusals(store: StoreKind) throws {
        let stack = try library(store)
        let conflict = try #require(throws: ObjectGraphError.self) { try update(stack, nil, ["isbn": "same", "title": "Same"]) }
        #expect(conflict.code == .constraintConflict)
        #expect(try titles(where: "title == 'Same'", in: stack).isEmpty)
        let unknown = try #require(throws: ObjectGraphError.self) { try update(stack, nil, ["colour": "red"]) }
        #expect(unknown.code == .unknownKey && unknown.message.contains("colour"))
        let wrongType = try #require(throws: ObjectGraphError.self) { try update(stack, nil, ["year": "1999"]) }
        #expect(wrongType.code == .typeMismatch && wrongType.message.contains("Book.year"))
        let required = try #require(throws: ObjectGraphError.self) { try update(stack, nil, ["title": NSNull()]) }
        #expect(required.message.contains("title"))
        #expect(try titles(where: "TRUEPREDICATE", in: stack).count == 5)
    }

    @Test("merged into a context, the updates move rows and sections of a live controller", arguments: StoreKind.allCases)
    func mergeIntoController(store: StoreKind) throws {
        let live = try LiveItems(store, items: [("a", "A", 1), ("b", "A", 2), ("c", "B", 1), ("d", "C", 5)])
        let request = BatchUpdateRequest(entityName: "Item")
        request.predicate = FetchPredicate(format: "name IN %@", ["a", "d"])
        request.propertiesToUpdate = ["group": "B", "rank": 0]
        request.resultType = .updatedObjectIDsResultType
        let batches = try live.runAndMerge(request) { [UpdatedObjectsKey: ($0 as! BatchUpdateResult).result as! [ManagedObjectID]] }
        #expect(Set(batches.flatMap(\.objects).map(\.id)) == Set(try live.ids(["a", "d"])))
        #expect(batches.flatMap(\.sections).map(\.name) == ["C"])
        let live2 = try LiveItems(store, items: [("x", "X", 1), ("y", "Y", 2)])
        let noteOnly = BatchUpdateRequest(entityName: "Item")
        noteOnly.propertiesToUpdate = ["note": "seen"]
        let updates = try live2.runAndMerge(noteOnly) { $0 is BatchUpdateResult ? ($0 as! BatchUpdateResult).changes : [:] }
        #expect(updates.flatMap(\.objects).map(\.type) == [.update, .update])
    }
}
