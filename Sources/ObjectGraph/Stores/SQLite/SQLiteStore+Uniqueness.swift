import Foundation
import GRDB

extension SQLiteStore {
    /// After SQLite refused a save for a UNIQUE constraint (its transaction rolled back): throws
    /// ``UniquenessConflictFailure`` naming the conflicting objects, or returns when none is
    /// found (the caller reports SQLite's error).
    func findUniquenessConflicts(_ changes: SaveChanges) throws {
        do {
            try writer.read { db in try checkUniqueness(changes, in: db) }
        } catch let failure as UniquenessConflictFailure {
            throw failure
        } catch {
            return  // the caller throws the constraint error SQLite reported
        }
    }

    /// Finds the uniqueness conflicts of `changes` in `db`, as the store is without them:
    /// between the save's inserted and updated objects and the stored
    /// rows (a row the save deletes or updates does not count with its stored values), and
    /// among the save's own objects. Values with a `nil` never conflict (as SQLite's UNIQUE).
    ///
    /// - Throws: ``UniquenessConflictFailure`` listing every conflict.
    func checkUniqueness(_ changes: SaveChanges, in db: Database) throws {
        let constrained = managedObjectModel.entities.filter { !$0.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return }
        var writes: [SaveChanges.RowWrite] = changes.inserts
        writes += changes.updates
        let deleted = Set(changes.deletes.map(\.id))
        var conflicts: [UniquenessConflictFailure.Conflict] = []
        for entity in constrained {
            guard let mapping = schema.mappings[entity.name] else { continue }
            let codes = Set(entity.fetchableEntityCodes)
            let mine = writes.filter { codes.contains($0.entity) }
            guard !mine.isEmpty else { continue }
            for constraint in entity.uniquenessConstraints {
                let slots = constraint.compactMap { entity.slotByName[$0] }
                let columns = slots.compactMap { mapping.columns[$0] }
                guard slots.count == constraint.count, columns.count == slots.count else { continue }
                // Groups of the save's objects by their values (an update only when it changes them).
                var groups: [[Value]: [ManagedObjectID]] = [:]
                var order: [[Value]] = []
                // Rows the save deletes or moves to other values do not count as stored.
                var leaving = deleted
                for write in mine {
                    if let changed = write.changedSlots, !slots.contains(where: changed.contains) { continue }
                    if write.changedSlots != nil { leaving.insert(write.id) }
                    let key = slots.map { write.values[$0] }
                    if key.contains(where: \.isNull) { continue }
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: []].append(write.id)
                }
                let condition = columns.map { "\($0) = ?" }.joined(separator: " AND ")
                let filter =
                    entity.superentity == nil ? "" : " AND Z_ENT IN (\(entity.fetchableEntityCodes.map(String.init).joined(separator: ", ")))"
                let statement = try db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(mapping.table) WHERE \(condition)\(filter)")
                for key in order {
                    let ids = groups[key] ?? []
                    let rows = try Row.fetchAll(statement, arguments: StatementArguments(key.map(\.databaseValue)))
                    let stored = rows.compactMap { row -> ManagedObjectID? in
                        guard let plan = plan.entity(code: row[1]) else { return nil }
                        let id = ManagedObjectID(storeIdentifier: identifier, entityName: plan.name, primaryKey: row[0])
                        return leaving.contains(id) ? nil : id
                    }
                    guard ids.count > 1 || !stored.isEmpty else { continue }
                    conflicts.append(
                        UniquenessConflictFailure.Conflict(
                            entityName: entity.name,
                            constraint: constraint,
                            databaseObjectID: stored.first,
                            conflictingObjectIDs: ids
                        )
                    )
                }
            }
        }
        if !conflicts.isEmpty { throw UniquenessConflictFailure(conflicts: conflicts) }
    }
}
