import Foundation
import ObjectGraph
import Testing

/// Stores Apple's Core Data wrote, opened with the Xcode model that wrote them and read as
/// objects; every value is checked against what the reference reader (Python's `sqlite3`)
/// reads from the same file.
@Suite("Core Data stores: reading")
struct CoreDataStoreReadingTests {
    /// Opens a copy of `store` with the model version at `model`.
    static func open(_ store: String, model: String, readOnly: Bool = false) throws -> (PersistentContainer, URL) {
        let url = try CoreDataStoreFixtures.copy(store)
        return (try open(url: url, model: model, readOnly: readOnly), url)
    }

    /// Opens the store at `url` with the model version at `model`.
    static func open(url: URL, model: String, readOnly: Bool = false) throws -> PersistentContainer {
        let managedObjectModel = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(model))
        let container = PersistentContainer(name: "CoreData", managedObjectModel: managedObjectModel)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    @Test(
        "every entity's objects, attribute values and to-one targets are the rows the reference reader reads",
        arguments: CoreDataVersionHashTests.pairs.map(\.store)
    )
    func objectsMatchReference(store: String) throws {
        let model = try #require(CoreDataVersionHashTests.pairs.first { $0.store == store }?.model)
        // The reference reads the file before ObjectGraph opens it.
        let url = try CoreDataStoreFixtures.copy(store)
        let entityNames = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(model)).entities.map { ($0.name, $0.renamingIdentifier) }
        var references: [String: [String: Any]] = [:]
        for (name, renamed) in entityNames {
            // A renamed entity keeps its old name in Z_PRIMARYKEY (matched by its renaming identifier).
            references[name] = try CoreDataStoreFixtures.reference(["entity", url.path, name] + (renamed.map { [$0] } ?? []))
        }
        let container = try Self.open(url: url, model: model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for entity in container.managedObjectModel.entities {
                let reference = try #require(references[entity.name])
                let rows = try #require(reference["rows"] as? [String: [String: Any]])
                let names = try #require(reference["names"] as? [String: String])
                let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name))
                #expect(objects.count == reference["count"] as? Int, "\(store) \(entity.name)")
                #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name)) == objects.count)
                for object in objects {
                    let row = try #require(rows[String(object.objectID.primaryKey)], "\(entity.name) \(object.objectID)")
                    let storedName = names[String(row["Z_ENT"] as? Int ?? 0)]
                    #expect(storedName == object.entity.name || storedName == object.entity.renamingIdentifier)
                    for (name, property) in object.entity.propertiesByName
                    where !property.isTransient && (property as? RelationshipDescription)?.isToMany != true {
                        let column = row["Z" + name.uppercased()] ?? NSNull()
                        let expected = Self.describe(column)
                        #expect(
                            Self.describe(object.value(forKey: name)) == expected,
                            "\(store) \(entity.name).\(name) of \(object.objectID.primaryKey)"
                        )
                    }
                }
            }
        }
    }

    @Test("to-many members are the rows whose to-one column points back")
    func toManyMembers() throws {
        let (container, url) = try Self.open("objcio-Moody/Moody.moody", model: "objcio-Moody/Moody.xcdatamodeld/Moody.xcdatamodel")
        let moods = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Mood"])["rows"] as? [String: [String: Any]])
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let countries = try context.fetch(FetchRequest<ManagedObject>(entityName: "Country"))
            #expect(!countries.isEmpty)
            var members = 0
            for country in countries {
                let linked = Set((country.value(forKey: "moods") as? Set<ManagedObject> ?? []).map(\.objectID.primaryKey))
                let expected = Set(
                    moods.filter { ($0.value["ZCOUNTRY"] as? Int).map(Int64.init) == country.objectID.primaryKey }.compactMap { Int64($0.key) }
                )
                #expect(linked == expected, "Country \(country.objectID.primaryKey)")
                members += linked.count
            }
            #expect(members > 0)
            // Subentities share their root's table and are fetched with their parent.
            let regions = try context.count(for: FetchRequest<ManagedObject>(entityName: "GeographicRegion"))
            let continents = try context.count(for: FetchRequest<ManagedObject>(entityName: "Continent"))
            #expect(regions == continents + countries.count)
        }
    }

    @Test("a predicate over a Core Data store's columns runs in SQL")
    func predicateFetch() throws {
        let (container, url) = try Self.open(
            "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite",
            model: "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel",
            readOnly: true
        )
        let rows = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "User"])["rows"] as? [String: [String: Any]])
        let withPets = rows.values.filter { $0["ZPETNAME"] is String }.compactMap { $0["ZNAME"] as? String }.sorted()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "User")
            request.predicate = FetchPredicate(format: "petName != nil")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let names = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            #expect(names == withPets)
            #expect(!names.isEmpty)
        }
    }

    @Test("with migration off, a Core Data store is refused, untouched, by a model whose version hashes differ")
    func incompatibleModelRefused() throws {
        let store = try CoreDataStoreFixtures.copy("objcio-Moody/Moody.moody")
        let before = try Data(contentsOf: store)
        let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld/Moody 4.xcdatamodel"))
        let container = PersistentContainer(name: "Moody", managedObjectModel: model)
        let description = PersistentStoreDescription(url: store)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        let error = try #require(failure as? ObjectGraphError)
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains(store.path))
        #expect(error.differences.contains("entity GeographicRegion is in the store, not in the model"))
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("the store's metadata reports Core Data's UUID and version identifiers")
    func metadata() throws {
        let (container, _) = try Self.open(
            "CoreDataPlus-SampleModel/SampleModel_V2.sqlite",
            model: "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel",
            readOnly: true
        )
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.metadata["NSStoreUUID"] == "753753D3-A961-4901-AB05-8CC48B1D3853")
        #expect(store.metadata["NSStoreModelVersionIdentifiers"] == "2")
        #expect(store.metadata["layout"] == "Core Data")
    }

    /// A value as the reference reader prints it: numbers as numbers, dates as seconds since
    /// 2001, booleans as 0/1, data and UUIDs as hex, objects as their primary key.
    static func describe(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "nil"
        case let object as ManagedObject: return String(object.objectID.primaryKey)
        case let date as Date: return Self.number(date.timeIntervalSinceReferenceDate)
        case let bool as Bool: return bool ? "1" : "0"
        case let data as Data: return data.hex
        case let uuid as UUID: return withUnsafeBytes(of: uuid.uuid) { Data($0) }.hex
        case let url as URL: return url.absoluteString
        case let string as String: return string
        case let dictionary as [String: Any]: return (dictionary["hex"] as? String) ?? "\(dictionary)"
        case let int as Int: return String(int)
        case let int as Int16: return String(int)
        case let int as Int32: return String(int)
        case let int as Int64: return String(int)
        case let double as Double: return Self.number(double)
        case let float as Float: return Self.number(Double(float))
        case let decimal as Decimal: return Self.number(NSDecimalNumber(decimal: decimal).doubleValue)
        case let number as NSNumber: return Self.number(number.doubleValue)
        default: return "\(value!)"
        }
    }

    private static func number(_ double: Double) -> String {
        double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : String(double)
    }
}
