import Foundation

extension FetchedResultsEngine {
    /// Applies the changes of a few objects to the content without refetching: each candidate
    /// is re-evaluated in memory, taken out at its old place and put back at its new one.
    ///
    /// - Throws: when the predicate cannot be evaluated or the sections would overlap; the
    ///   content is then left as it was.
    func applyIncrementally(_ candidates: [ManagedObjectID: ManagedObject], updated: Set<ManagedObjectID>) throws {
        var new = content
        var deleted: [PlacedObject] = []
        var inserted: [PlacedObject] = []
        var repositioned: [(old: PlacedObject, new: PlacedObject)] = []
        var kept: [(old: PlacedObject, new: PlacedObject)] = []
        for (id, object) in candidates {
            let before = placements[id].map { PlacedObject(object: object, id: id, keys: $0.keys, section: $0.section) }
            let after = try isMember(object) ? placed(object) : nil
            switch (before, after) {
            case (nil, nil):
                continue
            case let (before?, nil):
                deleted.append(before)
                new.remove(before.keys, id.primaryKey, section: before.section, in: order)
            case let (nil, after?):
                inserted.append(after)
            case let (before?, after?):
                if before.keys == after.keys && before.section == after.section {
                    if updated.contains(id) { kept.append((before, after)) }
                } else {
                    repositioned.append((before, after))
                    new.remove(before.keys, id.primaryKey, section: before.section, in: order)
                }
            }
        }
        guard !(deleted.isEmpty && inserted.isEmpty && repositioned.isEmpty && kept.isEmpty) else { return }
        for object in inserted { new.insert(FetchedEntry(object: object.object, id: object.id, keys: object.keys), section: object.section, in: order) }
        for pair in repositioned { new.insert(FetchedEntry(object: pair.new.object, id: pair.new.id, keys: pair.new.keys), section: pair.new.section, in: order) }
        try new.settle(in: order, describingSort: sortDescription)

        let changes = FetchedChanges(from: content, to: new, order: order, deleted: deleted, inserted: inserted, repositioned: repositioned, kept: kept)
        for object in deleted { placements[object.id] = nil }
        for object in inserted { placements[object.id] = Placement(keys: object.keys, section: object.section) }
        for pair in repositioned { placements[pair.new.id] = Placement(keys: pair.new.keys, section: pair.new.section) }
        commit(new, placements: nil, changes: changes)
    }

    /// Refetches everything and reports the difference (after `reset()`, with a fetch limit or
    /// offset, or when a dependency cannot be walked back).
    func refetchAndReport(updated: Set<ManagedObjectID>) throws {
        let objects = try context.fetch(makeRequest())
        let (entries, names) = place(objects, in: order)
        let new = try FetchedContent(sortedEntries: entries, sectionNames: names, describingSort: sortDescription)
        var newPlacements: [ManagedObjectID: Placement] = [:]
        newPlacements.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() { newPlacements[entry.id] = Placement(keys: entry.keys, section: names?[index] ?? "") }

        var deleted: [PlacedObject] = []
        var inserted: [PlacedObject] = []
        var repositioned: [(old: PlacedObject, new: PlacedObject)] = []
        var kept: [(old: PlacedObject, new: PlacedObject)] = []
        for section in content.sections {
            for entry in section.run.entries {
                let before = PlacedObject(object: entry.object, id: entry.id, keys: entry.keys, section: section.name)
                guard let placement = newPlacements[entry.id] else {
                    deleted.append(before)
                    continue
                }
                let object = context.registeredObject(for: entry.id) ?? entry.object
                let after = PlacedObject(object: object, id: entry.id, keys: placement.keys, section: placement.section)
                if placement.keys != entry.keys || placement.section != section.name {
                    repositioned.append((before, after))
                } else if updated.contains(entry.id) {
                    kept.append((before, after))
                }
            }
        }
        for (index, entry) in entries.enumerated() where placements[entry.id] == nil {
            inserted.append(PlacedObject(object: entry.object, id: entry.id, keys: entry.keys, section: names?[index] ?? ""))
        }
        let changes = FetchedChanges(from: content, to: new, order: order, deleted: deleted, inserted: inserted, repositioned: repositioned, kept: kept)
        commit(new, placements: newPlacements, changes: changes)
    }

    /// An object's sort keys and section now.
    private func placed(_ object: ManagedObject) -> PlacedObject {
        PlacedObject(object: object, id: object.objectID, keys: order.keys(of: object),
                     section: sectionNameKeyPath.map { Self.sectionName(of: object, keyPath: $0) } ?? "")
    }
}
