import Foundation

/// One save of a context in flight: the objects it writes, in save order, and the store writes
/// made of them, from validation until the store took them.
///
/// Invariants it keeps:
/// - **The writes are the objects'.** ``changes`` and ``wroteRows`` are made from ``objects``
///   (`wroteRows[i]`: whether the save writes the row of `objects[i]`), and made again whenever
///   ``objects`` changes — a conflict resolved by a merge policy, an object gone meanwhile.
/// - **Save order.** ``objects`` are ordered by entity name, then primary key (see
///   ``inSaveOrder(_:)``): the order the store writes rows in, whichever order they changed in.
/// - **Rows written are decided before `didSave()`.** ``wroteRows`` is fixed with the writes,
///   so the objects' `didSave()` after the save cannot change what counts as written.
///
/// A value of one ``ManagedObjectContext/save()`` call: nothing of it outlives the save.
struct ContextSave {
    /// The objects the save writes, in save order.
    private(set) var objects: [ManagedObject]
    /// The store writes for ``objects``.
    private(set) var changes: SaveChanges
    /// Whether the save writes each object's row (changed and not deleted), by position.
    private(set) var wroteRows: [Bool]
    /// How many times the save met conflicts and tried again.
    var attempt = 0
    /// Recorded in persistent history with each write.
    private let transactionAuthor: String?
    private let contextName: String?

    /// A save of `objects` (in save order), of which `inserts` are new (to size their list).
    init(objects: [ManagedObject], inserts: Int, transactionAuthor: String?, contextName: String?) {
        self.objects = objects
        self.transactionAuthor = transactionAuthor
        self.contextName = contextName
        (changes, wroteRows) = Self.saveChanges(for: objects, inserts: inserts, transactionAuthor: transactionAuthor, contextName: contextName)
    }

    /// Drops the objects a conflict's resolution made gone, and makes the writes again.
    mutating func dropGoneObjects() {
        objects.removeAll { $0.storage.flags.contains(.gone) }
        (changes, wroteRows) = Self.saveChanges(for: objects, transactionAuthor: transactionAuthor, contextName: contextName)
    }

    /// Saves `changed` instead (a uniqueness conflict merged objects), in save order.
    mutating func replaceObjects(with changed: [ManagedObject]) {
        objects = Self.inSaveOrder(changed)
        (changes, wroteRows) = Self.saveChanges(for: objects, transactionAuthor: transactionAuthor, contextName: contextName)
    }

    /// Calls `willSave()` on each of `objects` with changes.
    ///
    /// - Returns: Whether `objects` are in save order already (an import's, of one entity in
    ///   key order, seen so in the same pass), and how many were inserted and not deleted.
    static func callWillSave(_ objects: [ManagedObject]) -> (inSaveOrder: Bool, inserts: Int) {
        guard let entity = objects.first?.entity else { return (true, 0) }
        var previous = Int64.min
        var sorted = true
        var inserts = 0
        for object in objects {
            if sorted {
                sorted = object.entity === entity && object.objectID.primaryKey >= previous
                previous = object.objectID.primaryKey
            }
            if object.isInserted && !object.isDeleted { inserts += 1 }
            if object.hasChanges { object.willSave() }
        }
        return (sorted, inserts)
    }

    /// `objects` by entity name, then primary key (sort keys taken once per object).
    static func inSaveOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
        // Sorts integers — the entity's rank by name, the key, the position — rather than
        // objects: a save of 50,000 objects compares each pair without touching an entity.
        var entities: [EntityDescription] = []
        var order: [(rank: Int, key: Int64, position: Int)] = []
        order.reserveCapacity(objects.count)
        var last: (entity: EntityDescription, index: Int)?
        for (position, object) in objects.enumerated() {
            let entity = object.entity
            if last?.entity !== entity {
                if let index = entities.firstIndex(where: { $0 === entity }) {
                    last = (entity, index)
                } else {
                    entities.append(entity)
                    last = (entity, entities.count - 1)
                }
            }
            order.append((last!.index, object.objectID.primaryKey, position))
        }
        if entities.count > 1 {
            // Entities of one name (from two models) rank alike, as the name alone orders them.
            let names = Set(entities.map(\.name)).sorted()
            let rank = entities.map { entity in names.firstIndex(of: entity.name)! }
            for index in order.indices { order[index].rank = rank[order[index].rank] }
        }
        order.sort { lhs, rhs in lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.key < rhs.key }
        return order.map { objects[$0.position] }
    }

    /// The store writes for `objects`: every changed value and relationship, by entity and
    /// relationship identity; the store decides what it stores where.
    ///
    /// `inserts`, how many of `objects` are new, sizes their list at once: grown by doubling,
    /// a list of 50,000 rows was allocated afresh six times, each time in memory the system
    /// had to map in again (2,100 page faults a save).
    ///
    /// - Returns: Also whether the save writes each object's row (changed and not deleted).
    private static func saveChanges(
        for objects: [ManagedObject],
        inserts: Int = 0,
        transactionAuthor: String?,
        contextName: String?
    ) -> (SaveChanges, wroteRows: [Bool]) {
        var changes = SaveChanges(transactionAuthor: transactionAuthor, contextName: contextName)
        changes.inserts.reserveCapacity(inserts)
        var wroteRows: [Bool] = []
        wroteRows.reserveCapacity(objects.count)
        for object in objects {
            let entity = object.entity
            if object.isDeleted {
                wroteRows.append(false)
                if !object.isInserted {
                    changes.deletes.append(SaveChanges.RowDelete(id: object.objectID, entity: entity.entityCode))
                    if object.storage.committed != nil {
                        changes.versionChecks.append(
                            SaveChanges.VersionCheck(id: object.objectID, entity: entity.entityCode, version: object.storage.version)
                        )
                    }
                }
                continue
            }
            let writesRow = object.hasChanges
            wroteRows.append(writesRow)
            guard writesRow else { continue }
            if object.isInserted {
                changes.inserts.append(
                    SaveChanges.RowWrite(id: object.objectID, entity: entity.entityCode, changedSlots: nil, values: object.storage.values)
                )
            } else {
                // Every updated object's row gets a new version, also when only to-many
                // relationships changed (as Core Data's `Z_OPT`).
                changes.updates.append(
                    SaveChanges.RowWrite(
                        id: object.objectID,
                        entity: entity.entityCode,
                        changedSlots: object.storage.changed.slots,
                        values: object.storage.values
                    )
                )
                // A fault changed only through an inverse to-many relationship read no version.
                if object.storage.committed != nil {
                    changes.versionChecks.append(
                        SaveChanges.VersionCheck(id: object.objectID, entity: entity.entityCode, version: object.storage.version)
                    )
                }
            }
            guard object.storage.hasExtras else { continue }
            for (slot, state) in object.storage.toMany where state.hasChanges {
                guard let relationship = entity.allProperties[slot] as? RelationshipDescription, !relationship.isTransient else { continue }
                changes.relationshipChanges.append(
                    SaveChanges.RelationshipChange(
                        source: object.objectID,
                        relationship: RelationshipKey(relationship),
                        added: Array(state.added),
                        removed: Array(state.removed),
                        order: relationship.isOrdered ? object.toManyMembers(at: slot) : nil
                    )
                )
            }
        }
        // A to-one pointing at a deleted object is cleared only by delete rules; the store
        // also removes join rows of deleted objects.
        return (changes, wroteRows)
    }
}
