import Foundation
import ObjectGraph
import Testing

/// What a batch insert into an entity with uniqueness constraints does, on every store kind: an
/// object whose constrained values a stored row has — or a row inserted earlier in the same
/// batch has — updates that row with the values it gave; constraints are tried in order, the
/// first that finds a row wins; a constraint with a `nil` value never matches.
@Suite("Batch insert requests: upserts")
struct BatchInsertUpsertTests {
    /// A model with one entity, `Keyed`: `key` of `type` (unique), `payload` and `note`.
    static func keyedModel(_ type: AttributeType) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Keyed") {
                AttributeDescription("key", type)
                AttributeDescription("payload", .string)
                AttributeDescription("note", .string)
            }
            .unique("key")
        }
    }

    /// `Member`: `code` then `email` unique, each alone (`email` defaults to "nobody").
    static func memberModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Member") {
                AttributeDescription("code", .integer64)
                AttributeDescription("email", .string, defaultValue: "nobody")
                AttributeDescription("name", .string)
            }
            .unique("code")
            .unique("email")
        }
    }

    /// `Slot`: `shelf` and `position` unique together; `code` unique alone; all optional.
    static func slotModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Slot") {
                AttributeDescription("shelf", .string)
                AttributeDescription("position", .integer32)
                AttributeDescription("code", .integer64)
                AttributeDescription("title", .string)
            }
            .unique("shelf", "position")
            .unique("code")
        }
    }

    /// Saves one object of `entity` per element of `objects` in a context; their IDs in order.
    static func store(_ entity: String, _ objects: [[String: Any]], in stack: TestStack) throws -> [ManagedObjectID] {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let inserted = try objects.map { try LibraryModel.insert(entity, $0, in: context) }
            try context.save()
            return inserted.map(\.objectID)
        }
    }

    /// Runs a batch insert of `objects` into `entity`: the IDs in order, and the inserted and
    /// updated IDs of its changes.
    static func upsert(
        _ entity: String,
        _ objects: [[String: Any]],
        in stack: TestStack
    ) throws -> (ids: [ManagedObjectID], inserted: [ManagedObjectID], updated: [ManagedObjectID]) {
        let request = BatchInsertRequest(entityName: entity, objects: objects)
        request.resultType = .objectIDs
        let context = stack.container.newBackgroundContext()
        let result = try context.performAndWait { try #require(try context.execute(request) as? BatchInsertResult) }
        return (
            try #require(result.result as? [ManagedObjectID]),
            try #require(result.changes[InsertedObjectsKey] as? [ManagedObjectID]),
            try #require(result.changes[UpdatedObjectsKey] as? [ManagedObjectID])
        )
    }

    /// Three distinct values per constrainable attribute type (two for booleans).
    static func values(_ type: AttributeType) -> [Any] {
        switch type {
        case .string: ["a", "\u{E9}", "a "]
        case .boolean: [false, true]
        case .integer16: [Int16(-3), Int16(7), Int16.max]
        case .integer32: [Int32(-70_000), Int32(5), Int32.max]
        case .integer64: [Int64.min, Int64(0), Int64.max]
        case .double: [-1.5, 0.1, 1e300]
        case .float: [Float(0.1), Float(-2.5), Float(3e38)]
        case .decimal: [Decimal(string: "1.25")!, Decimal(string: "-99999999999.000001")!, Decimal(0)]
        case .date: [Date(timeIntervalSinceReferenceDate: 0.5), Date(timeIntervalSinceReferenceDate: -1e9), Date(timeIntervalSinceReferenceDate: 7e8)]
        case .binaryData: [Data([0]), Data([0, 1]), Data([0xFF, 0, 0x7F])]
        case .uuid:
            [
                UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, UUID(uuidString: "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")!,
                UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000000")!,
            ]
        case .uri: [URL(string: "https://a.example/x")!, URL(string: "https://a.example/x?y=1")!, URL(string: "file:///tmp/z")!]
        case .transformable: []
        }
    }

    static let constrainedTypes: [AttributeType] = [
        .string, .boolean, .integer16, .integer32, .integer64, .double, .float, .decimal, .date, .binaryData, .uuid, .uri,
    ]

    @Test("a constrained attribute of every type finds stored rows and rows inserted earlier in the batch", arguments: StoreKind.allCases, constrainedTypes)
    func everyConstrainedType(store: StoreKind, type: AttributeType) throws {
        let stack = try TestStack(store, model: Self.keyedModel(type))
        let values = Self.values(type)
        let stored = try Self.store("Keyed", [["key": values[0], "payload": "stored 0"], ["key": values[1], "payload": "stored 1", "note": "kept"]], in: stack)
        var objects: [[String: Any]] = [["key": values[1], "payload": "batch 1"], ["key": values[0], "payload": "batch 0"]]
        if values.count > 2 {
            objects.insert(["key": values[2], "payload": "new", "note": "first"], at: 1)
            objects.append(["key": values[2], "payload": "new again"])
        }
        let (ids, inserted, updated) = try Self.upsert("Keyed", objects, in: stack)
        let rows = try LibraryModel.all("Keyed", in: stack) { "\($0.value(forKey: "payload")!) \($0.value(forKey: "note") ?? "-")" }
        if values.count > 2 {
            #expect(ids.count == 4 && ids[0] == stored[1] && ids[2] == stored[0] && ids[3] == ids[1] && !stored.contains(ids[1]))
            #expect(inserted == [ids[1]] && updated == [stored[1], stored[0], ids[1]])
            #expect(rows == ["batch 0 -", "batch 1 kept", "new again first"])
        } else {
            #expect(ids == [stored[1], stored[0]] && inserted.isEmpty && updated == [stored[1], stored[0]])
            #expect(rows == ["batch 0 -", "batch 1 kept"])
        }
    }

    @Test("duplicates within one batch: the first inserts, later ones update it; each writes only the values it gives", arguments: StoreKind.allCases)
    func duplicatesInOneBatch(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.keyedModel(.string))
        let (ids, inserted, updated) = try Self.upsert(
            "Keyed",
            [
                ["key": "a", "payload": "1", "note": "x"], ["key": "b", "payload": "only"], ["key": "a", "payload": "2"],
                ["key": "a", "note": "z"],
            ],
            in: stack
        )
        #expect(ids.count == 4 && ids[0] == ids[2] && ids[0] == ids[3] && ids[0] != ids[1])
        #expect(inserted == [ids[0], ids[1]] && updated == [ids[0], ids[0]])
        let rows = try LibraryModel.all("Keyed", in: stack) { "\($0.value(forKey: "key")!) \($0.value(forKey: "payload")!) \($0.value(forKey: "note") ?? "-")" }
        #expect(rows == ["a 2 z", "b only -"])
    }

    @Test(
        "several constraints: tried in order, the first that finds a row wins; an update's new values are what later objects find",
        arguments: StoreKind.allCases
    )
    func severalConstraints(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.memberModel())
        let stored = try Self.store(
            "Member",
            [["code": 1, "email": "r", "name": "R"], ["code": 2, "name": "S"], ["code": 3, "email": "t", "name": "T"]],
            in: stack
        )
        let (ids, inserted, updated) = try Self.upsert(
            "Member",
            [
                // code 1 is R's; the default email ("nobody") is S's: code comes first, R updates.
                ["code": 1, "name": "R2"],
                // No code 9 yet; email t is T's: T's code becomes 9.
                ["code": 9, "email": "t", "name": "T2"],
                // Code 3 was T's until the object before: nobody has it now, nor email x.
                ["code": 3, "email": "x", "name": "New"],
                // Code 9 is T's now.
                ["code": 9, "name": "T3"],
            ],
            in: stack
        )
        #expect(ids.count == 4 && ids[0] == stored[0] && ids[1] == stored[2] && ids[3] == stored[2] && !stored.contains(ids[2]))
        #expect(inserted == [ids[2]] && updated == [stored[0], stored[2], stored[2]])
        let rows = try LibraryModel.all("Member", in: stack) { "\($0.value(forKey: "code")!) \($0.value(forKey: "email")!) \($0.value(forKey: "name")!)" }
        #expect(rows == ["1 r R2", "2 nobody S", "3 x New", "9 t T3"])
    }

    @Test("a compound constraint matches only when every value is equal", arguments: StoreKind.allCases)
    func compoundConstraint(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.slotModel())
        let stored = try Self.store("Slot", [["shelf": "A", "position": 1, "title": "a1"], ["shelf": "A", "position": 2, "title": "a2"]], in: stack)
        let (ids, inserted, updated) = try Self.upsert(
            "Slot",
            [
                ["shelf": "A", "position": 2, "title": "x"], ["shelf": "B", "position": 1, "title": "b"],
                ["shelf": "A", "position": 3, "title": "c"], ["shelf": "B", "position": 1, "title": "b2"],
            ],
            in: stack
        )
        #expect(ids.count == 4 && ids[0] == stored[1] && ids[3] == ids[1] && Set(ids + stored).count == 4)
        #expect(inserted == [ids[1], ids[2]] && updated == [stored[1], ids[1]])
        let rows = try LibraryModel.all("Slot", in: stack) { "\($0.value(forKey: "shelf")!) \($0.value(forKey: "position")!) \($0.value(forKey: "title")!)" }
        #expect(rows == ["A 1 a1", "A 2 x", "A 3 c", "B 1 b2"])
    }

    @Test("a nil constrained value never matches, alone or in a compound constraint", arguments: StoreKind.allCases)
    func nilConstrainedValues(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.slotModel())
        let stored = try Self.store("Slot", [["shelf": "A", "title": "stored"]], in: stack)
        let (ids, inserted, updated) = try Self.upsert(
            "Slot",
            [
                ["title": "1"], ["title": "2"], ["shelf": "A", "title": "3"], ["shelf": "A", "code": 5, "title": "4"],
                ["code": 5, "title": "5"], ["shelf": "A", "position": 0, "title": "6"], ["position": 0, "title": "7"],
            ],
            in: stack
        )
        #expect(ids.count == 7 && Set(ids[0..<4] + stored).count == 5 && ids[4] == ids[3])
        #expect(Set(ids[5..<7] + ids[0..<4] + stored).count == 7)
        #expect(inserted == [ids[0], ids[1], ids[2], ids[3], ids[5], ids[6]] && updated == [ids[3]])
        let rows = try LibraryModel.all("Slot", in: stack) {
            "\($0.value(forKey: "shelf") ?? "-") \($0.value(forKey: "position") ?? "-") \($0.value(forKey: "code") ?? "-") \($0.value(forKey: "title")!)"
        }
        #expect(rows == ["- - - 1", "- - - 2", "- 0 - 7", "A - - 3", "A - - stored", "A - 5 5", "A 0 - 6"])
    }

    /// `Keyed2`: `key` (optional) and `slug` unique, each alone.
    static func twoKeyModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Keyed") {
                AttributeDescription("key", .integer64)
                AttributeDescription("slug", .string)
                AttributeDescription("payload", .string)
            }
            .unique("key")
            .unique("slug")
        }
    }

    @Test("2,602 objects, half stored already, found by either constraint, with duplicates across the whole batch", arguments: StoreKind.allCases)
    func largeMixedBatch(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.twoKeyModel())
        let storedKeys = Array(stride(from: 0, to: 2600, by: 2))
        let stored = try Self.store("Keyed", storedKeys.map { ["key": $0, "slug": "s\($0)", "payload": "stored"] }, in: stack)
        var objects: [[String: Any]] = (0..<2600).map { key in
            // Every fourth object gives no key: its slug finds the stored row.
            key % 4 == 0 ? ["slug": "s\(key)", "payload": "p\(key)"] : ["key": key, "slug": "s\(key)", "payload": "p\(key)"]
        }
        objects.append(["key": 1, "payload": "last of 1"])
        objects.append(["slug": "s2598", "payload": "last of 2598"])
        let (ids, inserted, updated) = try Self.upsert("Keyed", objects, in: stack)
        #expect(ids.count == 2602)
        #expect((0..<1300).allSatisfy { ids[2 * $0] == stored[$0] })
        let new = (0..<1300).map { ids[2 * $0 + 1] }
        #expect(Set(new).count == 1300 && Set(new).isDisjoint(with: stored))
        #expect(ids[2600] == ids[1] && ids[2601] == stored[1299])
        #expect(inserted == new)
        #expect(updated == stored + [ids[1], stored[1299]])
        let rows = try LibraryModel.all("Keyed", in: stack) { "\($0.value(forKey: "key") ?? "-") \($0.value(forKey: "slug") ?? "-") \($0.value(forKey: "payload")!)" }
        var expected = (0..<2600).map { "\($0) s\($0) p\($0)" }
        expected[1] = "1 s1 last of 1"
        expected[2598] = "2598 s2598 last of 2598"
        #expect(rows == expected.sorted())
    }

    @Test("a zero double finds a stored negative zero; text differing in case or a trailing space does not match", arguments: StoreKind.allCases)
    func storedEquality(store: StoreKind) throws {
        let doubles = try TestStack(store, model: Self.keyedModel(.double))
        let zero = try Self.store("Keyed", [["key": -0.0, "payload": "stored"]], in: doubles)
        let (ids, inserted, _) = try Self.upsert("Keyed", [["key": 0.0, "payload": "batch"], ["key": -0.0, "note": "again"]], in: doubles)
        #expect(ids == [zero[0], zero[0]] && inserted.isEmpty)
        #expect(try LibraryModel.all("Keyed", in: doubles) { "\($0.value(forKey: "payload")!) \($0.value(forKey: "note")!)" } == ["batch again"])

        let strings = try TestStack(store, model: Self.keyedModel(.string))
        let stored = try Self.store("Keyed", [["key": "\u{E9}", "payload": "precomposed"], ["key": "a", "payload": "a"]], in: strings)
        let (textIDs, textInserted, _) = try Self.upsert(
            "Keyed",
            [["key": "A", "payload": "capital"], ["key": "a ", "payload": "space"], ["key": "\u{E9}", "note": "x"]],
            in: strings
        )
        #expect(textInserted == Array(textIDs[0..<2]) && Set(textInserted).isDisjoint(with: stored) && textIDs[2] == stored[0])
        #expect(try LibraryModel.count("Keyed", in: strings) == 4)
    }

    @Test("an entity's constraint inherited from its parent finds the parent's rows, which stay the parent's", arguments: StoreKind.allCases)
    func inheritedConstraint(store: StoreKind) throws {
        let stack = try LibraryModel.stack(store)
        let book = try Self.store("Book", [["isbn": "A", "title": "Old"]], in: stack)
        let (ids, inserted, updated) = try Self.upsert("Ebook", [["isbn": "A", "title": "New"], ["isbn": "E", "title": "E-only", "fileSize": 7], ["isbn": "E", "title": "E-only", "fileSize": 8]], in: stack)
        #expect(ids[0] == book[0] && ids[0].entityName == "Book" && ids[1].entityName == "Ebook" && ids[2] == ids[1])
        #expect(inserted == [ids[1]] && updated == [book[0], ids[1]])
        #expect(try LibraryModel.all("Book", in: stack) { "\($0.entity.name) \($0.value(forKey: "isbn")!) \($0.value(forKey: "title")!)" } == ["Book A New", "Ebook E E-only"])
        #expect(try LibraryModel.all("Ebook", in: stack) { "\($0.value(forKey: "fileSize")!)" } == ["8"])
    }

    @Test(
        "2,600 objects where one changes a stored row's constrained value: later objects, in this chunk and the next, see the change",
        arguments: StoreKind.allCases
    )
    func changedConstrainedValueInLargeBatch(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.twoKeyModel())
        let stored = try Self.store("Keyed", (0..<2_500).map { ["key": $0, "slug": "s\($0)", "payload": "stored"] }, in: stack)
        var objects: [[String: Any]] = (0..<2_000).map { ["key": $0, "payload": "p\($0)"] }
        // The slug finds row 5; its key becomes 9,000.
        objects.append(["slug": "s5", "key": 9_000, "payload": "moved"])
        // Key 5 is nobody's now: a new row. Key 9,000 is row 5's.
        objects.append(["key": 5, "slug": "n5", "payload": "new 5"])
        objects.append(["key": 9_000, "payload": "moved again"])
        objects += (2_003..<2_600).map { ["key": $0, "payload": "p\($0)"] }
        objects.append(["slug": "n5", "payload": "new 5 again"])
        let (ids, inserted, updated) = try Self.upsert("Keyed", objects, in: stack)
        #expect(ids.count == 2_601)
        #expect(Array(ids[0..<2_000]) == Array(stored[0..<2_000]) && ids[2_000] == stored[5] && ids[2_002] == stored[5])
        #expect(Array(ids[2_003..<2_500]) == Array(stored[2_003..<2_500]))
        let new = [ids[2_001]] + Array(ids[2_500..<2_600])
        #expect(Set(new).count == 101 && Set(new).isDisjoint(with: stored) && ids[2_600] == ids[2_001])
        #expect(inserted == new && updated.count == 2_500)
        let rows = try LibraryModel.all("Keyed", in: stack) { "\($0.value(forKey: "key")!) \($0.value(forKey: "slug") ?? "-") \($0.value(forKey: "payload")!)" }
        var expected = (0..<2_600).map { "\($0) s\($0) p\($0)" }
        expected[5] = "5 n5 new 5 again"
        expected.append("9000 s5 moved again")
        for key in 2_000..<2_003 { expected[key] = "\(key) s\(key) stored" }
        for key in 2_500..<2_600 { expected[key] = "\(key) - p\(key)" }
        #expect(rows == expected.sorted())
    }
}
