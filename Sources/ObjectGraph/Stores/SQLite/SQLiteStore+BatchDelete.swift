import Foundation
import GRDB

// A batch delete in SQL: the matched rows, then the rows their `.cascade` relationships reach
// (to any depth); `.deny` relationships checked against the whole set; `.nullify` inverses
// cleared; then every deleted row and its join rows removed — one transaction.
extension SQLiteStore {
    /// Deletes the rows `descriptor` matches, with their delete rules.
    func batchDelete(matching descriptor: FetchDescriptor) throws -> BatchChanges {
        _ = try batchEntity(descriptor.entity, for: "batch delete")
        let select = try matchingSQL(descriptor, refusing: "batch delete")
        return try withExternalFiles { files in
            try performBatchWrite("batch delete \(descriptor.entity) objects") { db -> (BatchChanges, Void) in
                (try deleteWithRules(try matchingIDs(select, in: db), in: db, files: &files), ())
            }.0
        }
    }

    /// Deletes the rows of `objectIDs` (those that exist), with their delete rules.
    func batchDelete(objectIDs: [ManagedObjectID]) throws -> BatchChanges {
        for id in objectIDs where id.storeIdentifier != identifier {
            throw ObjectGraphError(.objectNotFound, "cannot batch delete \(id): it is not an object of the store at \(path ?? ":memory:")")
        }
        guard let first = objectIDs.first else { return BatchChanges() }
        let (_, entityPlan) = try batchEntity(first.entityName, for: "batch delete")
        let sql = "SELECT Z_PK, Z_ENT FROM \(entityPlan.mapping.table) WHERE Z_ENT = \(entityPlan.code) AND Z_PK IN "
        return try withExternalFiles { files in
            try performBatchWrite("batch delete \(objectIDs.count) \(first.entityName) objects") { db -> (BatchChanges, Void) in
                var existing: [ManagedObjectID] = []
                for start in stride(from: 0, to: objectIDs.count, by: Self.rowsByIDChunk) {
                    let chunk = objectIDs[start..<min(start + Self.rowsByIDChunk, objectIDs.count)]
                    existing += try matchingIDs((sql + "(\(Self.placeholders(chunk.count)))", chunk.map(\.primaryKey.databaseValue)), in: db)
                }
                return (try deleteWithRules(existing, in: db, files: &files), ())
            }.0
        }
    }

    /// Deletes `direct` and what their delete rules reach, inside the caller's transaction;
    /// the files of their externally stored values are noted in `files`. The walk through the
    /// rules is the engine's (``BatchDeleteWalk``); SQLite answers it in chunks of keys.
    private func deleteWithRules(_ direct: [ManagedObjectID], in db: Database, files: inout ExternalFileChanges) throws -> BatchChanges {
        var walk = layout.batchDeleteWalk(from: direct, model: managedObjectModel)
        while let questions = walk.nextQuestions() {
            walk.answer(try questions.map { try destinations($0.rule.destinations, of: $0.sources, in: db) })
        }
        try walk.checkDenials()
        for nullification in walk.nullifications {
            guard let update = nullification.rule.nullify else { continue }
            let affected = walk.surviving(try destinations(nullification.rule.destinations, of: nullification.sources, in: db))
            for start in stride(from: 0, to: affected.count, by: Self.rowsByIDChunk) {
                let chunk = affected[start..<min(start + Self.rowsByIDChunk, affected.count)]
                try db.execute(
                    sql: update.sql(keys: SQLiteDialect().keyMembership(count: chunk.count)),
                    arguments: StatementArguments(chunk.map(\.primaryKey))
                )
            }
            walk.noteUpdated(affected)
        }
        let deleted = walk.deleted
        var changes = BatchChanges(inserted: [], updated: walk.updated, deleted: deleted)
        if tracksHistory {
            for id in deleted { changes.tombstones[id] = try tombstoneValues(of: id, in: db) }
        }
        for (entityName, ids) in Dictionary(grouping: deleted, by: \.entityName) {
            guard let entityPlan = plan.entity(named: entityName), !entityPlan.externalSlots.isEmpty else { continue }
            try noteExternalFiles(ofRows: ids, entity: entityPlan, in: db, files: &files)
        }
        for id in deleted {
            guard let entityPlan = plan.entity(named: id.entityName) else { continue }
            for sql in entityPlan.deleteStatements { try db.cachedStatement(sql: sql).execute(arguments: [id.primaryKey]) }
        }
        return changes
    }

    /// The rows `sql` (a rule's destinations) selects for the keys of `sources`, in chunks.
    private func destinations(_ sql: SQLStoreLayout.KeyedSQL, of sources: [ManagedObjectID], in db: Database) throws -> [ManagedObjectID] {
        var found: [ManagedObjectID] = []
        for start in stride(from: 0, to: sources.count, by: Self.rowsByIDChunk) {
            let chunk = sources[start..<min(start + Self.rowsByIDChunk, sources.count)]
            found += try matchingIDs((sql.sql(keys: SQLiteDialect().keyMembership(count: chunk.count)), chunk.map(\.primaryKey.databaseValue)), in: db)
        }
        return found
    }
}
