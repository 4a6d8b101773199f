import Logging
import ObjectGraph
import PostgresNIO
import Synchronization

// Instances of one schema running different model versions: when one migrates the schema,
// the others' tables and entity codes are gone from under them. Each finds out at the latest
// on its next save (which reads the schema's model under the lock migrations hold), at once
// when it listens for remote changes (the migration announces itself), or when the server
// refuses one of its statements; from then on it refuses everything, and writes nothing.
extension PostgreSQLStore {
    /// Throws when another instance migrated the schema to a model version this store's model
    /// is not: its tables and entity codes are no longer the ones this store reads and writes.
    func checkNotSuperseded() throws {
        guard let hash = supersedingModelHash.withLock({ $0 }) else { return }
        throw supersededError(hash)
    }

    /// Notes that the schema holds the model of hash `stored`; throws (and refuses every later
    /// operation) when it is not this store's model.
    func checkModelHash(_ stored: String) throws {
        let own = managedObjectModel.versionHash
        guard stored != own else { return }
        supersedingModelHash.withLock { $0 = stored }
        throw supersededError(stored)
    }

    /// Reads the model the schema holds now and checks it (``checkModelHash(_:)``); returns
    /// when it cannot be read.
    func checkSchemaModel() throws {
        let client = client
        let stored: String? = try? Self.run("read the store's model version", server: serverDescription, bridge: bridge, timeout: operationTimeout) {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: #"SELECT "Z_MODELHASH" FROM "Z_METADATA" WHERE "Z_VERSION" = \#(Self.formatVersion)"#)
            ).collect()
            return try rows.first?.decode(String.self)
        }
        if let stored { try checkModelHash(stored) }
    }

    private func supersededError(_ hash: String) -> ObjectGraphError {
        ObjectGraphError(
            .persistentStoreIncompatibleVersionHash,
            "another instance migrated the store in schema \(schemaName) at \(serverDescription) to another model version (\(hash.prefix(12))…) while this one was open with \(managedObjectModel.versionHash.prefix(12))…; nothing was read or saved: open the store again with the new model",
            file: serverDescription
        )
    }
}
