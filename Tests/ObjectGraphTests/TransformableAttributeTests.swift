import Foundation
import ObjectGraph
import Testing

/// A colour as an app would keep it, stored by its transformer as "#rrggbb".
private struct Colour: Equatable {
    var red, green, blue: UInt8
}

private struct NotAColour: Error {}

private struct HexColourTransformer: AttributeValueTransformer {
    func transformedValue(_ value: Any) throws -> Data {
        guard let colour = value as? Colour else { throw NotAColour() }
        return Data(String(format: "#%02x%02x%02x", colour.red, colour.green, colour.blue).utf8)
    }

    func reverseTransformedValue(_ data: Data) throws -> Any {
        let hex = String(decoding: data.dropFirst(), as: UTF8.self)
        guard hex.count == 6, let number = UInt32(hex, radix: 16) else { throw NotAColour() }
        return Colour(red: UInt8(number >> 16), green: UInt8((number >> 8) & 0xFF), blue: UInt8(number & 0xFF))
    }
}

@Suite("Transformable attributes")
struct TransformableAttributeTests {
    /// A model whose `Swatch.colour` names `transformerName`, and whose `archive` names Core
    /// Data's secure-unarchiving transformer and `blob` none, as Xcode writes them.
    private static func model(transformerName: String) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Swatch") {
                AttributeDescription("colour", .transformable, valueTransformerName: transformerName)
                AttributeDescription("archive", .transformable, valueTransformerName: "NSSecureUnarchiveFromData")
                AttributeDescription("blob", .transformable)
            }
        }
    }

    @Test("unnamed and unregistered transformers store and return Data", arguments: StoreKind.allCases)
    func rawData(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.model(transformerName: "Unregistered-\(UUID())"))
        let writer = stack.container.newBackgroundContext()
        let archived = Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30])  // "bplist00"
        let id = try writer.performAndWait {
            let swatch = try writer.insertObject(entityName: "Swatch")
            try swatch.setCheckedValue(archived, forKey: "archive")
            try swatch.setCheckedValue(Data("raw".utf8), forKey: "blob")
            try swatch.setCheckedValue(Data([1, 2, 3]), forKey: "colour")
            let error = try #require(throws: ObjectGraphError.self) { try swatch.setCheckedValue("not data", forKey: "blob") }
            #expect(error.code == .typeMismatch)
            #expect(error.message.contains("Swatch.blob expects Data"))
            try writer.save()
            return swatch.objectID
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let swatch = try reader.existingObject(with: id)
            #expect(swatch.value(forKey: "archive") as? Data == archived)
            #expect(swatch.value(forKey: "blob") as? Data == Data("raw".utf8))
            #expect(swatch.value(forKey: "colour") as? Data == Data([1, 2, 3]))
        }
    }

    @Test("a registered transformer converts values on the way to and from the store", arguments: StoreKind.allCases)
    func registeredTransformer(store: StoreKind) throws {
        let name = "HexColourTransformer-\(UUID())"
        ValueTransformerRegistry.setValueTransformer(HexColourTransformer(), forName: name)
        defer { ValueTransformerRegistry.setValueTransformer(nil, forName: name) }
        #expect(ValueTransformerRegistry.valueTransformerNames().contains(name))

        let stack = try TestStack(store, model: Self.model(transformerName: name))
        let writer = stack.container.newBackgroundContext()
        let cardinal = Colour(red: 0x8C, green: 0x15, blue: 0x15)
        let id = try writer.performAndWait {
            let swatch = try writer.insertObject(entityName: "Swatch")
            swatch.setValue(cardinal, forKey: "colour")
            #expect(swatch.value(forKey: "colour") as? Colour == cardinal)
            let error = try #require(throws: ObjectGraphError.self) { try swatch.setCheckedValue("red", forKey: "colour") }
            #expect(error.code == .typeMismatch)
            #expect(error.message.contains(name))
            try writer.save()
            return swatch.objectID
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let swatch = try reader.existingObject(with: id)
            #expect(swatch.value(forKey: "colour") as? Colour == cardinal)
        }
        // What the store holds is the transformer's Data: without the transformer, it shows.
        ValueTransformerRegistry.setValueTransformer(nil, forName: name)
        let raw = stack.container.newBackgroundContext()
        try raw.performAndWait {
            let swatch = try raw.existingObject(with: id)
            #expect(swatch.value(forKey: "colour") as? Data == Data("#8c1515".utf8))
        }
    }

    @Test("stored data the transformer cannot read back is reported, not taken for nil", arguments: StoreKind.allCases)
    func undecodableValue(store: StoreKind) throws {
        let name = "HexColourTransformer-\(UUID())"
        let stack = try TestStack(store, model: Self.model(transformerName: name))
        let writer = stack.container.newBackgroundContext()
        // Written while no transformer was registered: raw bytes that are not a colour.
        let id = try writer.performAndWait {
            let swatch = try writer.insertObject(entityName: "Swatch")
            try swatch.setCheckedValue(Data("not a colour".utf8), forKey: "colour")
            try writer.save()
            return swatch.objectID
        }
        ValueTransformerRegistry.setValueTransformer(HexColourTransformer(), forName: name)
        defer { ValueTransformerRegistry.setValueTransformer(nil, forName: name) }
        let reader = stack.container.newBackgroundContext()
        var reported: [ManagedObjectID] = []
        let observation = reader.addObjectsDidChangeObserver { change in reported += change.readFailures.keys.map(\.objectID) }
        defer { observation.cancel() }
        try reader.performAndWait {
            let swatch = try reader.existingObject(with: id)
            #expect(swatch.value(forKey: "colour") == nil)
            let error = try #require(throws: ObjectGraphError.self) { try reader.fetch(FetchRequest<ManagedObject>(entityName: "Swatch")) }
            #expect(error.message.contains("Swatch.colour"))
            #expect(error.message.contains(name))
            // A dictionary fetch can throw at once.
            let dictionaries = FetchRequest<[String: Any]>(entityName: "Swatch")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["colour"]
            #expect(throws: ObjectGraphError.self) { try reader.fetch(dictionaries) }
        }
        #expect(reported == [id])
    }

    @Test("a value the transformer refuses is never stored, and the save says where")
    func refusedValue() throws {
        let name = "HexColourTransformer-\(UUID())"
        ValueTransformerRegistry.setValueTransformer(HexColourTransformer(), forName: name)
        defer { ValueTransformerRegistry.setValueTransformer(nil, forName: name) }
        let stack = try TestStack(inMemory: true, model: Self.model(transformerName: name))
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let swatch = try context.insertObject(entityName: "Swatch")
            swatch.setValue(42, forKey: "colour")
            #expect(swatch.value(forKey: "colour") == nil)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.failures.contains { $0.entityName == "Swatch" && $0.key == "colour" })
        }
    }
}
