import Foundation

extension ManagedObjectContext {
    /// Reads the objects along `keyPaths` from `objects` ahead of use, as Core Data's
    /// `relationshipKeyPathsForPrefetching` does: per key path step, one ordered query for the
    /// members of a to-many relationship (a fetch's sources, of dense keys, as one range of
    /// keys; others a few hundred per query) read straight into each source's members, and
    /// one query per entity for the related objects' rows, instead of one query per object.
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
        var held = [[ManagedObject]](repeating: [], count: objects.count)
        for keyPath in keyPaths {
            var level = PrefetchLevel(fetched: objects)
            for key in keyPath.split(separator: ".").map(String.init) {
                guard !level.objects.isEmpty else { break }
                try loadFaults(of: level.objects, from: store)
                level = try relatedObjects(of: level, key: key, keyPath: keyPath, store: store)
                for (index, object) in level.objects.enumerated() where !fetched.contains(ObjectIdentifier(object)) {
                    for root in level.roots(of: index) { held[root].append(object) }
                }
            }
            try loadFaults(of: level.objects, from: store)
        }
        for (object, related) in zip(objects, held) where !related.isEmpty { object.storage.holdPrefetched(related) }
    }

    /// The distinct objects `key` leads to from each of `level`'s, with the fetched objects each
    /// was reached from; to-many members are loaded on the way, one store read per
    /// relationship for the sources whose members are not loaded.
    private func relatedObjects(of level: PrefetchLevel, key: String, keyPath: String, store: any ObjectStore) throws -> PrefetchLevel {
        var next = PrefetchLevel()
        var indexByID: [ManagedObjectID: Int] = [:]
        func reach(_ id: ManagedObjectID, from source: Int) {
            if let index = indexByID[id] {
                if level.roots.isEmpty { next.roots[index].append(source) } else { next.roots[index].append(contentsOf: level.roots[source]) }
            } else {
                indexByID[id] = next.objects.count
                next.objects.append(object(with: id))
                next.roots.append(level.roots(of: source))
            }
        }
        // Sources whose members must be read, by relationship (subentities share it), as
        // indices into the level.
        var unloaded: [(relationship: RelationshipDescription, sources: [Int])] = []
        for (index, object) in level.objects.enumerated() where !object.isDeleted && !object.storage.flags.contains(.gone) {
            guard let slot = object.entity.slotByName[key], let relationship = object.entity.allProperties[slot] as? RelationshipDescription
            else {
                throw ObjectGraphError(
                    .invalidRequest,
                    "cannot prefetch '\(keyPath)': '\(key)' is not a relationship of \(object.entity.name)"
                )
            }
            if !relationship.isToMany {
                if case .objectID(let id) = object.storage.values[slot] { reach(id, from: index) }
            } else if relationship.isTransient || object.hasLoadedMembers(at: slot) {
                for id in object.toManyMembers(at: slot) { reach(id, from: index) }
            } else if let group = unloaded.firstIndex(where: { $0.relationship === relationship }) {
                unloaded[group].sources.append(index)
            } else {
                unloaded.append((relationship, [index]))
            }
        }
        for (relationship, sources) in unloaded {
            let slot = relationship.slot
            let members = try store.members(ofAll: sources.map { level.objects[$0].objectID }, relationship: RelationshipKey(relationship))
            for (source, stored) in zip(sources, members) {
                let object = level.objects[source]
                // Changes made in this context meanwhile are replayed on top (and members
                // loaded already are kept): the context's pending changes win over the store.
                object.loadPrefetchedMembers(stored, at: slot)
                for id in object.toManyMembers(at: slot) { reach(id, from: source) }
            }
        }
        return next
    }
}

/// The objects one step of a prefetched key path reached, each with the indices of the fetched
/// objects it was reached from.
private struct PrefetchLevel {
    var objects: [ManagedObject] = []
    /// The roots of each object; empty for the fetched objects themselves (each its own root).
    var roots: [[Int]] = []

    init() {}

    /// The fetched objects: the first level.
    init(fetched: [ManagedObject]) { objects = fetched }

    func roots(of index: Int) -> [Int] { roots.isEmpty ? [index] : roots[index] }
}
