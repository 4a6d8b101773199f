import Foundation
import Logging
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// The metadata of the store at `url`, read on a connection of its own without opening the
    /// store: nothing is created (not even the schema) and nothing is written.
    ///
    /// - Throws: ``ObjectGraphError`` naming the server and schema when the URL is not a
    ///   PostgreSQL URL, the server cannot be reached, or the schema holds no ObjectGraph store.
    static func storedMetadata(at url: URL) throws -> RegisteredStoreMetadata {
        let location = try PostgreSQLLocation(url)
        let configuration = {
            var configuration = location.connectionConfiguration
            configuration.options.additionalStartupParameters = [("search_path", location.searchPath)]
            return configuration
        }()
        let logger = Logger(label: "ObjectGraphPostgres")
        let schema = location.schema
        let found: StoredMetadata? = try run(
            "read the store's metadata", server: location.description, bridge: BlockingBridge(), timeout: .seconds(30)
        ) {
            let connection = try await PostgresConnection.connect(
                on: PostgreSQLEventLoops.group.any(), configuration: configuration, id: 0, logger: logger
            )
            do {
                let tables = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Z_METADATA'",
                        binds: binds([.text(schema)])
                    ),
                    logger: logger
                ).collect()
                let stored = tables.isEmpty ? nil : try await readMetadata(connection, schema: schema, logger: logger)
                try? await connection.close()
                return stored
            } catch {
                try? await connection.close()
                throw error
            }
        }
        guard let found, !found.uuid.isEmpty else {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                found == nil
                    ? "the schema \(schema) at \(location.description) holds no ObjectGraph store (it has no Z_METADATA table)"
                    : "the schema \(schema) at \(location.description) has no readable ObjectGraph metadata (format \(formatVersion))"
            )
        }
        return RegisteredStoreMetadata(storeUUID: found.uuid, modelVersionHash: found.hash, json: found.json.map { Data($0.utf8) })
    }
}
