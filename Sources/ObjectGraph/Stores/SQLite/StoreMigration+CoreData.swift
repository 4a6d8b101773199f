import Foundation
import GRDB

/// The migration of a store Core Data wrote with an older version of the app's model, as Core
/// Data migrates it: from the model that wrote it — the version of the model bundle whose
/// entity version hashes are the store's, else the compiled model Core Data cached in the
/// store (`Z_MODELCACHE`) — through the same steps as any store, rehearsed on a private copy
/// first. The file stays Core Data's: its metadata is rewritten in Core Data's form, with
/// every key the app put there.
extension StoreMigration {
    /// Plans the migration of the Core Data store `store` to `model`.
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/persistentStoreIncompatibleVersionHash``)
    ///   when no model with the store's hashes is known, or as
    ///   ``init(metadata:model:options:path:layout:dialect:unchanged:)`` refuses.
    init(coreDataStore store: CoreDataStoreMetadata, model: ManagedObjectModel, options: MigrationOptions, path: String) throws {
        let source: ManagedObjectModel
        if let version = options.manager?.bundle.versions.last(where: { $0.model.entityVersionHashesByName == store.versionHashes }) {
            source = version.model
        } else if let cache = store.modelCache, !cache.isEmpty {
            source = try CompiledModelReader.model(cache: cache, source: path)
        } else {
            throw ObjectGraphError(
                .persistentStoreIncompatibleVersionHash,
                "the Core Data store at \(path) was written with another model version, and the model that wrote it is not known: no version of the model bundle has its entity version hashes, and the store caches no model (Z_MODELCACHE); the file was not changed",
                differences: store.differences(from: model),
                file: path
            )
        }
        let snapshot = ModelSnapshot(source)
        let metadata = StoreMetadata(
            formatVersion: SQLiteStore.formatVersion,
            storeUUID: store.storeUUID,
            modelVersionHash: snapshot.versionHash,
            model: snapshot,
            versionHashHistory: nil,
            layout: .coreData,
            entityVersionHashes: store.versionHashes
        )
        try self.init(metadata: metadata, model: model, options: options, path: path)
        coreDataMetadata = store
        targetVersionIdentifiers = model.versionIdentifiers.sorted()
    }

    /// Writes the migrated store's metadata in Core Data's form: the app's keys kept, the
    /// model's version hashes, identifiers and checksum updated; the digest of the old hashes
    /// and the old model's cache removed, since they describe the model that is gone.
    func writeCoreDataMetadata(_ store: CoreDataStoreMetadata, in db: Database) throws {
        var dictionary = (try PropertyListSerialization.propertyList(from: store.plist, format: nil) as? [String: Any]) ?? [:]
        dictionary[StoreModelVersionHashesKey] = targetEntityVersionHashes
        dictionary[StoreModelVersionIdentifiersKey] = targetVersionIdentifiers
        dictionary[PersistentStoreModelVersionChecksumKey] = ManagedObjectModel.versionChecksum(of: targetEntityVersionHashes)
        dictionary["NSStoreModelVersionHashesDigest"] = nil
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", arguments: [plist, SQLiteStore.formatVersion])
        if try db.tableExists("Z_MODELCACHE") { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
    }
}
