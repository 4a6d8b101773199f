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
        // The walk through the rules is the engine's (``BatchDeleteWalk``); PostgreSQL answers
        // each question with one statement, the keys bound as one array.
        let keys = layout.dialect.keyMembership(count: 0)
        var walk = layout.batchDeleteWalk(from: direct, model: managedObjectModel)
        while let questions = walk.nextQuestions() {
            var answers: [[ManagedObjectID]] = []
            for question in questions { answers.append(try await destinations(question.rule.destinations.sql(keys: keys), of: question.sources)) }
            walk.answer(answers)
        }
        try walk.checkDenials()
        for nullification in walk.nullifications {
            let affected = walk.surviving(try await destinations(nullification.rule.destinations.sql(keys: keys), of: nullification.sources))
            guard !affected.isEmpty, let update = nullification.rule.nullify else { continue }
            try await connection.query(
                PostgresQuery(unsafeSQL: update.sql(keys: keys), binds: Self.binds([], keys: affected.map(\.primaryKey))),
                logger: logger
            )
            walk.noteUpdated(affected)
        }
        let deleted = walk.deleted
        let updated = walk.updated
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
