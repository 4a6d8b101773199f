public import Foundation

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
            guard let object = registry[id] else { continue }
            markDeletedElsewhere(object)
        }
        var loaded: [ManagedObject] = []
        for id in saved.updatedObjectIDs {
            guard let object = registry[id] else {
                tracker.noteMergedUpdate(ofUnregistered: id, slots: saved.updatedSlots[id], entity: model?.entity(named: id.entityName))
                continue
            }
            // A fault reads its row when it fires; one a fetch left a row with lets it go.
            if object.isFault { object.storage.dropFetchedRow() } else { loaded.append(object) }
            tracker.noteMergedUpdate(of: object, slots: object.hasChanges ? nil : saved.updatedSlots[id])
        }
        do {
            let rows = try store.map { try currentRows(of: loaded.map(\.objectID), from: $0) } ?? [:]
            for object in loaded {
                guard let row = rows[object.objectID] else {
                    // The row is gone: another save deleted it after this one.
                    markDeletedElsewhere(object)
                    continue
                }
                apply(row, to: object, keepingChanges: object.hasChanges)
            }
        } catch {
            // The saved values could not be read: objects without changes of their own become
            // faults (read again on next access); changed ones keep their values and the next
            // save throws the error rather than writing over values it never saw.
            for object in loaded where !object.hasChanges { object.turnIntoFault() }
            recordStoreError(error, for: loaded, while: "read the values a merged save changed")
        }
        var merged: [ManagedObject] = []
        for id in saved.insertedObjectIDs where model?.entity(named: id.entityName) != nil {
            let known = registry[id] != nil
            let object = self.object(with: id)
            if !known { tracker.noteMergedInsert(object) }
            merged.append(object)
        }
        for id in saved.updatedObjectIDs { if let object = registry[id] { merged.append(object) } }
        propagateUnsavedDeletes(to: merged)
        processPendingChanges()
    }

    /// Applies this context's unsaved deletes to merged objects that point at a deleted object
    /// (another context linked a new photo to a tag deleted here): the delete rule of the
    /// deleted object's relationship runs for them as it ran for the objects known at delete
    /// time, so the save does not leave a reference to a row it removes.
    private func propagateUnsavedDeletes(to merged: [ManagedObject]) {
        let deleted = registry.changed.values.filter { $0.isDeleted && !$0.storage.flags.contains(.gone) }
        guard !deleted.isEmpty, !merged.isEmpty else { return }
        let deletedIDs = Set(deleted.map(\.objectID))
        fulfillFaults(of: merged)
        for object in merged where !object.isDeleted && !object.storage.flags.contains(.gone) {
            for slot in object.entity.relationshipSlots {
                guard let relationship = object.entity.allProperties[slot] as? RelationshipDescription,
                    let inverse = relationship.inverseRelationship
                else { continue }
                let targets: [ManagedObjectID]
                if relationship.isToMany {
                    targets = object.toManyMembers(at: slot).filter(deletedIDs.contains)
                } else if case .objectID(let id) = object.storage.values[slot], deletedIDs.contains(id) {
                    targets = [id]
                } else {
                    continue
                }
                for id in targets {
                    switch inverse.deleteRule {
                    case .cascade:
                        delete(object)
                    case .nullify:
                        if relationship.isToMany {
                            do {
                                try object.removeObject(self.object(with: id), fromRelationship: relationship.name)
                            } catch {
                                // Reported by the next save: it must not keep a reference to a removed row.
                                object.storage.pendingFailures.append(
                                    object.failure(key: relationship.name, "could not nullify the reference to deleted \(id): \(error)")
                                )
                            }
                        } else {
                            object.setValue(nil, forKey: relationship.name)
                        }
                    case .deny, .noAction:
                        break
                    }
                }
            }
        }
    }

    /// Forgets an object another save deleted: it leaves the registry and the unsaved changes,
    /// and objects-did-change reports it deleted.
    func markDeletedElsewhere(_ object: ManagedObject) {
        registry.unregister(object.objectID)
        registry.untrack(object)
        object.storage.becomeGone(deleted: true)
        tracker.noteDeletedElsewhere(object)
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

