import Foundation

extension ManagedObjectContext {
    /// Applies a child's save to this context's objects (on this context's queue): inserts
    /// become inserted objects here (same IDs), updates change values and to-many members,
    /// deletes delete. The objects become changed here, so ``hasChanges`` is true and
    /// objects-did-change (and fetched results controllers) report them once the push is done.
    ///
    /// Conflicts are checked before anything changes: an object the child updated or deleted
    /// whose stored values here differ from those the child read (this context, or a sibling's
    /// push, changed it since), or which is gone here.
    ///
    /// - Parameter snapshots: the values each updated or deleted object of the child was read
    ///   with, by ID.
    /// - Throws: ``OptimisticLockingFailure`` listing the conflicts, this context unchanged; a
    ///   store error reading objects not loaded here, also with nothing changed.
    func applyChildSave(_ changes: SaveChanges, snapshots: [ManagedObjectID: ContiguousArray<Value>]) throws {
        assertOnQueue()
        processPendingChanges()
        try checkChildConflicts(changes, snapshots: snapshots)

        // Every object the push touches, loaded before the first change, so a failed read
        // leaves this context as it was.
        let inserted = Set(changes.inserts.map(\.id))
        var ids = changes.updates.map(\.id) + changes.deletes.map(\.id)
        ids += changes.relationshipChanges.map(\.source).filter { !inserted.contains($0) }
        let targets = ids.map { object(with: $0) }
        try loadFaults(of: targets, from: store())

        for write in changes.inserts { insertPushed(write) }
        for write in changes.updates {
            guard let object = registry[write.id], isAlive(object) else { continue }
            let entity = object.entity
            for slot in write.changedSlots ?? [] where !((entity.allProperties[slot] as? RelationshipDescription)?.isToMany ?? false) {
                object.setStored(write.values[slot], at: slot)
            }
        }
        for change in changes.relationshipChanges { applyPushed(change) }
        // The child ran the delete rules, and pushed what they changed in the objects it
        // keeps; a deleted object's own relationships were not pushed, so here they may still
        // list objects the child moved away. Those are dropped first, then the rules run here
        // again: they change nothing the push did not, and reach objects this context related
        // to the deleted ones after the child read them.
        let deleted = changes.deletes.compactMap { registry[$0.id] }.filter(isAlive)
        for object in deleted { dropStaleRelationships(of: object) }
        for object in deleted { delete(object) }
    }

    /// Removes from `object`'s relationships every object whose inverse does not point back
    /// at it here.
    private func dropStaleRelationships(of object: ManagedObject) {
        for slot in object.entity.relationshipSlots {
            guard let relationship = object.entity.allProperties[slot] as? RelationshipDescription,
                let inverse = relationship.inverseRelationship
            else { continue }
            if relationship.isToMany {
                for id in object.toManyMembers(at: slot) where !points(self.object(with: id), inverse, at: object) {
                    object.primitiveRemoveMember(slot, id)
                }
            } else if case .objectID(let id) = object.storage.values[slot], !points(self.object(with: id), inverse, at: object) {
                object.primitiveSetToOne(slot, nil)
            }
        }
    }

    /// Whether `other`'s relationship `inverse` holds `object`.
    private func points(_ other: ManagedObject, _ inverse: RelationshipDescription, at object: ManagedObject) -> Bool {
        other.fulfillIfNeeded()
        guard isAlive(other) else { return false }
        let slot = inverse.slotIndex(in: other.entity)
        guard slot >= 0 else { return false }
        if inverse.isToMany { return other.toManyMembers(at: slot).contains(object.objectID) }
        if case .objectID(let id) = other.storage.values[slot] { return id == object.objectID }
        return false
    }

    /// Whether `object` is neither deleted here nor gone.
    private func isAlive(_ object: ManagedObject) -> Bool {
        !object.isDeleted && !object.storage.flags.contains(.gone)
    }

    /// Throws ``OptimisticLockingFailure`` for every object the child changes or deletes that
    /// changed (or disappeared) here since the child read it.
    private func checkChildConflicts(_ changes: SaveChanges, snapshots: [ManagedObjectID: ContiguousArray<Value>]) throws {
        var conflicts: [ManagedObjectID: Int64?] = [:]
        let rows = try rowsForChild(changes.versionChecks.map(\.id))
        for check in changes.versionChecks {
            guard let row = rows[check.id] else {
                conflicts[check.id] = .some(nil)
                continue
            }
            guard let snapshot = snapshots[check.id], let entity = model?.entity(named: check.id.entityName) else { continue }
            if MergeConflict.storedSlots(of: entity).contains(where: { snapshot[$0] != row.values[$0] }) {
                conflicts[check.id] = row.version
            }
        }
        if !conflicts.isEmpty { throw OptimisticLockingFailure(storeVersions: conflicts) }
    }

    /// Registers a child's inserted object here, inserted, with the child's values and ID.
    private func insertPushed(_ write: SaveChanges.RowWrite) {
        guard let entity = model?.entity(named: write.id.entityName) else { return }
        let object = registry[write.id] ?? entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = write.id
        if write.id.isTemporaryID { registry.noteTemporaryID() }
        object.managedObjectContext = self
        object.storage.becomeInserted(as: entity)
        for slot in write.values.indices {
            if (entity.allProperties[slot] as? RelationshipDescription)?.isToMany == true { continue }
            object.storage.values[slot] = write.values[slot]
            if write.values[slot].isNull { object.storage.markUnchanged(slot) } else { object.storage.markChanged(slot) }
        }
        registry.register(object)
        noteChanged(object)
        tracker.noteInserted(object)
    }

    /// Applies one to-many change of a child's save; members deleted here are left out (this
    /// context's delete wins), and an ordered relationship takes the child's order, followed by
    /// members added here meanwhile.
    private func applyPushed(_ change: SaveChanges.RelationshipChange) {
        guard let object = registry[change.source], isAlive(object),
            let slot = Self.slot(of: change.relationship, in: object.entity)
        else { return }
        func alive(_ id: ManagedObjectID) -> Bool {
            guard let member = registry[id] else { return true }
            return isAlive(member)
        }
        for id in change.removed { object.primitiveRemoveMember(slot, id) }
        for id in change.added.sorted(by: { $0.primaryKey < $1.primaryKey }) where alive(id) { object.primitiveAddMember(slot, id) }
        guard let order = change.order else { return }
        let members = object.toManyMembers(at: slot)
        var wanted = order.filter { alive($0) }
        let listed = Set(wanted)
        let memberSet = Set(members)
        wanted = wanted.filter(memberSet.contains) + members.filter { !listed.contains($0) }
        if wanted != members {
            object.storage.toMany[slot]?.members = wanted
            object.storage.toMany[slot]?.memberSet = Set(wanted)
        }
        object.storage.toMany[slot]?.orderChanged = true
        object.markRelationshipChanged(slot)
    }
}
