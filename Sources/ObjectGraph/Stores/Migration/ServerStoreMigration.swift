import Foundation

/// The migration of an SQL store outside this module — the PostgreSQL store's schema — from
/// the model version that wrote it to the app's: planned and refused exactly as an SQLite
/// store's (``StoreMigration``, the same inference and messages), run through the store's own
/// ``MigrationSQLExecutor`` in its own dialect.
///
/// The store keeps its metadata as the SQLite store keeps `Z_METADATA.Z_PLIST`: the JSON of
/// the model's snapshot, version hash and version history (``metadataJSON(model:storeUUID:formatVersion:)``),
/// so a later open can infer the mapping from the model that wrote the data.
package struct ServerStoreMigration {
    private let migration: StoreMigration

    /// The metadata JSON of a new store of `model`, laid out in ObjectGraph's former layout
    /// (the one ``SQLStoreLayout`` creates).
    package static func metadataJSON(model: ManagedObjectModel, storeUUID: String, formatVersion: Int) throws -> String {
        let snapshot = ModelSnapshot(model)
        let metadata = StoreMetadata(
            formatVersion: formatVersion,
            storeUUID: storeUUID,
            modelVersionHash: snapshot.versionHash,
            model: snapshot,
            versionHashHistory: [snapshot.versionHash],
            layout: .objectGraph,
            entityVersionHashes: model.entityVersionHashesByName
        )
        return String(decoding: try JSONEncoder.sortedKeys.encode(metadata), as: UTF8.self)
    }

    /// Plans the migration of the store whose metadata is `metadataJSON` to `model`.
    ///
    /// - Parameters:
    ///   - options: The store's options: ``PersistentStore/migratePersistentStoresAutomaticallyOption``,
    ///     ``PersistentStore/inferMappingModelAutomaticallyOption`` and
    ///     ``PersistentStore/stagedMigrationManagerOption`` as the SQLite store reads them.
    ///   - store: The store, as errors name it.
    ///   - unchanged: What refusals say of the store ("nothing was changed").
    /// - Throws: ``ObjectGraphError`` as an SQLite store's migration does: with code
    ///   ``ObjectGraphError/Code/persistentStoreIncompatibleVersionHash`` and every difference
    ///   between the models when migration or inference is off or the store is newer; with
    ///   ``ObjectGraphError/Code/migrationFailed`` when a custom stage is asked for (those read
    ///   an SQLite connection).
    package init(
        metadataJSON: String,
        model: ManagedObjectModel,
        options: [String: Any],
        dialect: any SQLDialect,
        store: String,
        unchanged: String
    ) throws {
        let metadata = try StoreMetadata.decode(Data(metadataJSON.utf8), path: store)
        migration = try StoreMigration(
            metadata: metadata,
            model: model,
            options: try PersistentStoreCoordinator.migrationOptions(options),
            path: store,
            layout: .objectGraph,
            dialect: dialect,
            unchanged: unchanged
        )
        if migration.steps.contains(where: { $0.handler != nil }) {
            throw ObjectGraphError(
                .migrationFailed,
                "the store at \(store) needs a custom migration stage, and custom stages run on SQLite stores only; \(unchanged)",
                file: store
            )
        }
    }

    /// Runs every step through `executor`, in the caller's transaction: `creation` gives the
    /// statements creating a model's tables and indexes.
    ///
    /// - Returns: The migrated store's metadata JSON, for the caller to write in the same
    ///   transaction.
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/migrationFailed``) listing every
    ///   change that cannot be migrated, or wrapping the executor's error; the caller rolls back.
    package func run(on executor: some MigrationSQLExecutor, creation: (ManagedObjectModel) -> [String]) throws -> String {
        try migration.run(on: executor, creation: creation)
        return String(decoding: try JSONEncoder.sortedKeys.encode(migration.migratedMetadata), as: UTF8.self)
    }
}
