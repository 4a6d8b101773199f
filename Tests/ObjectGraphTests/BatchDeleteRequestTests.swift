import Foundation
import ObjectGraph
import Testing

@Suite("Batch delete requests")
struct BatchDeleteRequestTests {
    /// Two shelves; "fiction" holds two books with two chapters of two notes each; a tagged
    /// book read by a fan; "poetry" holds one book. Returns the IDs by name.
    private func library(_ store: StoreKind) throws -> (TestStack, [String: ManagedObjectID]) {
        let stack = try LibraryModel.stack(store)
        let context = stack.container.newBackgroundContext()
        let ids = try context.performAndWait {
            var objects: [String: ManagedObject] = [:]
            let fiction = try LibraryModel.insert("Shelf", ["name": "fiction"], in: context)
            let poetry = try LibraryModel.insert("Shelf", ["name": "poetry"], in: context)
            objects["fiction"] = fiction
            objects["poetry"] = poetry
            for name in ["dune", "emma"] {
                let book = try LibraryModel.insert("Book", ["title": name, "isbn": name, "shelf": fiction], in: context)
                objects[name] = book
                for c in 1...2 {
                    let chapter = try LibraryModel.insert("Chapter", ["title": "\(name)-\(c)", "book": book], in: context)
                    objects["\(name)-\(c)"] = chapter
                    for n in 1...2 {
                        objects["\(name)-\(c)-\(n)"] = try LibraryModel.insert(
                            "Note",
                            ["text": "\(name)-\(c)-\(n)", "chapter": chapter],
                            in: context
                        )
                    }
                }
            }
            let odes = try LibraryModel.insert("Book", ["title": "odes", "isbn": "odes", "shelf": poetry], in: context)
            objects["odes"] = odes
            let tag = try LibraryModel.insert("Tag", ["name": "classic"], in: context)
            objects["classic"] = tag
            try tag.addObject(objects["dune"]!, toRelationship: "books")
            try tag.addObject(odes, toRelationship: "books")
            objects["fan"] = try LibraryModel.insert("Reader", ["name": "fan", "favourite": objects["emma"]!], in: context)
            try context.save()
            return objects.mapValues(\.objectID)
        }
        return (stack, ids)
    }

    private func execute(_ request: BatchDeleteRequest, in stack: TestStack) throws -> BatchDeleteResult {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait { try #require(try context.execute(request) as? BatchDeleteResult) }
    }

    private func shelfRequest(_ name: String) -> FetchRequest<FetchRequestResult> {
        let fetch = FetchRequest<FetchRequestResult>(entityName: "Shelf")
        fetch.predicate = FetchPredicate(format: "name == %@", name)
        return fetch
    }

    @Test("cascade reaches every level; nullified rows on both sides agree; the IDs include the cascade", arguments: StoreKind.allCases)
    func cascadeAndNullify(store: StoreKind) throws {
        let (stack, ids) = try library(store)
        let request = BatchDeleteRequest(fetchRequest: shelfRequest("fiction"))
        request.resultType = .resultTypeObjectIDs
        let result = try execute(request, in: stack)
        let deleted = try #require(result.result as? [ManagedObjectID])
        let expected =
            ["fiction", "dune", "emma"] + ["dune", "emma"].flatMap { b in [1, 2].flatMap { c in ["\(b)-\(c)", "\(b)-\(c)-1", "\(b)-\(c)-2"] } }
        #expect(Set(deleted) == Set(expected.map { ids[$0]! }) && deleted.count == expected.count)
        #expect(deleted.first == ids["fiction"])
        #expect(try LibraryModel.all("Shelf", in: stack) { $0.value(forKey: "name") as! String } == ["poetry"])
        #expect(try LibraryModel.all("Book", in: stack) { $0.value(forKey: "title") as! String } == ["odes"])
        #expect(try LibraryModel.count("Chapter", in: stack) == 0 && LibraryModel.count("Note", in: stack) == 0)
        // The fan's to-one and the tag's to-many no longer reach the deleted books.
        #expect(try LibraryModel.all("Reader", in: stack) { "\($0.value(forKey: "favourite") == nil)" } == ["true"])
        #expect(
            try LibraryModel.all("Tag", in: stack) {
                ($0.value(forKey: "books") as! Set<ManagedObject>).map(\.objectID) == [ids["odes"]!] ? "odes" : "?"
            } == ["odes"]
        )
        #expect(Set(result.changes[UpdatedObjectsKey] as! [ManagedObjectID]) == [ids["fan"]!, ids["classic"]!])
    }

    @Test("nullified rows get a new version: a context that read them meets a conflict", arguments: StoreKind.allCases)
    func nullifyBumpsVersions(store: StoreKind) throws {
        let (stack, ids) = try library(store)
        let reader = stack.container.newBackgroundContext()
        let fan = try reader.performAndWait { try reader.existingObject(with: ids["fan"]!) }
        _ = try execute(BatchDeleteRequest(objectIDs: [ids["emma"]!]), in: stack)
        let error = try reader.performAndWait {
            fan.setValue("renamed", forKey: "name")
            return try #require(throws: ObjectGraphError.self) { try reader.save() }
        }
        #expect(error.code == .managedObjectMerge)
    }

    @Test("a deny rule refuses the whole delete, naming entity, relationship and object; nothing is deleted", arguments: StoreKind.allCases)
    func deny(store: StoreKind) throws {
        let (stack, ids) = try library(store)
        let context = stack.container.newBackgroundContext()
        let loan = try context.performAndWait {
            let book = try context.existingObject(with: ids["emma"]!)
            let loan = try LibraryModel.insert("Loan", ["borrower": "ann", "book": book], in: context)
            try context.save()
            return loan.objectID
        }
        let error = try #require(throws: ObjectGraphError.self) { try execute(BatchDeleteRequest(fetchRequest: shelfRequest("fiction")), in: stack) }
        #expect(error.code == .validationRelationshipDeniedDelete)
        #expect(error.message.contains("Book.loans") && error.message.contains("\(loan)"), "\(error)")
        #expect(try LibraryModel.count("Book", in: stack) == 3 && LibraryModel.count("Note", in: stack) == 8)
        #expect(try LibraryModel.all("Reader", in: stack) { "\($0.value(forKey: "favourite") == nil)" } == ["false"])
    }

    @Test("delete by IDs and by a predicate fetch request; result types", arguments: StoreKind.allCases)
    func byIDsAndPredicate(store: StoreKind) throws {
        let (stack, ids) = try library(store)
        let byIDs = BatchDeleteRequest(objectIDs: [ids["dune-1-1"]!, ids["dune-1-2"]!])
        byIDs.resultType = .resultTypeCount
        #expect(try execute(byIDs, in: stack).result as? Int == 2)
        let fetch = FetchRequest<FetchRequestResult>(entityName: "Note")
        fetch.predicate = FetchPredicate(format: "text ENDSWITH '-2' AND chapter.book.title == 'emma'")
        let byPredicate = BatchDeleteRequest(fetchRequest: fetch)
        #expect(try execute(byPredicate, in: stack).result as? Bool == true)
        #expect(try LibraryModel.all("Note", in: stack) { $0.value(forKey: "text") as! String } == ["dune-2-1", "dune-2-2", "emma-1-1", "emma-2-1"])
        let mixed = BatchDeleteRequest(objectIDs: [ids["dune"]!, ids["fan"]!])
        #expect(throws: ObjectGraphError.self) { try execute(mixed, in: stack) }
    }

    // SQLite only: it records the statements SQLite runs (SQLRecordingStack traces the file's
    // connection); on PostgreSQL one transaction is what `failedBatchLeavesNothing` shows.
    @Test("a batch delete is one write transaction that reads no rows into a context")
    func oneTransaction() throws {
        let stack = try SQLRecordingStack(model: LibraryModel.make())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let shelf = try LibraryModel.insert("Shelf", ["name": "s"], in: context)
            for index in 0..<20 { try LibraryModel.insert("Book", ["title": "b\(index)", "shelf": shelf], in: context) }
            try context.save()
        }
        let request = BatchDeleteRequest(fetchRequest: FetchRequest<FetchRequestResult>(entityName: "Shelf"))
        request.resultType = .resultTypeCount
        var result: PersistentStoreResult?
        let statements = try stack.recording {
            result = try context.performAndWait { try context.execute(request) }
        }
        #expect((result as? BatchDeleteResult)?.result as? Int == 21)
        #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1, "\(statements)")
        #expect(statements.filter { $0.hasPrefix("COMMIT") }.count == 1)
        #expect(!statements.contains { $0.hasPrefix("SELECT Z_PK, Z_ENT, Z_OPT") }, "no object's row is read")
        #expect(try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Book")) } == 0)
    }

    @Test("deleting members of an ordered to-many keeps the order of the others", arguments: StoreKind.allCases)
    func orderedMembers(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let context = stack.container.newBackgroundContext()
        let (book, chapters) = try context.performAndWait {
            let book = try LibraryModel.insert("Book", ["title": "ordered"], in: context)
            let chapters = try ["one", "two", "three", "four"].map { try LibraryModel.insert("Chapter", ["title": $0], in: context) }
            try book.setCheckedValue(Array(chapters.reversed()), forKey: "chapters")
            try context.save()
            return (book.objectID, chapters.map(\.objectID))
        }
        func titles() throws -> [String] {
            let fresh = stack.container.newBackgroundContext()
            return try fresh.performAndWait {
                let members = try fresh.existingObject(with: book).value(forKey: "chapters") as? [ManagedObject] ?? []
                return members.map { $0.value(forKey: "title") as? String ?? "?" }
            }
        }
        #expect(try titles() == ["four", "three", "two", "one"])
        _ = try execute(BatchDeleteRequest(objectIDs: [chapters[1], chapters[3]]), in: stack)
        #expect(try titles() == ["three", "one"])  // "four" and "two" deleted
    }

    @Test("merged into a context, the deletes leave a live controller and related loaded objects", arguments: StoreKind.allCases)
    func mergeIntoController(store: StoreKind) throws {
        let live = try LiveItems(store, items: [("a", "A", 1), ("b", "A", 2), ("c", "B", 1), ("d", "C", 5)])
        // An owner, loaded in the live context with its items, whose items the delete removes.
        let owner = try live.context.performAndWait {
            let owner = Owner(context: live.context)
            owner.name = "o"
            for item in try live.context.fetch(Item.fetchRequest()) where ["b", "c"].contains(item.name) { item.owner = owner }
            try live.context.save()
            #expect(owner.items.count == 2)
            return owner
        }
        _ = live.context.performAndWait { live.recorder.drain() }
        let fetch = FetchRequest<FetchRequestResult>(entityName: "Item")
        fetch.predicate = FetchPredicate(format: "name IN %@", ["a", "c"])
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        let doomed = try live.ids(["a", "c"])
        let batches = try live.runAndMerge(request) { [DeletedObjectsKey: ($0 as! BatchDeleteResult).result as! [ManagedObjectID]] }
        #expect(batches.flatMap(\.objects).filter { $0.type == .delete }.map(\.id).sorted { $0.primaryKey < $1.primaryKey } == doomed)
        #expect(batches.flatMap(\.sections).map(\.name) == ["B"])
        live.context.performAndWait {
            #expect(owner.items.map(\.name) == ["b"])
        }
    }
}
