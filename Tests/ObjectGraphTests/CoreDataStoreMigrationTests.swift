import Foundation
import ObjectGraph
import TestSupport
import Testing

/// A store Core Data wrote with an older version of the app's model, opened with a newer one:
/// migrated as Core Data migrates it (inferred, from the model that wrote it), and left Core
/// Data's — its metadata in Core Data's form with the new version hashes.
@Suite("Core Data stores: migrated from older versions")
struct CoreDataStoreMigrationTests {
    static let moody = CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld")

    /// Each entity's row count, as the reference reader (Python's sqlite3) reads the file.
    static func rowCounts(_ store: URL, _ entities: [String]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for entity in entities { counts[entity] = try CoreDataStoreFixtures.reference(["entity", store.path, entity])["count"] as? Int }
        return counts
    }

    @Test(
        "each Moody store Core Data wrote opens with a later version: rows kept, metadata Core Data's",
        arguments: [("Moody.moody", "Moody 2"), ("Moody.moody", "Moody 4"), ("Moody 2.moody", "Moody 3"), ("Moody 3.moody", "Moody 5"), ("Moody 4.moody", "Moody 5")]
    )
    func moodyStoresMigrate(store name: String, to version: String) throws {
        let store = try CoreDataStoreFixtures.copy("objcio-Moody/\(name)")
        let before = try Self.rowCounts(store, ["Mood"])
        let bundle = try ManagedObjectModelBundle(contentsOf: Self.moody)
        let model = try #require(bundle.versions.first { $0.name == version }).model
        let container = PersistentContainer(name: "Moody", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil, "\(String(describing: failure))")
        let context = container.newBackgroundContext()
        let moods = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Mood")) }
        #expect(moods == before["Mood"])
        for store in container.persistentStoreCoordinator.persistentStores { try container.persistentStoreCoordinator.remove(store) }

        // The file is still Core Data's, at the new version: its plist names the new hashes
        // and checksum, and the same model opens it without a migration.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: store)
        #expect(metadata[StoreTypeKey] as? String == "SQLite")
        #expect(metadata[StoreModelVersionHashesKey] as? [String: Data] == model.entityVersionHashesByName)
        #expect(metadata[PersistentStoreModelVersionChecksumKey] as? String == model.versionChecksum)
        #expect(try CoreDataStoreFixtures.storedHashes(store) == model.entityVersionHashesByName, "the reference reader sees the new hashes")
        let again = PersistentContainer(name: "Moody", managedObjectModel: model)
        let description = PersistentStoreDescription(url: store)
        description.shouldMigrateStoreAutomatically = false
        again.persistentStoreDescriptions = [description]
        again.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil, "\(String(describing: failure))")
    }
}
