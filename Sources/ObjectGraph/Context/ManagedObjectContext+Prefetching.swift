import Foundation

extension ManagedObjectContext {
    /// Reads the objects along `keyPaths` from `objects` ahead of use, as Core Data's
    /// `relationshipKeyPathsForPrefetching` does: per key path step, one query for the
    /// members of a to-many relationship (per few hundred sources) and one query per entity
    /// for the related objects' rows, instead of one query per object.
    ///
    /// - Throws: ``ObjectGraphError`` when a step is not a relationship of the objects reached,
    ///   or the store's error.
    func prefetchRelationships(_ keyPaths: [String], of objects: [ManagedObject]) throws {
        guard !objects.isEmpty else { return }
        let store = try store()
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                guard !level.isEmpty else { break }
                try loadFaults(of: level, from: store)
                level = try relatedObjects(of: level, key: key, keyPath: keyPath, store: store)
            }
            try loadFaults(of: level, from: store)
        }
    }

    /// The distinct objects `key` leads to from `objects`, with to-many members loaded.
    private func relatedObjects(
        of objects: [ManagedObject],
        key: String,
        keyPath: String,
        store: any ObjectStore
    ) throws -> [ManagedObject] {
        var next: [ManagedObject] = []
        var seen = Set<ManagedObjectID>()
        func reach(_ id: ManagedObjectID) {
            if seen.insert(id).inserted { next.append(object(with: id)) }
        }
        // Sources whose members must be read, by relationship (subentities share it).
        var unloaded: [ObjectIdentifier: (relationship: RelationshipDescription, objects: [ManagedObject])] = [:]
        for object in objects where !object.isDeleted && !object.storage.flags.contains(.gone) {
            guard let slot = object.entity.slotByName[key], let relationship = object.entity.allProperties[slot] as? RelationshipDescription
            else {
                throw ObjectGraphError(
                    .invalidRequest,
                    "cannot prefetch '\(keyPath)': '\(key)' is not a relationship of \(object.entity.name)"
                )
            }
            if !relationship.isToMany {
                if case .objectID(let id) = object.storage.values[slot] { reach(id) }
            } else if relationship.isTransient || object.hasLoadedMembers(at: slot) {
                for id in object.toManyMembers(at: slot) { reach(id) }
            } else {
                unloaded[ObjectIdentifier(relationship), default: (relationship, [])].objects.append(object)
            }
        }
        for (relationship, sources) in unloaded.values {
            let members = try store.members(ofAll: sources.map(\.objectID), relationship: RelationshipKey(relationship))
            for source in sources {
                source.loadPrefetchedMembers(members[source.objectID] ?? [], at: relationship.slot)
                for id in source.toManyMembers(at: relationship.slot) { reach(id) }
            }
        }
        return next
    }

    /// Fills every fault among `objects` with one query per entity, throwing the store's error.
    private func loadFaults(of objects: [ManagedObject], from store: any ObjectStore) throws {
        let faults = objects.filter { $0.isFault && $0.managedObjectContext === self && !$0.storage.flags.contains(.gone) }
        guard !faults.isEmpty else { return }
        let rows = try currentRows(of: faults.map(\.objectID), from: store)
        for object in faults where object.isFault { fill(object, with: rows[object.objectID]) }
    }
}
