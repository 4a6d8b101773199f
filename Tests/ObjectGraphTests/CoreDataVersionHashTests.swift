import Foundation
import ObjectGraph
import Testing

/// Version hashes computed as Core Data computes them, checked against the
/// `NSStoreModelVersionHashes` Core Data wrote into real stores with the same models.
@Suite("Core Data version hashes")
struct CoreDataVersionHashTests {
    /// Each store beside the model version that wrote it.
    static let pairs: [(store: String, model: String)] = [
        ("objcio-Moody/Moody.moody", "objcio-Moody/Moody.xcdatamodeld/Moody.xcdatamodel"),
        ("objcio-Moody/Moody 2.moody", "objcio-Moody/Moody.xcdatamodeld/Moody 2.xcdatamodel"),
        ("objcio-Moody/Moody 3.moody", "objcio-Moody/Moody.xcdatamodeld/Moody 3.xcdatamodel"),
        ("objcio-Moody/Moody 4.moody", "objcio-Moody/Moody.xcdatamodeld/Moody 4.xcdatamodel"),
        ("objcio-Moody/Moody 5.moody", "objcio-Moody/Moody.xcdatamodeld/Moody 5.xcdatamodel"),
        ("CoreDataPlus-SampleModel/SampleModel_V1.sqlite", "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"),
        ("CoreDataPlus-SampleModel/SampleModel_V2.sqlite", "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"),
        ("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite", "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"),
    ]

    @Test("entityVersionHashesByName equals the store's NSStoreModelVersionHashes", arguments: pairs.map(\.store))
    func hashesMatchStore(store: String) throws {
        let model = try #require(Self.pairs.first { $0.store == store }?.model)
        let expected = try CoreDataStoreFixtures.storedHashes(CoreDataStoreFixtures.url(store))
        #expect(expected.count >= 1)
        let computed = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(model)).entityVersionHashesByName
        #expect(computed.mapValues(\.hex) == expected.mapValues(\.hex))
    }

    @Test("a model built in Swift hashes as the Xcode model it mirrors")
    func builtModelMatches() throws {
        let model = ManagedObjectModel {
            EntityDescription("User") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("petName", .string)
            }
        }
        let stored = try CoreDataStoreFixtures.storedHashes(CoreDataStoreFixtures.url("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite"))
        #expect(model.entityVersionHashesByName["User"]?.hex == stored["User"]?.hex)
        #expect(model.entities[0].versionHash.count == 32)
    }

    @Test("a derived attribute hashes as Core Data hashes it: its derivation's predicateFormat alone")
    func derivedAttributeHash() throws {
        func pagesCount(_ name: String = "pagesCount", _ type: AttributeType = .integer64, expression: String) -> Data {
            let attribute = AttributeDescription(name, type)
            attribute.derivationExpression = expression
            return attribute.versionHash
        }
        let hash = pagesCount(expression: "count:(pages)")
        // Core Data stores `pages.@count` as the function `count:(pages)`: both hash alike.
        #expect(pagesCount(expression: "pages.@count") == hash)
        // Neither the name nor the type enters the hash; the expression does.
        #expect(pagesCount("numberOfPages", .integer32, expression: "count:(pages)") == hash)
        #expect(pagesCount(expression: "count:(chapters)") != hash)
        #expect(pagesCount(expression: "sum:(pages)") == pagesCount(expression: "pages.@sum"))
        // SHA-256 of the UTF-8 text, nothing else (Python's hashlib.sha256(b"count:(pages)")).
        #expect(hash.hex == "50081597fb1d6648429c1b37f73bc6bf63299d160cd6f0d555919fd143a9296e")
    }

    @Test("the hash follows stored form only: names, types, optionality, inverse, parent; not class, indexes, delete rule")
    func whatChangesTheHash() throws {
        func model(_ change: (EntityDescription, AttributeDescription, RelationshipDescription) -> Void) -> Data {
            let title = AttributeDescription("title", .string)
            let owner = RelationshipDescription("owner", to: "Person", inverse: "books")
            let book = EntityDescription("Book") {
                title
                owner
            }
            let person = EntityDescription("Person") { RelationshipDescription("books", to: "Book", inverse: "owner", toMany: true) }
            change(book, title, owner)
            _ = ManagedObjectModel {
                book
                person
            }
            return book.versionHash
        }
        let base = model { _, _, _ in }
        #expect(model { _, _, _ in } == base)
        #expect(model { _, title, _ in title.isIndexed = true } == base)
        #expect(model { _, _, owner in owner.deleteRule = .cascade } == base)
        #expect(model { book, _, _ in book.representedClassName = "Other" } == base)
        #expect(model { _, title, _ in title.defaultValue = "x" } == base)
        #expect(model { _, title, _ in title.name = "name" } != base)
        #expect(model { _, title, _ in title.attributeType = .uri } != base)
        #expect(model { _, title, _ in title.isOptional = false } != base)
        #expect(model { _, title, _ in title.versionHashModifier = "2" } != base)
        #expect(model { book, _, _ in book.versionHashModifier = "2" } != base)
        #expect(model { book, _, _ in book.isAbstract = true } != base)
        #expect(model { book, _, _ in book.uniquenessConstraints = [["title"]] } != base)
        #expect(model { _, _, owner in owner.minCount = 1 } != base)
        #expect(model { _, _, owner in owner.inverseRelationship = nil } != base)
    }
}
