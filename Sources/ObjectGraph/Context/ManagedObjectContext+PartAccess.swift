// Names by which code outside Context/ reads the state of the context's parts: fetched results
// controllers (Results/RelatedRoots.swift), the asynchronous fetch (Requests/), ObjectGraphData's
// undo hook and the registry's tests. They forward to the part that owns the state.

extension ManagedObjectContext {
    /// Called after an undo or redo changed the context (ObjectGraphData schedules its
    /// autosave there).
    package var undoDidApply: (() -> Void)? {
        get { tracker.undoDidApply }
        set { tracker.undoDidApply = newValue }
    }

    /// The changed objects, for an asynchronous fetch deciding whether it may read the store
    /// off the context's queue.
    var changedObjects: ChangedObjects { registry.changed }

    /// The registry, by its former name, for the tests that count its entries.
    var registeredObjectsByID: ContextRegistry { registry }

    // The tracker's pending changes and walks, as fetched results controllers read them.
    var pendingInserted: PendingInsertions { tracker.pendingInserted }
    var pendingUpdated: Set<ManagedObject> { tracker.pendingUpdated }
    var pendingDeleted: Set<ManagedObject> { tracker.pendingDeleted }
    var relatedRootWalks: [RelatedRoots.Key: RelatedRoots]? {
        get { tracker.relatedRootWalks }
        set { tracker.relatedRootWalks = newValue }
    }
}
