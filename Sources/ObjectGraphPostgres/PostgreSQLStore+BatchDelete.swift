package import ObjectGraph
import PostgresNIO

// A batch delete on PostgreSQL, as on SQLite: the matched rows, then the rows their `.cascade`
// relationships reach (to any depth); `.deny` relationships checked against the whole set;
// `.nullify` inverses cleared (with a new version); then every deleted row and its join rows
// removed — one transaction, with its persistent history.
extension PostgreSQLStore {
    package func batchDelete(matching descriptor: FetchDescriptor) throws -> BatchChanges {
        _ = try layout.batchEntity(descriptor.entity, model: managedObjectModel, for: "batch delete")
        let select = try layout.matchingQuery(descriptor, model: managedObjectModel, storeIdentifier: identifier, refusing: "batch delete")
        return try performBatchWrite("batch delete \(descriptor.entity) objects") { connection in
            let direct = try await self.matchingIDs(Self.query(select.sql, select.arguments), connection: connection)
            return try await self.deleteWithRules(direct, connection: connection)
        }.0
    }

    package func batchDelete(objectIDs: [ManagedObjectID]) throws -> BatchChanges {
        for id in objectIDs where id.storeIdentifier != identifier {
            throw ObjectGraphError(.objectNotFound, "cannot batch delete \(id): it is not an object of the PostgreSQL store at \(serverDescription)")
        }
        guard let first = objectIDs.first else { return BatchChanges.none }
        _ = try layout.batchEntity(first.entityName, model: managedObjectModel, for: "batch delete")
        guard let entity = layout.entity(named: first.entityName) else { return BatchChanges.none }
        // Only the rows that exist, of the IDs' entity (as on SQLite).
        let sql = #"SELECT "Z_PK", "Z_ENT" FROM \#(entity.table) WHERE "Z_ENT" = \#(entity.code) AND "Z_PK" = ANY($1)"#
        let keys = objectIDs.map(\.primaryKey)
        return try performBatchWrite("batch delete \(objectIDs.count) \(first.entityName) objects") { connection in
            let existing = try await self.matchingIDs(PostgresQuery(unsafeSQL: sql, binds: Self.binds([], keys: keys)), connection: connection)
            return try await self.deleteWithRules(existing, connection: connection)
        }.0
    }

    /// Deletes `direct` and what their delete rules reach, inside the caller's transaction;
    /// returns the changes and the deleted rows' tombstones.
    private func deleteWithRules(
        _ direct: [ManagedObjectID],
        connection: PostgresConnection
    ) async throws -> (changes: BatchChanges, tombstones: [TombstoneKey: String], value: Void) {
        let logger = logger
        func destinations(_ sql: String, of sources: [ManagedObjectID]) async throws -> [ManagedObjectID] {
            try await matchingIDs(PostgresQuery(unsafeSQL: sql, binds: Self.binds([], keys: sources.map(\.primaryKey))), connection: connection)
        }
        var rulesByEntity: [String: [SQLStoreLayout.BatchDeleteRule]] = [:]
        var deleted: [ManagedObjectID] = []
        var deletedSet = Set<ManagedObjectID>()
        var denied: [(rule: SQLStoreLayout.BatchDeleteRule, destinations: [ManagedObjectID])] = []
        var nullified: [(rule: SQLStoreLayout.BatchDeleteRule, sources: [ManagedObjectID])] = []
        var frontier = direct.filter { deletedSet.insert($0).inserted }
        deleted += frontier
        while !frontier.isEmpty {
            var next: [ManagedObjectID] = []
            for (entityName, ids) in Dictionary(grouping: frontier, by: \.entityName).sorted(by: { $0.key < $1.key }) {
                let rules = rulesByEntity[entityName] ?? layout.batchDeleteRules(ofEntity: entityName, model: managedObjectModel)
                rulesByEntity[entityName] = rules
                for rule in rules {
                    switch rule.kind {
                    case .cascade:
                        for destination in try await destinations(rule.destinationsSQL, of: ids) where deletedSet.insert(destination).inserted {
                            next.append(destination)
                        }
                    case .deny:
                        let found = try await destinations(rule.destinationsSQL, of: ids)
                        if !found.isEmpty { denied.append((rule, found)) }
                    case .nullify:
                        nullified.append((rule, ids))
                    }
                }
            }
            deleted += next
            frontier = next
        }
        for denial in denied {
            if let denying = denial.destinations.first(where: { !deletedSet.contains($0) }) {
                let entity = denial.rule.entityName
                throw ObjectGraphError(
                    .validationRelationshipDeniedDelete,
                    "the batch delete is refused: \(entity).\(denial.rule.relationshipName) denies deleting a \(entity) while it has \(denying) (a \(denying.entityName)); nothing was deleted"
                )
            }
        }
        var updated: [ManagedObjectID] = []
        var updatedSet = Set<ManagedObjectID>()
        for (rule, sources) in nullified {
            let affected = try await destinations(rule.destinationsSQL, of: sources).filter { !deletedSet.contains($0) }
            guard !affected.isEmpty, let sql = rule.nullifySQL else { continue }
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.binds([], keys: affected.map(\.primaryKey))), logger: logger)
            for id in affected where updatedSet.insert(id).inserted { updated.append(id) }
        }
        let tombstones = try await readTombstones(
            deleted.compactMap { id in layout.entity(named: id.entityName).map { TombstoneKey(entity: $0.code, key: id.primaryKey) } },
            connection: connection,
            logger: logger
        )
        for (entityName, ids) in Dictionary(grouping: deleted, by: \.entityName).sorted(by: { $0.key < $1.key }) {
            guard let entity = layout.entity(named: entityName) else { continue }
            let keys = ids.map(\.primaryKey)
            try await connection.query(
                PostgresQuery(unsafeSQL: #"DELETE FROM \#(entity.table) WHERE "Z_PK" = ANY($1)"#, binds: Self.binds([], keys: keys)),
                logger: logger
            )
            for (table, column) in entity.joinRows {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \(column) = ANY($1)", binds: Self.binds([], keys: keys)),
                    logger: logger
                )
            }
        }
        var changes = BatchChanges.none
        changes.updated = updated
        changes.deleted = deleted
        return (changes, tombstones, ())
    }
}
