package import ObjectGraph
import PostgresNIO

// A batch update on PostgreSQL: the matching rows' keys, then one UPDATE of them all (the keys
// as one array parameter) that sets the new values and bumps each row's version — one
// transaction, with its persistent history.
extension PostgreSQLStore {
    package func batchUpdate(entityName: String, predicate: PredicateNode?, includesSubentities: Bool, values: [String: Any]) throws -> BatchChanges {
        let update = try layout.batchUpdate(
            entityName: entityName,
            predicate: predicate,
            includesSubentities: includesSubentities,
            values: values,
            model: managedObjectModel,
            storeIdentifier: identifier
        )
        let logger = logger
        return try performBatchWrite("batch update \(entityName) objects") { connection in
            let ids = try await self.matchingIDs(Self.query(update.select.sql, update.select.arguments), connection: connection)
            if !ids.isEmpty {
                try await connection.query(
                    PostgresQuery(unsafeSQL: update.updateSQL, binds: Self.binds(update.arguments, keys: ids.map(\.primaryKey))),
                    logger: logger
                )
            }
            var changes = BatchChanges.none
            changes.updated = ids
            changes.updatedSlots = update.slots
            return (changes, [:], ())
        }.0
    }
}
