import Foundation
import Synchronization

extension ManagedObjectContext {
    /// The context this one reads from and saves into, as Core Data's
    /// `NSManagedObjectContext.parent`; `nil` for a context on a coordinator.
    ///
    /// A context has either a coordinator or a parent. A child (a context with a parent):
    /// - reads through its parent: fetches, counts and faults see the parent's unsaved
    ///   inserts, updates and deletes;
    /// - pushes its changes into the parent when it saves (validated, delete rules applied),
    ///   writing nothing to disk: the parent's objects become changed, and only a save of the
    ///   root context (the one on the coordinator) reaches the store;
    /// - gets permanent object IDs from the root store, the same at every level;
    /// - reports the root's ``persistentStoreCoordinator`` and model.
    ///
    /// Chains may be of any depth; every call a child makes into its parent runs on the
    /// parent's queue, so a private-queue child of the main-queue ``PersistentContainer/viewContext``
    /// works from `perform`, and from the main thread through `performAndWait`.
    ///
    /// Set it once, before using the context, as in Core Data; the parent must already be
    /// attached to a coordinator (directly or through its own parent).
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// editor.parent = container.viewContext
    /// try editor.performAndWait {
    ///     let photo = try editor.existingObject(with: id) as! Photo
    ///     photo.title = "Hoover Tower"
    ///     try editor.save()             // into the view context, not to disk
    /// }
    /// try container.viewContext.save()  // now on disk
    /// ```
    public var parent: ManagedObjectContext? {
        get { parentLink?.parent }
        set {
            precondition(coordinator == nil, "ObjectGraph: a context has either a persistentStoreCoordinator or a parent, not both")
            precondition(newValue !== self, "ObjectGraph: a context cannot be its own parent")
            parentLink?.dropMergeObservation()
            guard let newValue else {
                parentLink = nil
                return
            }
            guard let root = newValue.queue.sync({ newValue.persistentStoreCoordinator }) else {
                preconditionFailure("ObjectGraph: the parent context has no persistentStoreCoordinator (directly or through its own parent)")
            }
            parentLink = ParentContextStore(parent: newValue, coordinator: root, child: self)
            updateMergingFromParent()
        }
    }

    /// Subscribes to (or drops) the parent's saves as ``automaticallyMergesChangesFromParent``
    /// says: when the parent saves — to the store, or into its own parent — this context merges
    /// the saved IDs on its own queue (Core Data's behaviour: a sibling's push into the parent
    /// is not a save of the parent, and is seen once the parent saves).
    func updateMergingFromParent() {
        guard let link = parentLink else { return }
        guard automaticallyMergesChangesFromParent else {
            link.dropMergeObservation()
            return
        }
        let observation = link.parent.addDidSaveObserver { [weak self] saved in
            guard let self else { return }
            self.perform { self.mergeChanges(fromContextDidSave: saved) }
        }
        link.replaceMergeObservation(with: observation)
    }

    // MARK: Reads for a child (on this context's queue)

    /// The row a child reads for `id`: this context's object's current values when it is
    /// loaded here (unsaved changes included), `nil` when deleted here, else the store's row.
    func rowForChild(_ id: ManagedObjectID) throws -> StoredRow? {
        assertOnQueue()
        if let object = registry[id] {
            if object.isDeleted || object.storage.flags.contains(.gone) { return nil }
            if !object.isFault { return rowForChild(of: object) }
        }
        return try store().row(for: id)
    }

    /// The rows a child reads for `ids` (see ``rowForChild(_:)``), the store's in one read.
    func rowsForChild(_ ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow] {
        assertOnQueue()
        var rows: [ManagedObjectID: StoredRow] = [:]
        var unloaded: [ManagedObjectID] = []
        for id in ids {
            guard let object = registry[id], !object.isFault else {
                unloaded.append(id)
                continue
            }
            if let row = rowForChild(of: object) { rows[id] = row }
        }
        if !unloaded.isEmpty {
            for (id, row) in try store().rows(for: unloaded) { rows[id] = row }
        }
        return rows
    }

    /// An object's current values as a row (transient values stay in each context); `nil`
    /// when it is deleted here.
    func rowForChild(of object: ManagedObject) -> StoredRow? {
        if object.isFault { object.fulfillIfNeeded() }
        if object.isDeleted || object.storage.flags.contains(.gone) || object.isFault { return nil }
        var values = object.storage.values
        let entity = object.entity
        for slot in values.indices where entity.allProperties[slot].isTransient { values[slot] = .null }
        return StoredRow(id: object.objectID, version: object.storage.version, values: values)
    }

    /// A child's request for this context: its entity here, and a predicate the child wants
    /// evaluated itself (``FetchDescriptor/appliesPredicate`` `false`) dropped, so every object
    /// of the entity comes back.
    func descriptorForChild(_ request: FetchDescriptor) throws -> (EntityDescription, FetchDescriptor) {
        assertOnQueue()
        // Pending deletes run their rules first, as a fetch here does.
        processPendingChanges()
        guard let entity = model?.entity(named: request.entity) else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(request.entity)'")
        }
        var descriptor = request
        if !descriptor.appliesPredicate {
            descriptor.predicate = nil
            descriptor.appliesPredicate = true
        }
        return (entity, descriptor)
    }

    /// The objects a child's request matches here, unsaved changes included, in order.
    func objectsForChild(matching request: FetchDescriptor) throws -> [ManagedObject] {
        let (entity, descriptor) = try descriptorForChild(request)
        return try fetchObjects(entity, descriptor, includePending: true)
    }

    /// The members of a to-many relationship a child reads: this context's (unsaved changes
    /// included) when it has the object, none when it deleted it, else the store's.
    func membersForChild(of id: ManagedObjectID, relationship key: RelationshipKey) throws -> [ManagedObjectID] {
        assertOnQueue()
        processPendingChanges()
        guard let object = registry[id] else { return try store().members(of: id, relationship: key) }
        if object.isDeleted || object.storage.flags.contains(.gone) { return [] }
        guard let slot = Self.slot(of: key, in: object.entity) else { return [] }
        if !object.hasLoadedMembers(at: slot) {
            // Read here, so a store error reaches the child's caller instead of a getter's report.
            object.loadPrefetchedMembers(try store().members(of: id, relationship: key), at: slot)
        }
        return object.toManyMembers(at: slot)
    }

    /// The slot of the relationship `key` names in `entity` (or a subentity of its declarer).
    static func slot(of key: RelationshipKey, in entity: EntityDescription) -> Int? {
        if key.slot < entity.allProperties.count, let relationship = entity.allProperties[key.slot] as? RelationshipDescription,
            RelationshipKey(relationship) == key
        {
            return key.slot
        }
        return entity.allProperties.indices.first { slot in
            (entity.allProperties[slot] as? RelationshipDescription).map(RelationshipKey.init) == key
        }
    }
}
