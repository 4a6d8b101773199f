import Foundation
import ObjectGraph
import Synchronization
import TestSupport
import Testing

/// Core Data's staged migration, as an app written for it spells it: model versions named by
/// checksum, a custom stage whose handlers change objects through contexts, lightweight stages
/// — on SampleModel3's store, which Core Data wrote with version 1 (users with a pet's name),
/// to version 3 (pets as objects of their own, the name gone from the user).
@Suite("Core Data's staged migration")
struct CoreDataStagedMigrationTests {
    static let bundle = CoreDataStoreFixtures.url("CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld")
    static let momd = CoreDataStoreFixtures.url("CoreDataPlus-SampleModel3/SampleModel3.momd")
    /// Each version's checksum, as Xcode recorded them in the compiled model.
    static let checksums = [
        "SampleModel3": "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=",
        "SampleModel3_v2": "rzn6eNBLyn8k3AoC3kH3yymPT0vSUPaVcgi0v2SuHS8=",
        "SampleModel3_v3": "HFFd7j8Z9/s0tJ1vqPzVSPX/pNYEbNAlXayypitIFow=",
    ]

    @Test("a model's version checksum is the one Xcode records and Core Data keeps in the store")
    func versionChecksumsAreCoreDatas() throws {
        let info = try PropertyListSerialization.propertyList(from: Data(contentsOf: Self.momd.appendingPathComponent("VersionInfo.plist")), format: nil)
        let recorded = (info as? [String: Any])?["NSManagedObjectModel_VersionChecksums"] as? [String: String]
        #expect(recorded == Self.checksums)
        for version in try ManagedObjectModelBundle(contentsOf: Self.bundle).versions {
            #expect(version.model.versionChecksum == Self.checksums[version.name], "\(version.name)")
        }
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: store)
        #expect(metadata[PersistentStoreModelVersionChecksumKey] as? String == Self.checksums["SampleModel3"])
    }

    /// The users' names and their pets' names, in a fresh container with version 3's model.
    static func usersAndPets(at store: URL, model: ManagedObjectModel) throws -> [String: [String]] {
        let container = PersistentContainer(name: "SampleModel3", managedObjectModel: model)
        let description = PersistentStoreDescription(url: store)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var pets: [String: [String]] = [:]
            for user in try context.fetch(FetchRequest<ManagedObject>(entityName: "User")) {
                let name = user.value(forKey: "name") as! String
                let pet = (user.value(forKey: "pet") as? ManagedObject)?.value(forKey: "name") as? String
                pets[name, default: []] += pet.map { [$0] } ?? []
            }
            return pets.mapValues { $0.sorted() }
        }
    }

    @Test("a custom stage's handlers see each version's model; a lightweight stage takes the store on")
    func customAndLightweightStages() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let v1 = ManagedObjectModelReference(fileURL: Self.bundle, versionChecksum: Self.checksums["SampleModel3"]!)
        let v2 = ManagedObjectModelReference(fileURL: Self.momd, versionChecksum: Self.checksums["SampleModel3_v2"]!)
        let petNames = Mutex<[String: String]>([:])
        let stage = CustomMigrationStage(migratingFrom: v1, to: v2)
        stage.label = "pets become objects"
        stage.willMigrateHandler = { manager, _ in
            // Version 1: the pet is a name on the user.
            let context = try #require(manager.container).newBackgroundContext()
            try context.performAndWait {
                for user in try context.fetch(FetchRequest<ManagedObject>(entityName: "User")) {
                    let name = user.value(forKey: "name") as! String
                    let pet = user.value(forKey: "petName") as? String
                    petNames.withLock { $0[pet ?? "", default: name] = name }
                }
            }
        }
        stage.didMigrateHandler = { manager, stage in
            // Version 2: make a pet of each name, and give it its owner.
            #expect(stage.label == "pets become objects")
            let context = try #require(manager.container).newBackgroundContext()
            try context.performAndWait {
                for user in try context.fetch(FetchRequest<ManagedObject>(entityName: "User")) {
                    guard let name = user.value(forKey: "petName") as? String else { continue }
                    let pet = try context.insertObject(entityName: "Pet")
                    pet.setValue(name, forKey: "name")
                    pet.setValue(user, forKey: "owner")
                }
                try context.save()
            }
        }
        let manager = StagedMigrationManager([stage, LightweightMigrationStage([Self.checksums["SampleModel3_v2"]!, Self.checksums["SampleModel3_v3"]!])])
        let v3 = try ManagedObjectModelBundle(contentsOf: Self.bundle).versions.first { $0.name == "SampleModel3_v3" }!.model
        let container = PersistentContainer(name: "SampleModel3", managedObjectModel: v3)
        let description = PersistentStoreDescription(url: store)
        description.setOption(manager, forKey: PersistentStore.stagedMigrationManagerOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil, "\(String(describing: loadError))")
        #expect(manager.container == nil, "the container is the handlers' only")
        for store in container.persistentStoreCoordinator.persistentStores { try container.persistentStoreCoordinator.remove(store) }

        let seen = petNames.withLock { $0 }
        #expect(seen.count == 12, "the will-migrate handler read version 1's petName of every user: \(seen)")
        let migrated = try Self.usersAndPets(at: store, model: v3)
        #expect(migrated.values.reduce(0) { $0 + $1.count } == 12, "\(migrated)")
        // Each user's pets are the names it had: "Dog_<user>_<n>".
        for (user, pets) in migrated {
            #expect(pets.allSatisfy { $0.hasPrefix("Dog_" + user.dropFirst("User_".count) + "_") }, "\(user): \(pets)")
        }
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: store)
        #expect((metadata[StoreModelVersionHashesKey] as? [String: Data]) == v3.entityVersionHashesByName)
    }

    @Test("a handler that throws stops the migration at the version the store reached, and says why")
    func failingHandlerStopsTheMigration() throws {
        struct NoPets: Error {}
        let stage = CustomMigrationStage(
            migratingFrom: ManagedObjectModelReference(fileURL: Self.bundle, versionChecksum: Self.checksums["SampleModel3"]!),
            to: ManagedObjectModelReference(fileURL: Self.bundle, versionChecksum: Self.checksums["SampleModel3_v2"]!)
        )
        stage.didMigrateHandler = { _, _ in throw NoPets() }
        let unknown = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        var stores: [URL] = []
        for (stages, expected) in [([stage], "NoPets"), ([LightweightMigrationStage([Self.checksums["SampleModel3"]!, unknown])], unknown)] {
            let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
            stores.append(store)
            let v3 = try ManagedObjectModelBundle(contentsOf: Self.bundle).versions.last!.model
            let coordinator = PersistentStoreCoordinator(managedObjectModel: v3)
            let error = #expect(throws: (any Error).self) {
                try coordinator.addPersistentStore(
                    type: .sqlite,
                    at: store,
                    options: [PersistentStore.stagedMigrationManagerOption: StagedMigrationManager(stages)]
                )
            }
            #expect(String(describing: error).contains(expected), "\(String(describing: error))")
        }
        // The custom stage's migration had committed before its handler threw: version 2.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: stores[0])
        let hashes = try #require(metadata[StoreModelVersionHashesKey] as? [String: Data])
        #expect(Set(hashes.keys) == ["User", "Pet"])
        // A stage naming a version nobody has leaves the store as it was.
        let untouched = try PersistentStoreCoordinator.metadataForPersistentStore(at: stores[1])
        #expect(Set(try #require(untouched[StoreModelVersionHashesKey] as? [String: Data]).keys) == ["User"])
    }
}
