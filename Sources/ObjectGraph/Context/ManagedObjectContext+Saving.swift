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
        let (inSaveOrder, inserts) = ContextSave.callWillSave(objects)
        processPendingChanges()
        try throwUnreportedStoreErrors()
        if registry.changed.generation != members {
            // `willSave()` or an observer changed which objects changed.
            objects = ContextSave.inSaveOrder(registry.changed.values)
        } else if !inSaveOrder {
            objects = ContextSave.inSaveOrder(objects)
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
        var save = ContextSave(objects: objects, inserts: inserts, transactionAuthor: transactionAuthor, contextName: name)
        var saved: ContextDidSave?
        var derived: [DerivedAttributeUpdate] = []
        while true {
            let forCustomPolicy: OptimisticLockingFailure? = try store.serializingSaves {
                while !save.changes.isEmpty {
                    do {
                        // The did-save payload is made while the store writes.
                        let changes = save.changes
                        try store.save(changes) { saved = ContextDidSave(changes) }
                        derived = store.takeDerivedAttributeUpdates()
                        break
                    } catch let failure as OptimisticLockingFailure {
                        // Objects changed in the store since they were read: the merge policy
                        // resolves them (or throws), and the save runs again against the new
                        // versions — no other save of this process comes in between.
                        save.attempt += 1
                        // A custom policy's closure is user code, never run under the save
                        // lock (ARCHITECTURE.md, the lock rule): it runs below, then the save
                        // tries again.
                        if mergePolicy.resolver != nil { return failure }
                        try resolveConflicts(failure, in: store, attempt: save.attempt)
                        save.dropGoneObjects()
                    } catch let failure as UniquenessConflictFailure {
                        // Objects share a uniqueness constraint's values: the merge policy merges
                        // the inserted ones into the object that stays (or throws).
                        save.attempt += 1
                        try resolveUniquenessConflicts(failure, in: store, attempt: save.attempt)
                        save.replaceObjects(with: registry.changed.values)
                    }
                }
                return nil
            }
            guard let failure = forCustomPolicy else { break }
            try resolveConflicts(failure, in: store, attempt: save.attempt)
            save.dropGoneObjects()
        }
        // `wroteRows`: whether the save wrote each object's row, decided with the writes
        // before any `didSave()` below can change other objects.
        for (object, wroteRow) in zip(save.objects, save.wroteRows) {
            let deleted = object.isDeleted
            let wroteValues = wroteRow || !deleted && !object.storage.hasNoChangedSlots
            object.storage.saved(deleted: deleted, wroteValues: wroteValues, bumpedVersion: wroteRow)
            if deleted { registry.unregister(object.objectID) }
            if deleted || wroteValues { object.didSave() }
        }
        registry.untrackAll()
        if !derived.isEmpty { takeDerivedValues(derived, into: &saved) }
        if let saved, !saved.isEmpty {
            postDidSave(saved)
            coordinator?.contextDidSave(self, saved)
        }
        // Objects a merge policy refreshed or deleted, reported once the save is done.
        processPendingChanges()
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

extension ManagedObjectContext {
    /// Shows the values a store's triggers gave derived attributes in the objects this context
    /// holds (as committed values: they are not changes), and reports those objects as updated
    /// by the save, so that merging contexts refresh theirs.
    fileprivate func takeDerivedValues(_ updates: [DerivedAttributeUpdate], into saved: inout ContextDidSave?) {
        var updated: [ManagedObjectID] = []
        for update in updates {
            // A row the save inserted is reported as inserted; one it deleted afterwards (a
            // book whose chapters a cascade deleted first) as deleted.
            if saved.map({ !$0.insertedObjectIDs.contains(update.id) && !$0.deletedObjectIDs.contains(update.id) }) ?? false {
                updated.append(update.id)
            }
            guard let object = registeredObject(for: update.id), !object.isFault, let slot = object.entity.slotByName[update.key] else {
                continue
            }
            object.storage.takeStoredValue(update.value, at: slot)
        }
        saved?.updatedObjectIDs.formUnion(updated)
    }
}
