import Foundation
import GRDB

// The SQLite half of a migration: running it on the store's GRDB connection, and rehearsing it
// on a private copy of the file. The planning and the steps are store-neutral (Migration/).
extension StoreMigration {
    /// Runs every step in `db`, then writes the new metadata (model, version hash, and the
    /// hashes the store has been written with), all in the caller's transaction.
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/migrationFailed``) listing every
    ///   change of the first failing step that could not be migrated, with entity and property.
    func run(in db: Database) throws {
        // Another process (or container) that opened the store at the same moment may have
        // migrated it since this migration was planned: then there is nothing left to do.
        if try isAlreadyMigrated(in: db) { return }
        if let oldModel = steps.first?.mapping.oldModel,
            let renumbering = try StoreEntityRenumbering(db, model: oldModel, layout: metadata.storeLayout)
        {
            try renumbering.run(in: db)
        }
        try runSteps { step in try step.mapping.run(on: GRDBMigrationExecutor(db: db), handler: step.handler) }
        if let coreDataMetadata {
            try writeCoreDataMetadata(coreDataMetadata, in: db)
            return
        }
        let plist = try JSONEncoder.sortedKeys.encode(migratedMetadata)
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", arguments: [plist, SQLiteStore.formatVersion])
    }

    /// Whether the store's metadata, read in `db`'s transaction, already names the target.
    private func isAlreadyMigrated(in db: Database) throws -> Bool {
        guard let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = ?", arguments: [SQLiteStore.formatVersion])
        else { return false }
        if coreDataMetadata != nil {
            let dictionary = (try? PropertyListSerialization.propertyList(from: plist, format: nil)) as? [String: Any]
            return (dictionary?[StoreModelVersionHashesKey] as? [String: Data]) == targetEntityVersionHashes
        }
        guard let current = try? JSONDecoder().decode(StoreMetadata.self, from: plist) else { return false }
        return current.modelVersionHash == target.versionHash && current.storeLayout == newLayout
    }

    /// Runs the migration on a private copy of the store file and its `-wal`, and rolls it
    /// back: every failure shows here, while the store itself is still untouched.
    func rehearse(url: URL, configuration: Configuration) throws {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appendingPathComponent("objectgraph-migration-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: directory) }  // best effort: only our own temporary copy
        let copy = directory.appendingPathComponent("store.sqlite").path
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            try manager.copyItem(atPath: url.path, toPath: copy)
            if manager.fileExists(atPath: url.path + "-wal") { try manager.copyItem(atPath: url.path + "-wal", toPath: copy + "-wal") }
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not copy \(url.path) to rehearse its migration",
                underlying: error,
                file: url.path
            )
        }
        var configuration = configuration
        configuration.readonly = false
        let queue = try DatabaseQueue(path: copy, configuration: configuration)
        try queue.inDatabase { db in
            try db.inTransaction {
                try run(in: db)
                return .rollback
            }
        }
        try queue.close()
    }
}
