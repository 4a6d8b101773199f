import Foundation

extension ManagedObjectContext {
    /// Reads a fault's row from the store; an object that no longer exists becomes "gone".
    ///
    /// For accessors that cannot throw: a failed read is reported (see ``reportFaultFailure(_:_:)``).
    func fulfillFault(of object: ManagedObject) {
        do {
            try loadFault(object)
        } catch {
            reportFaultFailure([object], error)
        }
    }
    /// Reads a fault's row from the store, throwing when the store cannot be read.
    func loadFault(_ object: ManagedObject) throws {
        guard let store = parentStore else { return }
        if let (fetch, number) = object.storage.faultBatch {
            try fillBatch(number, of: fetch, from: store)
            if !object.isFault { return }
        }
        // Only a fault a fetch left a row with asks the store's generation (a hot path); a row
        // read before a save since is dropped, and the fault reads the store.
        if let row = object.storage.takeFetchedRow(id: object.objectID, isCurrent: { $0 == store.snapshotGeneration }) {
            return fill(object, with: row)
        }
        try loadFaultWithNeighbours(object, from: store)
    }
    /// A fault whose row could not be read stays a fault — it keeps its identity and is read
    /// again on next access, never taken for deleted — and shows its entity's default values
    /// meanwhile; the error is kept for the next save or fetch and objects-did-change.
    func reportFaultFailure(_ objects: [ManagedObject], _ error: any Error) {
        for object in objects { object.storage.showPlaceholders(object.entity.defaultValues) }
        recordStoreError(error, for: objects, while: objects.count == 1 ? "read \(objects[0].objectID)" : "read \(objects.count) objects")
    }
    /// Turns a fault into a full object from its row, or into a "gone" object without one.
    func fill(_ object: ManagedObject, with row: StoredRow?) {
        guard let row else {
            object.storage.becomeMissing(defaults: object.entity.defaultValues)
            return
        }
        apply(row, to: object, keepingChanges: false)
        object.awakeFromFetch()
    }
    /// Puts a row's values into an object; with `keepingChanges`, unsaved changes stay on top.
    func apply(_ row: StoredRow, to object: ManagedObject, keepingChanges: Bool) {
        object.storage.load(row, entity: object.entity, keepingChanges: keepingChanges)
    }
    /// Loads a to-many relationship's members from the store; `nil` when the store could not
    /// be read (the error is reported as a fault's is, and the next access reads again).
    func loadMembers(of object: ManagedObject, slot: Int) -> [ManagedObjectID]? {
        guard let store = parentStore,
            let relationship = object.entity.allProperties[slot] as? RelationshipDescription,
            !relationship.isTransient
        else { return [] }
        do {
            return try membersWithNeighbours(of: object, relationship: relationship, from: store)
        } catch {
            recordStoreError(error, for: object, while: "read \(object.entity.name).\(relationship.name) of \(object.objectID)")
            return nil
        }
    }

    /// Fires every fault among `objects` with one query per entity (``fulfillFault(of:)`` reads
    /// one row per object): the way to read many objects a merge or a controller is about to
    /// evaluate. An object whose row is gone becomes "gone", as a single fault would; when the
    /// store cannot be read, every fault is reported as ``reportFaultFailure(_:_:)`` says.
    func fulfillFaults(of objects: [ManagedObject]) {
        let faults = unloadedFaults(in: objects)
        guard !faults.isEmpty, let store = parentStore else { return }
        guard faults.count > 1 else { return fulfillFault(of: faults[0]) }
        do {
            try fill(faults, from: store)
        } catch {
            reportFaultFailure(faults, error)
        }
    }

    /// Fills every fault among `objects` with one query per entity, throwing the store's error
    /// (for callers that can throw: prefetching, batches).
    func loadFaults(of objects: [ManagedObject], from store: any ObjectStore) throws {
        let faults = unloadedFaults(in: objects)
        if !faults.isEmpty { try fill(faults, from: store) }
    }

    /// The faults among `objects` that belong to this context and still exist.
    private func unloadedFaults(in objects: [ManagedObject]) -> [ManagedObject] {
        objects.filter { $0.isFault && $0.managedObjectContext === self && !$0.storage.flags.contains(.gone) }
    }

    /// Reads the rows of `faults` (one query per entity) and fills them.
    private func fill(_ faults: [ManagedObject], from store: any ObjectStore) throws {
        let rows = try currentRows(of: faults.map(\.objectID), from: store)
        for object in faults where object.isFault { fill(object, with: rows[object.objectID]) }
    }

    /// The current rows of `ids`, read with one query per entity rather than one per object; an
    /// ID without a row is missing from the result. Throws the store's error.
    func currentRows(of ids: [ManagedObjectID], from store: any ObjectStore) throws -> [ManagedObjectID: StoredRow] {
        try store.rows(for: ids)
    }
}
