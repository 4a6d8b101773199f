import Foundation

extension ManagedObjectContext {
    /// Validates and writes every unsaved change to the store in one transaction.
    ///
    /// Runs delete rules, calls `willSave()` on each changed object, validates every inserted
    /// and updated object (and every `.deny` rule of deleted ones), then writes. On success,
    /// objects' `didSave()` runs and a ``ContextDidSave`` is posted; sibling contexts that
    /// merge automatically receive it. On failure nothing is written and the context keeps its
    /// changes.
    ///
    /// - Throws: ``ObjectGraphError``: ``ObjectGraphError/Code/validationMultipleErrors``
    ///   listing every failing object and key, ``ObjectGraphError/Code/constraintConflict``,
    ///   or a store error with its ``ObjectGraphError/cause`` (SQLite's result code, the
    ///   statement, the file) — also one kept from a store read a property getter could not
    ///   throw (see ``ObjectsDidChange/readFailures``). The context keeps its changes.
    public func save() throws {
        assertOnQueue()
        processPendingChanges()
        // A store read that failed inside a getter may have hidden values or members this save
        // depends on (a delete rule's targets): throw it, keeping the changes for a retry.
        try throwUnreportedStoreErrors()
        guard hasChanges else { return }
        guard let store = parentStore else {
            throw ObjectGraphError(.noPersistentStore, "cannot save: the context has no persistent store")
        }
        postWillSave()
        let members = registry.changed.generation
        // One pass calls `willSave()` and sees whether the objects are in save order already.
        var objects = registry.changed.values
        let (inSaveOrder, inserts) = Self.callWillSave(objects)
        processPendingChanges()
        try throwUnreportedStoreErrors()
        if registry.changed.generation != members {
            // `willSave()` or an observer changed which objects changed.
            objects = Self.inSaveOrder(registry.changed.values)
        } else if !inSaveOrder {
            objects = Self.inSaveOrder(objects)
        }
        var failures: [ValidationFailure] = []
        for object in objects {
            // Appending an empty array still makes `failures` a buffer of its own.
            let pending = object.storage.pendingFailures
            if !pending.isEmpty { failures.append(contentsOf: pending) }
            guard object.hasChanges else { continue }
            do {
                if object.isDeleted {
                    try object.validateForDelete()
                } else if object.isInserted {
                    try object.validateForInsert()
                } else {
                    try object.validateForUpdate()
                }
            } catch let error as ObjectGraphError {
                failures.append(contentsOf: error.failures.isEmpty ? [object.failure(key: nil, error.message)] : error.failures)
            } catch let failure as ValidationFailure {
                failures.append(failure)
            } catch {
                failures.append(object.failure(key: nil, "\(error)"))
            }
        }
        if !failures.isEmpty {
            let denied = failures.contains(where: \.deniesDelete)
            throw ObjectGraphError(
                denied && failures.count == 1 ? .validationRelationshipDeniedDelete : .validationMultipleErrors,
                "The save failed validation (\(failures.count) problem\(failures.count == 1 ? "" : "s"))",
                failures: failures
            )
        }

        // Objects inserted while the store could not reserve keys get their permanent IDs now;
        // if the store still cannot, the save throws with every change kept for a retry.
        try obtainPermanentIDsForInsertedObjects()
        var (changes, wroteRows) = saveChanges(for: objects, inserts: inserts)
        var saved: ContextDidSave?
        var attempt = 0
        while true {
            let forCustomPolicy: OptimisticLockingFailure? = try store.serializingSaves {
                while !changes.isEmpty {
                    do {
                        // The did-save payload is made while the store writes.
                        try store.save(changes) { saved = ContextDidSave(changes) }
                        break
                    } catch let failure as OptimisticLockingFailure {
                        // Objects changed in the store since they were read: the merge policy
                        // resolves them (or throws), and the save runs again against the new
                        // versions — no other save of this process comes in between.
                        attempt += 1
                        // A custom policy's closure is user code, never run under the save
                        // lock (ARCHITECTURE.md, the lock rule): it runs below, then the save
                        // tries again.
                        if mergePolicy.resolver != nil { return failure }
                        try resolveConflicts(failure, in: store, attempt: attempt)
                        objects.removeAll { $0.storage.flags.contains(.gone) }
                        (changes, wroteRows) = saveChanges(for: objects)
                    } catch let failure as UniquenessConflictFailure {
                        // Objects share a uniqueness constraint's values: the merge policy merges
                        // the inserted ones into the object that stays (or throws).
                        attempt += 1
                        try resolveUniquenessConflicts(failure, in: store, attempt: attempt)
                        objects = Self.inSaveOrder(registry.changed.values)
                        (changes, wroteRows) = saveChanges(for: objects)
                    }
                }
                return nil
            }
            guard let failure = forCustomPolicy else { break }
            try resolveConflicts(failure, in: store, attempt: attempt)
            objects.removeAll { $0.storage.flags.contains(.gone) }
            (changes, wroteRows) = saveChanges(for: objects)
        }
        // `wroteRows`: whether the save wrote each object's row, decided by `saveChanges`
        // before any `didSave()` below can change other objects.
        for (object, wroteRow) in zip(objects, wroteRows) {
            let deleted = object.isDeleted
            let wroteValues = wroteRow || !deleted && !object.storage.changed.isEmpty
            object.storage.saved(deleted: deleted, wroteValues: wroteValues, bumpedVersion: wroteRow)
            if deleted { registry.unregister(object.objectID) }
            if deleted || wroteValues { object.didSave() }
        }
        registry.untrackAll()
        if let saved, !saved.isEmpty {
            postDidSave(saved)
            coordinator?.contextDidSave(self, saved)
        }
        // Objects a merge policy refreshed or deleted, reported once the save is done.
        processPendingChanges()
    }

    /// Calls `willSave()` on each of `objects` with changes.
    ///
    /// - Returns: Whether `objects` are in save order already (an import's, of one entity in
    ///   key order, seen so in the same pass), and how many were inserted and not deleted.
    private static func callWillSave(_ objects: [ManagedObject]) -> (inSaveOrder: Bool, inserts: Int) {
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
    private static func inSaveOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
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
    private func saveChanges(for objects: [ManagedObject], inserts: Int = 0) -> (SaveChanges, wroteRows: [Bool]) {
        var changes = SaveChanges(transactionAuthor: transactionAuthor, contextName: name)
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

extension ContextDidSave {
    /// The payload of a save that wrote `changes`. Sets sized for the rows at once (a save of
    /// 50,000 new objects grew one twelve times).
    init(_ changes: SaveChanges) {
        self.init(
            insertedObjectIDs: Set(changes.inserts.lazy.map(\.id)),
            updatedObjectIDs: Set(changes.updates.lazy.map(\.id)),
            deletedObjectIDs: Set(changes.deletes.lazy.map(\.id))
        )
        for write in changes.updates {
            if let slots = write.changedSlots { updatedSlots[write.id] = slots }
        }
    }
}
