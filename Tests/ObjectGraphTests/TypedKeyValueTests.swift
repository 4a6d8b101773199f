import Foundation
import ObjectGraph
import TestSupport
import Testing

/// `value(forKey:as:)` reads what `value(forKey:) as? T` reads, for every attribute type, every
/// requested type, `nil` values, faults, relationships and deleted objects, on every store.
@Suite("value(forKey:as:): dynamic access with the caller's type")
struct TypedKeyValueTests {
    static let keys = [
        "small", "medium", "large", "real", "single", "text", "flag", "when", "amount", "bytes", "identifier", "link",
        "owner", "parts", "nothing",
    ]

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Sample") {
                AttributeDescription("small", .integer16)
                AttributeDescription("medium", .integer32)
                AttributeDescription("large", .integer64)
                AttributeDescription("real", .double)
                AttributeDescription("single", .float)
                AttributeDescription("text", .string)
                AttributeDescription("flag", .boolean)
                AttributeDescription("when", .date)
                AttributeDescription("amount", .decimal)
                AttributeDescription("bytes", .binaryData)
                AttributeDescription("identifier", .uuid)
                AttributeDescription("link", .uri)
                RelationshipDescription("owner", to: "Sample", inverse: "parts")
                RelationshipDescription("parts", to: "Sample", inverse: "owner", toMany: true)
            }
        }
    }

    /// Every key read every way, each compared with `value(forKey:) as? T`.
    static func expectAgreement(_ object: ManagedObject, sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            func same<T: Equatable>(_ typed: T?, _ type: T.Type) {
                let reference = object.value(forKey: key) as? T
                #expect(typed == reference, "\(key) as \(T.self)", sourceLocation: sourceLocation)
            }
            // The specialized overloads.
            same(object.value(forKey: key, as: Int64.self), Int64.self)
            same(object.value(forKey: key, as: Int32.self), Int32.self)
            same(object.value(forKey: key, as: Int16.self), Int16.self)
            same(object.value(forKey: key, as: Double.self), Double.self)
            same(object.value(forKey: key, as: Float.self), Float.self)
            same(object.value(forKey: key, as: String.self), String.self)
            same(object.value(forKey: key, as: Bool.self), Bool.self)
            same(object.value(forKey: key, as: Date.self), Date.self)
            // The generic one: other value types, optionals, objects.
            same(object.value(forKey: key, as: Decimal.self), Decimal.self)
            same(object.value(forKey: key, as: Data.self), Data.self)
            same(object.value(forKey: key, as: UUID.self), UUID.self)
            same(object.value(forKey: key, as: URL.self), URL.self)
            same(object.value(forKey: key, as: Int64?.self), Int64?.self)
            same(object.value(forKey: key, as: String?.self), String?.self)
            same(object.value(forKey: key, as: Int.self), Int.self)
            same(object.value(forKey: key, as: Set<ManagedObject>.self), Set<ManagedObject>.self)
            #expect(
                object.value(forKey: key, as: ManagedObject.self) === object.value(forKey: key) as? ManagedObject,
                "\(key) as ManagedObject", sourceLocation: sourceLocation
            )
        }
    }

    static let when = Date(timeIntervalSinceReferenceDate: 123_456.5)
    static let identifier = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!

    /// A full sample with a part, and an empty one (every attribute `nil`).
    static func insertSamples(in context: ManagedObjectContext) -> (full: ManagedObject, empty: ManagedObject) {
        let full = EntityDescription.insertNewObject(forEntityName: "Sample", into: context)
        full.setValue(Int16(-7), forKey: "small")
        full.setValue(Int32(70_000), forKey: "medium")
        full.setValue(Int64(1) << 40, forKey: "large")
        full.setValue(2.5, forKey: "real")
        full.setValue(Float(0.25), forKey: "single")
        full.setValue("Hoover Tower", forKey: "text")
        full.setValue(true, forKey: "flag")
        full.setValue(when, forKey: "when")
        full.setValue(Decimal(string: "12.34")!, forKey: "amount")
        full.setValue(Data([1, 2, 3]), forKey: "bytes")
        full.setValue(identifier, forKey: "identifier")
        full.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "link")
        let empty = EntityDescription.insertNewObject(forEntityName: "Sample", into: context)
        empty.setValue(full, forKey: "owner")
        return (full, empty)
    }

    @Test("new, saved, faulted and deleted objects read alike both ways", arguments: StoreKind.allCases)
    func agreement(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let context = stack.container.newBackgroundContext()
        let (full, empty) = context.performAndWait { Self.insertSamples(in: context) }
        try context.performAndWait {
            Self.expectAgreement(full)
            Self.expectAgreement(empty)
            // The typed path gives the values themselves, not just the same nils.
            #expect(full.value(forKey: "large", as: Int64.self) == 1 << 40)
            #expect(full.value(forKey: "small", as: Int16.self) == -7)
            #expect(full.value(forKey: "single", as: Float.self) == 0.25)
            #expect(full.value(forKey: "text", as: String.self) == "Hoover Tower")
            #expect(full.value(forKey: "when", as: Date.self) == Self.when)
            #expect(full.value(forKey: "large", as: Int64?.self) == .some(.some(1 << 40)))
            #expect(empty.value(forKey: "large", as: Int64.self) == nil)
            #expect(full.value(forKey: "text", as: Int64.self) == nil)
            #expect(full.value(forKey: "nothing", as: String.self) == nil)
            #expect(empty.value(forKey: "owner", as: ManagedObject.self) === full)
            #expect(full.value(forKey: "parts", as: Set<ManagedObject>.self) == [empty])
            try context.save()
        }

        // Faults in another context fire on a typed read, as on value(forKey:).
        let other = stack.container.newBackgroundContext()
        try other.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Sample")
            request.sortDescriptors = [FetchSortDescriptor(key: "large", ascending: false)]
            let samples = try other.fetch(request)
            try #require(samples.count == 2)
            #expect(samples.allSatisfy { $0.isFault })
            #expect(samples[0].value(forKey: "medium", as: Int32.self) == 70_000)
            #expect(!samples[0].isFault)
            Self.expectAgreement(samples[0])
            Self.expectAgreement(samples[1])
        }

        // An object whose deletion was saved reads nil every way.
        try context.performAndWait {
            context.delete(empty)
            try context.save()
            #expect(empty.value(forKey: "owner", as: ManagedObject.self) == nil)
            Self.expectAgreement(empty)
        }
    }
}
