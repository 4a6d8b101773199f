import Foundation
import ObjectGraph
import Testing

/// Attribute names real Core Data models use: common words Swift also uses, which Core Data
/// accepts because `NSManagedObject` and `NSObject` do not declare them.
private final class Ledger: ManagedObject {
    @Managed var type: String?
    @Managed var value: Double
    @Managed var name: String?
    @Managed var data: Data?
    @Managed var date: Date?
    @Managed var order: Int16
    @Managed var index: Int32
    @Managed var count: Int64
    @Managed var version: Int64
}

/// mogenerator's test model has `Child.type`; here the Swift accessor takes another name while
/// the model keeps `type`.
private final class Child: ManagedObject {
    @Managed("type") var kind: String?
    @Managed("hashValue") var storedHash: Int64
}

@Suite("Model property names")
struct ModelPropertyNameTests {
    private static let commonWords = ["type", "value", "name", "data", "date", "order", "index", "count", "version"]

    private static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Ledger", class: Ledger.self) {
                AttributeDescription("type", .string)
                AttributeDescription("value", .double, optional: false, defaultValue: 0.0)
                AttributeDescription("name", .string)
                AttributeDescription("data", .binaryData)
                AttributeDescription("date", .date)
                AttributeDescription("order", .integer16, optional: false, defaultValue: 0)
                AttributeDescription("index", .integer32, optional: false, defaultValue: 0)
                AttributeDescription("count", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("version", .integer64, optional: false, defaultValue: 1)
            }
            EntityDescription("Child", class: Child.self) {
                AttributeDescription("type", .string)
                AttributeDescription("hashValue", .integer64, optional: false, defaultValue: 0)
            }
        }
    }

    @Test("type, value, name, data, date, order, index, count and version are legal and round-trip, typed", arguments: StoreKind.allCases)
    func typedRoundTrip(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.model())
        let writer = stack.container.newBackgroundContext()
        let when = Date(timeIntervalSinceReferenceDate: 812_345_678.25)
        let ids = try writer.performAndWait {
            var ids: [ManagedObjectID] = []
            for number in 1...3 {
                let ledger = Ledger(context: writer)
                ledger.type = "kind \(number)"
                ledger.value = Double(number) + 0.5
                ledger.name = "ledger \(number)"
                ledger.data = Data([UInt8(number), 0, 255])
                ledger.date = when.addingTimeInterval(Double(number))
                ledger.order = Int16(10 - number)
                ledger.index = Int32(number * 100)
                ledger.count = Int64(number) * 1_000_000_000_000
                ledger.version = Int64(number + 1)
                ids.append(ledger.objectID)
            }
            let child = Child(context: writer)
            child.kind = "boy"
            child.storedHash = 42
            try writer.save()
            return ids
        }
        // A fresh context reads the rows back from the store.
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let request = Ledger.fetchRequest()
            request.predicate = FetchPredicate(format: "type != nil AND index >= %d AND count > 0 AND version > 1", 100)
            request.sortDescriptors = [FetchSortDescriptor(key: "order", ascending: true)]
            let ledgers = try reader.fetch(request)
            #expect(ledgers.map(\.objectID) == ids.reversed())
            for (offset, ledger) in ledgers.reversed().enumerated() {
                let number = offset + 1
                #expect(ledger.type == "kind \(number)")
                #expect(ledger.value == Double(number) + 0.5)
                #expect(ledger.name == "ledger \(number)")
                #expect(ledger.data == Data([UInt8(number), 0, 255]))
                #expect(ledger.date == when.addingTimeInterval(Double(number)))
                #expect(ledger.order == Int16(10 - number))
                #expect(ledger.index == Int32(number * 100))
                #expect(ledger.count == Int64(number) * 1_000_000_000_000)
                #expect(ledger.version == Int64(number + 1))
            }
            let children = try reader.fetch(Child.fetchRequest())
            #expect(children.map(\.kind) == ["boy"])
            #expect(children.map(\.storedHash) == [42])
            #expect(children.first?.value(forKey: "type") as? String == "boy")
            let boys = Child.fetchRequest()
            boys.predicate = FetchPredicate(format: "type == %@", "boy")
            #expect(try reader.count(for: boys) == 1)
        }
    }

    @Test("the same names round-trip through value(forKey:) and setValue(_:forKey:)", arguments: StoreKind.allCases)
    func dynamicRoundTrip(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.model())
        let writer = stack.container.newBackgroundContext()
        let values: [String: Any] = [
            "type": "receipt", "value": 12.25, "name": "café", "data": Data("bytes".utf8),
            "date": Date(timeIntervalSinceReferenceDate: 1000), "order": Int16(3), "index": Int32(7),
            "count": Int64(9), "version": Int64(2),
        ]
        let id = try writer.performAndWait {
            let object = try writer.insertObject(entityName: "Ledger")
            for (key, value) in values { try object.setCheckedValue(value, forKey: key) }
            try writer.save()
            return object.objectID
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let object = try reader.existingObject(with: id)
            #expect(object.value(forKey: "type") as? String == "receipt")
            #expect(object.value(forKey: "value") as? Double == 12.25)
            #expect(object.value(forKey: "name") as? String == "café")
            #expect(object.value(forKey: "data") as? Data == Data("bytes".utf8))
            #expect(object.value(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: 1000))
            #expect(object.value(forKey: "order") as? Int16 == 3)
            #expect(object.value(forKey: "index") as? Int32 == 7)
            #expect(object.value(forKey: "count") as? Int64 == 9)
            #expect(object.value(forKey: "version") as? Int64 == 2)
            #expect(object.value(forKeyPath: "type") as? String == "receipt")
            let dictionaries = FetchRequest<[String: Any]>(entityName: "Ledger")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = Self.commonWords
            let rows = try reader.fetch(dictionaries)
            #expect(rows.count == 1)
            #expect(Set(rows.first?.keys.map { $0 } ?? []) == Set(Self.commonWords))
        }
    }

    @Test("only names that clash with ManagedObject's own members are refused, each named")
    func reservedNames() throws {
        let reserved = [
            "description", "entity", "objectID", "isDeleted", "managedObjectContext", "isFault", "hasChanges", "self",
            "willSave", "awakeFromInsert",
        ]
        let thing = EntityDescription("Thing")
        thing.properties = (reserved + Self.commonWords).map { AttributeDescription($0, .string) }
        let model = ManagedObjectModel { thing }
        let error = try #require(throws: ManagedObjectModelError.self) { try model.validate() }
        let refused = Set(error.issues.compactMap(\.property))
        #expect(refused == Set(reserved))
        #expect(error.issues.allSatisfy { $0.message.contains("ManagedObject") })
    }

    @Test("names Core Data loads are legal: deleted, inserted, updated, fault, hash, class, superclass")
    func coreDataNamesLoad() throws {
        let names = ["deleted", "inserted", "updated", "fault", "hash", "class", "superclass", "copy", "zone"]
        let note = EntityDescription("Note")
        note.properties = names.map { AttributeDescription($0, .boolean, optional: false, defaultValue: false) }
        let model = ManagedObjectModel { note }
        try model.validate()
        #expect(model.entities[0].attributesByName.keys.sorted() == names.sorted())
    }

    @Test("Simplenote's Note.deleted round-trips through a store, beside isDeleted", arguments: StoreKind.allCases)
    func deletedRoundTrip(store: StoreKind) throws {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("content", .string)
                AttributeDescription("deleted", .boolean, optional: false, defaultValue: false)
            }
        }
        let stack = try TestStack(store, model: model)
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let trashed = try writer.insertObject(entityName: "Note")
            trashed.setValue("in the trash", forKey: "content")
            trashed.setValue(true, forKey: "deleted")
            let kept = try writer.insertObject(entityName: "Note")
            kept.setValue("kept", forKey: "content")
            try writer.save()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let trashed = FetchRequest<ManagedObject>(entityName: "Note")
            trashed.predicate = FetchPredicate(format: "deleted == YES")
            let notes = try reader.fetch(trashed)
            #expect(notes.map { $0.value(forKey: "content") as? String } == ["in the trash"])
            #expect(notes.first?.value(forKey: "deleted") as? Bool == true)
            #expect(notes.first?.isDeleted == false)
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == 2)
        }
    }
}
