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
    /// the files of their externally stored values are noted in `files`.
    private func deleteWithRules(_ direct: [ManagedObjectID], in db: Database, files: inout ExternalFileChanges) throws -> BatchChanges {
        var deleted: [ManagedObjectID] = []
        var deletedSet = Set<ManagedObjectID>()
        var denied: [(entity: String, relationship: String, destinations: [ManagedObjectID])] = []
        var nullified: [(RelationshipDescription, [ManagedObjectID])] = []
        var frontier = direct.filter { deletedSet.insert($0).inserted }
        deleted += frontier
        while !frontier.isEmpty {
            var next: [ManagedObjectID] = []
            for (entityName, ids) in Dictionary(grouping: frontier, by: \.entityName).sorted(by: { $0.key < $1.key }) {
                guard let entity = managedObjectModel.entity(named: entityName) else { continue }
                for slot in entity.relationshipSlots {
                    guard let relationship = entity.allProperties[slot] as? RelationshipDescription, !relationship.isTransient else { continue }
                    switch relationship.deleteRule {
                    case .cascade:
                        for destination in try destinations(of: relationship, from: ids, in: db) where deletedSet.insert(destination).inserted {
                            next.append(destination)
                        }
                    case .deny:
                        let destinations = try destinations(of: relationship, from: ids, in: db)
                        if !destinations.isEmpty { denied.append((entity.name, relationship.name, destinations)) }
                    case .nullify:
                        nullified.append((relationship, ids))
                    case .noAction:
                        break
                    }
                }
            }
            deleted += next
            frontier = next
        }
        for denial in denied {
            if let denying = denial.destinations.first(where: { !deletedSet.contains($0) }) {
                throw ObjectGraphError(
                    .validationRelationshipDeniedDelete,
                    "the batch delete is refused: \(denial.entity).\(denial.relationship) denies deleting a \(denial.entity) while it has \(denying) (a \(denying.entityName)); nothing was deleted"
                )
            }
        }
        var updated: [ManagedObjectID] = []
        var updatedSet = Set<ManagedObjectID>()
        for (relationship, sources) in nullified {
            for id in try nullify(relationship, from: sources, sparing: deletedSet, in: db) where updatedSet.insert(id).inserted {
                updated.append(id)
            }
        }
        var changes = BatchChanges(inserted: [], updated: updated, deleted: deleted)
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

    /// The objects `relationship` of `sources` (all of one entity) points at.
    private func destinations(of relationship: RelationshipDescription, from sources: [ManagedObjectID], in db: Database) throws -> [ManagedObjectID]
    {
        guard let destination = relationship.destinationEntity, let destinationPlan = plan.entity(named: destination.name),
            let sourceEntity = sources.first.flatMap({ plan.entity(named: $0.entityName) })
        else { return [] }
        let destinationTable = destinationPlan.mapping.table
        var found: [ManagedObjectID] = []
        for start in stride(from: 0, to: sources.count, by: Self.rowsByIDChunk) {
            let chunk = sources[start..<min(start + Self.rowsByIDChunk, sources.count)]
            let keys = "(\(Self.placeholders(chunk.count)))"
            let sql: String
            if !relationship.isToMany {
                guard let column = sourceEntity.mapping.columns[relationship.slot] else { return [] }
                sql =
                    "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(column) FROM \(sourceEntity.mapping.table) WHERE Z_PK IN \(keys))"
            } else {
                switch schema.storage(of: relationship) {
                case .foreignKey(let table, let column, _):
                    sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) IN \(keys)"
                case .joinTable(let joinTable, let isOwner):
                    let (mine, theirs, _) = joinTable.columns(isOwner: isOwner)
                    sql =
                        "SELECT d.Z_PK, d.Z_ENT FROM \(destinationTable) d JOIN \(joinTable.name) j ON j.\(theirs) = d.Z_PK WHERE j.\(mine) IN \(keys)"
                case nil:
                    return []
                }
            }
            found += try matchingIDs((sql, chunk.map(\.primaryKey.databaseValue)), in: db)
        }
        return found
    }

    /// Clears the references back to `sources` that `relationship`'s destinations hold, and
    /// gives the destinations that survive a new version. Returns those destinations.
    private func nullify(
        _ relationship: RelationshipDescription,
        from sources: [ManagedObjectID],
        sparing deleted: Set<ManagedObjectID>,
        in db: Database
    ) throws -> [ManagedObjectID] {
        let affected = try destinations(of: relationship, from: sources, in: db).filter { !deleted.contains($0) }
        guard !affected.isEmpty, let destination = relationship.destinationEntity,
            let destinationPlan = plan.entity(named: destination.name)
        else { return affected }
        var assignments = ["Z_OPT = Z_OPT + 1"]
        // A to-one inverse is a foreign key in the destination's row (with its entity column,
        // and the order column of an ordered to-many side): clear them. A to-many inverse loses
        // its member when the source row or its join rows go.
        if let inverse = relationship.inverseRelationship, !inverse.isToMany, let column = destinationPlan.mapping.columns[inverse.slot] {
            assignments.append("\(column) = NULL")
            if let entityColumn = destinationPlan.mapping.entityColumns[inverse.slot] { assignments.append("\(entityColumn) = NULL") }
            if relationship.isToMany, case .foreignKey(_, _, let orderColumn?) = schema.storage(of: relationship) {
                assignments.append("\(orderColumn) = NULL")
            }
        }
        let update = "UPDATE \(destinationPlan.mapping.table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN "
        for start in stride(from: 0, to: affected.count, by: Self.rowsByIDChunk) {
            let chunk = affected[start..<min(start + Self.rowsByIDChunk, affected.count)]
            try db.execute(sql: update + "(\(Self.placeholders(chunk.count)))", arguments: StatementArguments(chunk.map(\.primaryKey)))
        }
        return affected
    }
}
