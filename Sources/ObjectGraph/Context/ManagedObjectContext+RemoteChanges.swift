import Foundation

/// The key of the inserted objects' IDs in a change dictionary given to
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``: Core Data's
/// `NSInsertedObjectsKey`, renamed.
public let InsertedObjectsKey = "inserted"
/// The key of the updated objects' IDs in a change dictionary: Core Data's
/// `NSUpdatedObjectsKey`, renamed.
public let UpdatedObjectsKey = "updated"
/// The key of the deleted objects' IDs in a change dictionary: Core Data's
/// `NSDeletedObjectsKey`, renamed.
public let DeletedObjectsKey = "deleted"

extension ManagedObjectContext {
    /// Merges changes made in the store behind the contexts' backs — by a batch request, another
    /// process, persistent history — into `contexts`, each on its own queue, as Core Data's
    /// `mergeChanges(fromRemoteContextSave:into:)` with a dictionary.
    ///
    /// `changes` holds, under ``InsertedObjectsKey``, ``UpdatedObjectsKey`` and
    /// ``DeletedObjectsKey``, arrays or sets of ``ManagedObjectID``s (managed objects and
    /// ID URIs are accepted too). In each context, updated objects are read again from the
    /// store (unsaved changes stay on top), deleted ones become deleted, inserted ones appear,
    /// and objects whose relationships point at a deleted object are read again (a batch
    /// delete nullified them). Fetched results controllers on the contexts report the changes.
    ///
    /// ```swift
    /// let result = try context.execute(batchDelete) as? BatchDeleteResult
    /// ManagedObjectContext.mergeChanges(
    ///     fromRemoteContextSave: [DeletedObjectsKey: result?.result as? [ManagedObjectID] ?? []],
    ///     into: [container.viewContext]
    /// )
    /// ```
    public static func mergeChanges(fromRemoteContextSave changes: [AnyHashable: Any], into contexts: [ManagedObjectContext]) {
        let inserted = objectIDs(in: changes[InsertedObjectsKey])
        let updated = objectIDs(in: changes[UpdatedObjectsKey])
        let deleted = objectIDs(in: changes[DeletedObjectsKey])
        let saved = ContextDidSave(insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted)
        for context in contexts {
            context.performAndWait { context.mergeRemoteSave(saved) }
        }
    }

    /// Merges a save made behind this context's back (another process, another coordinator, a
    /// batch request), on its queue: as ``mergeChanges(fromContextDidSave:)-(ContextDidSave)``,
    /// and objects whose relationships pointed at a deleted object are read again, since the
    /// store nullified or cascaded them without this context seeing it.
    func mergeRemoteSave(_ saved: ContextDidSave) {
        let deleted = saved.deletedObjectIDs
        let referencing = loadedObjectIDs(referencingAnyOf: deleted)
        mergeChanges(
            fromContextDidSave: ContextDidSave(
                insertedObjectIDs: saved.insertedObjectIDs.subtracting(deleted),
                updatedObjectIDs: saved.updatedObjectIDs.union(referencing).subtracting(deleted),
                deletedObjectIDs: deleted
            )
        )
    }

    /// Catches up with changes made elsewhere that cannot be told apart (a store without
    /// history, or history pruned before this process read it), on this context's queue:
    /// objects without unsaved changes become faults and read their rows again, and every
    /// fetched results controller fetches anew, reporting what moved, came and went.
    func refetchAfterUnknownChanges() {
        refreshAllObjects()
        postAllObjectsInvalidated()
    }

    /// The IDs in a change dictionary's value: IDs, objects or URIs, in an array or a set.
    private static func objectIDs(in value: Any?) -> Set<ManagedObjectID> {
        guard let value else { return [] }
        let items: [Any]
        switch value {
        case let ids as [ManagedObjectID]: return Set(ids)
        case let ids as Set<ManagedObjectID>: return ids
        case let array as [Any]: items = array
        case let set as Set<AnyHashable>: items = set.map(\.base)
        case let set as NSSet: items = set.allObjects
        default: items = [value]
        }
        var ids = Set<ManagedObjectID>()
        for item in items {
            switch item {
            case let id as ManagedObjectID: ids.insert(id)
            case let object as ManagedObject: ids.insert(object.objectID)
            case let uri as URL: if let id = ManagedObjectID(uriRepresentation: uri) { ids.insert(id) }
            default: continue
            }
        }
        return ids
    }

    /// Registered objects with values whose to-one relationships or loaded to-many members
    /// point at one of `deleted` (and which are not deleted themselves).
    func loadedObjectIDs(referencingAnyOf deleted: Set<ManagedObjectID>) -> Set<ManagedObjectID> {
        guard !deleted.isEmpty else { return [] }
        var referencing = Set<ManagedObjectID>()
        for object in registry.objects where !object.isFault && !deleted.contains(object.objectID) {
            let storage = object.storage
            for slot in object.entity.relationshipSlots {
                if case .objectID(let id) = storage.values[slot], deleted.contains(id) {
                    referencing.insert(object.objectID)
                    break
                }
                if let members = storage.toMany[slot]?.memberSet, !members.isDisjoint(with: deleted) {
                    referencing.insert(object.objectID)
                    break
                }
            }
        }
        return referencing
    }

    /// The store batch requests run in.
    func batchStore() throws -> any StoreBackend {
        guard let store = coordinator?.store else {
            throw ObjectGraphError(
                .noPersistentStore,
                "the context has no persistent store; load the container's stores before running a store request"
            )
        }
        return store
    }
}
