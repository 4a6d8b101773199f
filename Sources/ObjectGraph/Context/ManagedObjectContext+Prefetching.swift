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
        // Each fetched object holds what was prefetched from it, so the related objects stay
        // registered and loaded while it lives (the registry alone holds them weakly). Fetched
        // objects are held by the caller and never by each other: no cycle.
        let fetched = Set(objects.map(ObjectIdentifier.init))
        var held: [ObjectIdentifier: [ManagedObject]] = [:]
        for keyPath in keyPaths {
            var level = objects.map { (object: $0, roots: [$0]) }
            for key in keyPath.split(separator: ".").map(String.init) {
                guard !level.isEmpty else { break }
                try loadFaults(of: level.map(\.object), from: store)
                level = try relatedObjects(of: level, key: key, keyPath: keyPath, store: store)
                for (object, roots) in level where !fetched.contains(ObjectIdentifier(object)) {
                    for root in roots { held[ObjectIdentifier(root), default: []].append(object) }
                }
            }
            try loadFaults(of: level.map(\.object), from: store)
        }
        for object in objects {
            if let related = held[ObjectIdentifier(object)] { object.storage.holdPrefetched(related) }
        }
    }

    /// The distinct objects `key` leads to from each of `sources`, with the fetched objects each
    /// was reached from; to-many members are loaded on the way.
    private func relatedObjects(
        of sources: [(object: ManagedObject, roots: [ManagedObject])],
        key: String,
        keyPath: String,
        store: any ObjectStore
    ) throws -> [(object: ManagedObject, roots: [ManagedObject])] {
        var next: [(object: ManagedObject, roots: [ManagedObject])] = []
        var indexByID: [ManagedObjectID: Int] = [:]
        func reach(_ id: ManagedObjectID, from roots: [ManagedObject]) {
            if let index = indexByID[id] {
                next[index].roots.append(contentsOf: roots)
            } else {
                indexByID[id] = next.count
                next.append((object(with: id), roots))
            }
        }
        // Sources whose members must be read, by relationship (subentities share it).
        var unloaded: [ObjectIdentifier: (relationship: RelationshipDescription, sources: [(object: ManagedObject, roots: [ManagedObject])])] =
            [:]
        for source in sources where !source.object.isDeleted && !source.object.storage.flags.contains(.gone) {
            let object = source.object
            guard let slot = object.entity.slotByName[key], let relationship = object.entity.allProperties[slot] as? RelationshipDescription
            else {
                throw ObjectGraphError(
                    .invalidRequest,
                    "cannot prefetch '\(keyPath)': '\(key)' is not a relationship of \(object.entity.name)"
                )
            }
            if !relationship.isToMany {
                if case .objectID(let id) = object.storage.values[slot] { reach(id, from: source.roots) }
            } else if relationship.isTransient || object.hasLoadedMembers(at: slot) {
                for id in object.toManyMembers(at: slot) { reach(id, from: source.roots) }
            } else {
                unloaded[ObjectIdentifier(relationship), default: (relationship, [])].sources.append(source)
            }
        }
        for (relationship, sources) in unloaded.values {
            let members = try store.members(ofAll: sources.map(\.object.objectID), relationship: RelationshipKey(relationship))
            for source in sources {
                source.object.loadPrefetchedMembers(members[source.object.objectID] ?? [], at: relationship.slot)
                for id in source.object.toManyMembers(at: relationship.slot) { reach(id, from: source.roots) }
            }
        }
        return next
    }
}
