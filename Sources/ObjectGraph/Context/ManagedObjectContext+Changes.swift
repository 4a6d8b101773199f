import Foundation

extension ManagedObjectContext {
    /// Whether the context has unsaved inserts, updates or deletes.
    public var hasChanges: Bool {
        assertOnQueue()
        return registry.changed.contains { $0.hasChanges || !$0.storage.pendingFailures.isEmpty }
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.changed.values.filter { $0.isInserted && !$0.isDeleted })
    }

    /// Objects with unsaved changes that were neither inserted nor deleted.
    public var updatedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.changed.values.filter(\.isUpdated))
    }

    /// Objects deleted and not yet saved.
    public var deletedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.changed.values.filter { $0.isDeleted && !$0.isInserted })
    }

    /// Inserts `object` (created with `insertInto: nil`) into the context: it gets its permanent
    /// ID and default values, and `awakeFromInsert()` runs.
    ///
    /// When the store cannot reserve a key (it is read-only, or another connection holds it
    /// locked past its ``PersistentStore/timeoutOption``), the object gets a temporary ID
    /// instead and stays fully usable; the next ``save()`` or ``obtainPermanentIDs(for:)``
    /// reserves its permanent ID, throwing the store's error (changes kept) if it still cannot.
    public func insert(_ object: ManagedObject) {
        assertOnQueue()
        if object.managedObjectContext === self { return }
        precondition(object.managedObjectContext == nil, "ObjectGraph: \(object.entity.name) object already belongs to another context")
        guard let store = parentStore else {
            preconditionFailure("ObjectGraph: insert into a context with no persistent store; load the container's stores first")
        }
        let id: ManagedObjectID
        do {
            id = try store.newObjectID(forEntity: object.entity.entityCode)
        } catch {
            // Inserting cannot throw: the save that needs the permanent ID reports the error.
            id = ManagedObjectID.temporary(storeIdentifier: store.identifier, entityName: object.entity.name)
            registry.noteTemporaryID()
        }
        object.objectID = id
        object.managedObjectContext = self
        object.storage.becomeInserted(as: object.entity)
        registry.register(object)
        noteChanged(object)
        tracker.noteInserted(object)
        object.awakeFromInsert()
    }

    /// Inserts a new object of the entity named `entityName`, throwing when the model lacks it.
    ///
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/entityNotFound``.
    public func insertObject(entityName: String) throws -> ManagedObject {
        assertOnQueue()
        guard let entity = model?.entity(named: entityName) else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(entityName)'")
        }
        guard !entity.isAbstract else {
            throw ObjectGraphError(.entityNotFound, "entity '\(entityName)' is abstract and cannot have instances")
        }
        return entity.managedObjectClass.init(entity: entity, insertInto: self)
    }

    /// Marks `object` deleted; its delete rules run at the next `processPendingChanges()` and
    /// the save removes it from the store. Deleting an unsaved object just forgets it.
    public func delete(_ object: ManagedObject) {
        assertOnQueue()
        guard object.managedObjectContext === self, !object.isDeleted, !object.storage.flags.contains(.gone) else { return }
        object.fulfillIfNeeded()
        if object.storage.flags.contains(.gone) { return }
        object.prepareForDeletion()
        object.storage.markDeleted()
        noteChanged(object)
        tracker.noteDeleted(object, runningDeleteRules: true)
    }

    /// Runs delete rules for pending deletes and posts objects-did-change for changes since the
    /// last call. Runs at the end of every `perform` block and before every fetch and save.
    public func processPendingChanges() {
        assertOnQueue()
        propagateDeletes()
        if let undoRecorder = tracker.undoRecorder, !undoRecorder.isApplying, !undoRecorder.touched.isEmpty {
            registerUndoStep(undoRecorder)
        }
        guard let change = tracker.takeObjectsDidChange(registry: registry) else { return }
        postObjectsDidChange(change)
    }

    /// Records that `object` changed; cheap after the first change.
    func noteChanged(_ object: ManagedObject) {
        if let undoRecorder = tracker.undoRecorder, !undoRecorder.isApplying { recordUndoState(of: object, in: undoRecorder) }
        registry.track(object)
        tracker.noteUpdated(object)
    }

    private func propagateDeletes() {
        while let batch = tracker.takeDeletesToPropagate() {
            for object in batch { applyDeleteRules(of: object) }
        }
    }

    private func applyDeleteRules(of object: ManagedObject) {
        for slot in object.entity.relationshipSlots {
            guard let relationship = object.entity.allProperties[slot] as? RelationshipDescription else { continue }
            let related: [ManagedObjectID]
            if relationship.isToMany {
                related = object.toManyMembers(at: slot)
            } else if case .objectID(let id) = object.storage.values[slot] {
                related = [id]
            } else {
                related = []
            }
            switch relationship.deleteRule {
            case .cascade:
                for id in related { delete(self.object(with: id)) }
                nullify(object, relationship: relationship, related: related)
            case .nullify:
                nullify(object, relationship: relationship, related: related)
            case .deny, .noAction:
                break
            }
        }
        // An unsaved object that is deleted is simply forgotten.
        if object.isInserted { forget(object) }
    }

    private func nullify(_ object: ManagedObject, relationship: RelationshipDescription, related: [ManagedObjectID]) {
        guard let inverse = relationship.inverseRelationship else { return }
        for id in related {
            let other = self.object(with: id)
            if other.storage.flags.contains(.gone) { continue }
            other.detachInverse(inverse, from: object)
        }
    }

    /// Removes an unsaved, deleted object from the context entirely.
    func forget(_ object: ManagedObject) {
        registry.untrack(object)
        registry.unregister(object.objectID)
        object.storage.becomeGone(deleted: true)
    }

    // MARK: Undoing

    /// Discards every unsaved change: inserted objects are forgotten, updated and deleted ones
    /// return to their saved values.
    public func rollback() {
        assertOnQueue()
        tracker.undoRecorder?.clear(for: self)
        tracker.forgetDeletesToPropagate()
        var refreshed: Set<ManagedObject> = []
        var removed: Set<ManagedObject> = []
        for object in registry.changed.values {
            if object.isInserted {
                registry.unregister(object.objectID)
                object.storage.becomeGone(deleted: false)
                object.managedObjectContext = nil
                removed.insert(object)
            } else {
                object.turnIntoFault()
                object.storage.becomeFault()
                refreshed.insert(object)
            }
        }
        registry.untrackAll()
        tracker.forgetPendingChanges(keepingRefreshed: true)
        tracker.noteRefreshed(refreshed)
        if !removed.isEmpty || !refreshed.isEmpty {
            postObjectsDidChange(
                ObjectsDidChange(
                    inserted: [],
                    updatedObjects: [],
                    deletedObjects: removed,
                    refreshedObjects: tracker.pendingRefreshed,
                    invalidatedAllObjects: false
                )
            )
            tracker.forgetRefreshed()
        }
    }

    /// Forgets every object: unsaved changes are discarded, and objects the caller still holds
    /// no longer belong to the context.
    public func reset() {
        assertOnQueue()
        tracker.undoRecorder?.clear(for: self)
        for object in registry.removeAll() {
            object.managedObjectContext = nil
            object.storage.detach()
        }
        // The objects whose reads failed are forgotten with everything else.
        tracker.removeAll()
        postAllObjectsInvalidated()
    }

    /// Tells observers that any object may have changed (objects-did-change with
    /// `invalidatedAllObjects`): fetched results controllers fetch anew.
    func postAllObjectsInvalidated() {
        postObjectsDidChange(
            ObjectsDidChange(inserted: [], updatedObjects: [], deletedObjects: [], refreshedObjects: [], invalidatedAllObjects: true)
        )
    }

    /// Re-reads `object` from the store. With `mergeChanges` false its unsaved changes are
    /// discarded and it becomes a fault; with `true` they stay on top of the fresh values.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        assertOnQueue()
        guard object.managedObjectContext === self, !object.isInserted else { return }
        if !mergeChanges || !object.hasChanges {
            if object.hasChanges { registry.untrack(object) }
            object.storage.discardChangeState()
            object.turnIntoFault()
        } else {
            do {
                if let row = try parentStore?.row(for: object.objectID) { apply(row, to: object, keepingChanges: true) }
            } catch {
                recordStoreError(error, for: object, while: "refresh \(object.objectID)")
            }
        }
        tracker.noteRefreshed(object)
    }

    /// Turns every registered object without changes into a fault, releasing their values
    /// (and the rows fetched faults kept).
    public func refreshAllObjects() {
        assertOnQueue()
        for object in registry.objects where !object.hasChanges {
            if object.isFault { object.storage.dropFetchedRow() } else { object.turnIntoFault() }
        }
    }
}

extension ManagedObjectContext {
    /// Gives the objects among `objects` that have a temporary ID (see
    /// ``ManagedObjectID/isTemporaryID``) their permanent one, as Core Data's method does.
    ///
    /// ObjectGraph's IDs are normally permanent from insert, so this usually does nothing; an
    /// object has a temporary ID only when the store could not reserve a key at insert.
    ///
    /// - Throws: ``ObjectGraphError`` naming the store, with the SQLite error as its
    ///   ``ObjectGraphError/cause`` (busy, read-only), when it still cannot reserve keys; the
    ///   objects that did not get a permanent ID keep their temporary one.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        assertOnQueue()
        let temporary = objects.filter { $0.managedObjectContext === self && $0.objectID.isTemporaryID }
        guard !temporary.isEmpty else { return }
        let store = try store()
        var replaced: [ManagedObjectID: ManagedObjectID] = [:]
        // Whatever got a key keeps it, even when a later reservation throws.
        defer { if !replaced.isEmpty { replaceObjectIDs(replaced) } }
        for object in temporary {
            replaced[object.objectID] = try store.newObjectID(forEntity: object.entity.entityCode)
        }
    }

    /// Gives every object with a temporary ID its permanent one (before a save writes them).
    func obtainPermanentIDsForInsertedObjects() throws {
        guard registry.mayHoldTemporaryIDs else { return }
        let isTemporary = { (object: ManagedObject) in object.objectID.isTemporaryID && !object.isDeleted }
        if registry.changed.contains(where: isTemporary) {
            try obtainPermanentIDs(for: registry.changed.values.filter(isTemporary))
        }
        registry.noteNoTemporaryIDs()
    }

    /// Replaces temporary IDs by permanent ones: in the registry, the changed objects, and
    /// every relationship value that refers to them.
    private func replaceObjectIDs(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        registry.replaceObjectIDs(replaced)
        for object in registry.objects {
            object.storage.replaceReferences(replaced)
        }
        postObjectIDsReplaced(replaced)
    }
}
