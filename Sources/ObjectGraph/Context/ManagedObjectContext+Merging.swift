import Foundation

extension ManagedObjectContext {
    /// Brings another context's save into this one: registered objects it updated are re-read
    /// (keeping this context's unsaved changes on top), objects it deleted leave, objects it
    /// inserted are registered; objects-did-change reports all three.
    ///
    /// Call on this context's queue (inside `perform`); contexts with
    /// ``automaticallyMergesChangesFromParent`` do it for you.
    public func mergeChanges(fromContextDidSave saved: ContextDidSave) {
        assertOnQueue()
        let store = parentStore
        for id in saved.deletedObjectIDs {
            guard let object = registeredObjectsByID[id] else { continue }
            registeredObjectsByID[id] = nil
            changedObjects[id] = nil
            object.storage.flags = [.deleted, .gone]
            pendingUpdated.remove(object)
            pendingDeleted.insert(object)
        }
        for id in saved.updatedObjectIDs {
            guard let object = registeredObjectsByID[id] else { continue }
            if !object.isFault {
                guard let row = try? store?.row(for: id) else {
                    registeredObjectsByID[id] = nil
                    changedObjects[id] = nil
                    object.storage.flags = [.deleted, .gone]
                    pendingDeleted.insert(object)
                    continue
                }
                apply(row, to: object, keepingChanges: object.hasChanges)
            }
            pendingUpdated.insert(object)
        }
        for id in saved.insertedObjectIDs where model?.entity(named: id.entityName) != nil {
            let known = registeredObjectsByID[id] != nil
            let object = self.object(with: id)
            if !known { pendingInserted.insert(object) }
        }
        processPendingChanges()
    }

    /// Merges the ``ContextDidSave`` carried by a posted did-save notification.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard let saved = notification.userInfo?[Self.didSaveKey] as? ContextDidSave else { return }
        mergeChanges(fromContextDidSave: saved)
    }

    /// Merges changes described by object IDs into several contexts, each on its own queue,
    /// as Core Data's `mergeChanges(fromRemoteContextSave:into:)`.
    public static func mergeChanges(fromRemoteContextSave saved: ContextDidSave, into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(fromContextDidSave: saved) }
        }
    }
}
