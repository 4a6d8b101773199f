import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Models as apps ship them: `.mom` files and `.momd` folders Xcode compiled, and the model
/// Core Data cached in a store's `Z_MODELCACHE`. Each is checked by its version hashes, which
/// Core Data wrote beside it (`VersionInfo.plist`, `NSStoreModelVersionHashes`).
@Suite("Compiled models")
struct CompiledModelTests {
    static let momds = ["CoreDataPlus-SampleModel/SampleModel.momd", "CoreDataPlus-SampleModel3/SampleModel3.momd"]

    /// `NSManagedObjectModel_VersionHashes` of a `.momd`'s `VersionInfo.plist`: entity hashes
    /// per version name.
    static func versionHashes(_ momd: String) throws -> [String: [String: Data]] {
        let data = try Data(contentsOf: CoreDataStoreFixtures.url(momd).appendingPathComponent("VersionInfo.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let versions = try #require(plist["NSManagedObjectModel_VersionHashes"] as? [String: [String: Any]])
        return versions.mapValues { $0.compactMapValues { $0 as? Data } }
    }

    @Test("every .mom of a .momd has the entity version hashes Xcode recorded for it", arguments: momds)
    func momHashes(momd: String) throws {
        let versions = try Self.versionHashes(momd)
        #expect(versions.count == 3)
        for (version, expected) in versions {
            let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url("\(momd)/\(version).mom"))
            #expect(model.entityVersionHashesByName.mapValues(\.hex) == expected.mapValues(\.hex), "\(momd) \(version)")
        }
    }

    @Test("a .momd folder reads as its current version, the model of the same Xcode version")
    func momdCurrentVersion() throws {
        let compiled = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url("CoreDataPlus-SampleModel/SampleModel.momd"))
        let xcode = try ManagedObjectModel(
            contentsOf: CoreDataStoreFixtures.url("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel")
        )
        #expect(compiled.entityVersionHashesByName == xcode.entityVersionHashesByName)
        try compiled.validate()
        #expect(compiled.entities.map(\.name).sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let car = try #require(compiled.entitiesByName["Car"])
        let owner = try #require(car.relationshipsByName["owner"])
        #expect(owner.destinationEntity?.name == "Person")
        #expect(owner.inverseRelationship?.name == "cars")
        #expect(car.subentities.map(\.name) == ["SportCar"])
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(car.attributesByName["numberPlate"]?.isOptional == false)
        #expect(car.attributesByName["maker"]?.isOptional == true)
    }

    @Test(
        "a compiled model opens the store its version wrote",
        arguments: [("SampleModel_V1.sqlite", "SampleModel"), ("SampleModel_V2.sqlite", "SampleModel2")]
    )
    func momOpensStore(store: String, version: String) throws {
        let url = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/\(store)")
        let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url("CoreDataPlus-SampleModel/SampleModel.momd/\(version).mom"))
        #expect(model.entityVersionHashesByName.mapValues(\.hex) == (try CoreDataStoreFixtures.storedHashes(url)).mapValues(\.hex))
        let container = try Self.open(url, model: model)
        let context = container.newBackgroundContext()
        let reference = try CoreDataStoreFixtures.reference(["entity", url.path, "Person"])
        let count = try context.performAndWait {
            try context.count(for: FetchRequest<ManagedObject>(entityName: "Person"))
        }
        #expect(count == reference["count"] as? Int)
    }

    /// Every fixture store: those whose model we have, and SampleModel2's, whose model exists
    /// only as their own cache (its Book has a derived attribute, `pagesCount`).
    static let stores =
        CoreDataVersionHashTests.pairs.map(\.store) + [
            "CoreDataPlus-SampleModel2/SampleModel2_V1.sqlite", "CoreDataPlus-SampleModel2/SampleModel2_V2.sqlite",
        ]

    @Test("the model a store carries in Z_MODELCACHE has the store's version hashes", arguments: stores)
    func modelCacheHashes(store: String) throws {
        let url = try CoreDataStoreFixtures.copy(store)
        let before = try Data(contentsOf: url)
        let model = try ManagedObjectModel(cachedInStoreAt: url)
        #expect(model.entityVersionHashesByName.mapValues(\.hex) == (try CoreDataStoreFixtures.storedHashes(url)).mapValues(\.hex))
        #expect(try Data(contentsOf: url) == before, "reading the cache leaves the file as it was")
    }

    @Test("every fixture store opens with no model but its own: each entity's count as the reference reads it", arguments: stores)
    func everyStoreOpensWithItsOwnModel(store: String) throws {
        #expect(Self.stores.count == 10)
        let url = try CoreDataStoreFixtures.copy(store)
        let model = try ManagedObjectModel(cachedInStoreAt: url)
        let container = try Self.open(url, model: model)
        let context = container.newBackgroundContext()
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            // A renamed entity is still named by its old name in Z_PRIMARYKEY (SampleModel_V2's
            // LuxuryCar, once ExpensiveSportCar): the reference reader takes both.
            let reference = try CoreDataStoreFixtures.reference(["entity", url.path, entity.name] + [entity.renamingIdentifier].compactMap { $0 })
            let count = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name)) }
            #expect(count == reference["count"] as? Int, "\(store): \(entity.name)")
        }
        let derived = model.entitiesByName["Book"]?.attributesByName["pagesCount"]
        if store.contains("SampleModel2") {
            #expect(derived?.derivationExpression == "count:(pages)", "the cache's derivation, as its predicateFormat")
        }
    }

    @Test("a store opens with the model it carries: objects and to-one targets as the reference reads them")
    func storeWithItsOwnModel() throws {
        let url = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let model = try ManagedObjectModel(cachedInStoreAt: url)
        #expect(model.entities.map(\.name).sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let cars = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Car"])["rows"] as? [String: [String: Any]])
        let container = try Self.open(url, model: model)
        let context = container.newBackgroundContext()
        let owners = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Car")).map { car in
                (car.objectID.primaryKey, (car.value(forKey: "owner") as? ManagedObject)?.objectID.primaryKey)
            }
        }
        #expect(owners.count == cars.count)
        for (key, owner) in owners {
            #expect(owner.map(Int.init) == cars[String(key)]?["ZOWNER"] as? Int, "Car \(key)")
        }
    }

    @Test("a file that is not a compiled model is refused, naming it")
    func notAModel() throws {
        let folder = TestDirectory.make("objectgraph-mom")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Broken.mom")
        try Data("bplist00 not really".utf8).write(to: url)
        #expect {
            try ManagedObjectModel(contentsOf: url)
        } throws: { error in
            (error as? ObjectGraphError)?.code == .invalidModelFile && "\(error)".contains(url.path)
        }
    }

    static func open(_ url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Compiled", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}
