import Foundation

extension ManagedObjectContext {
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
