import Foundation

extension FetchedResultsEngine {
    /// Applies the changes of a few objects to the content without refetching: each candidate
    /// is re-evaluated in memory, taken out at its old place and put back at its new one.
    ///
    /// - Throws: when the predicate cannot be evaluated or the sections would overlap; the
    ///   content is then left as it was.
    func applyIncrementally(
        _ candidates: [ManagedObjectID: ManagedObject],
        updated: Set<ManagedObjectID>,
        touched: Set<ManagedObjectID> = []
    ) throws {
        var deleted: [PlacedObject] = []
        var inserted: [PlacedObject] = []
        var repositioned: [(old: PlacedObject, new: PlacedObject)] = []
        var kept: [(old: PlacedObject, new: PlacedObject)] = []
        // Where they are is where they stay: only what a row shows of them may have changed.
        for id in touched {
            guard let placement = placements[id] else { continue }
            let place = PlacedObject(object: context.object(with: id), id: id, keys: placement.keys, section: placement.section)
            kept.append((place, place))
        }
        // Objects merged from another context arrive as faults: read them in one query each entity.
        context.fulfillFaults(of: Array(candidates.values))
        for (id, object) in candidates {
            let before = placements[id].map { PlacedObject(object: object, id: id, keys: $0.keys, section: $0.section) }
            let after = try isMember(object) ? placed(object) : nil
            switch (before, after) {
            case (nil, nil):
                continue
            case let (before?, nil):
                deleted.append(before)
            case let (nil, after?):
                inserted.append(after)
            case let (before?, after?):
                if before.keys == after.keys && before.section == after.section {
                    if updated.contains(id) { kept.append((before, after)) }
                } else {
                    repositioned.append((before, after))
                }
            }
        }
        guard !(deleted.isEmpty && inserted.isEmpty && repositioned.isEmpty && kept.isEmpty) else { return }
        try apply(deleted: deleted, inserted: inserted, repositioned: repositioned, kept: kept)
    }

    /// Changes the content by one batch and reports it to the delegate.
    func apply(
        deleted: [PlacedObject],
        inserted: [PlacedObject],
        repositioned: [(old: PlacedObject, new: PlacedObject)],
        kept: [(old: PlacedObject, new: PlacedObject)]
    ) throws {

        // Where the changed objects are, looked up before anything moves: the content is then
        // changed in place (a copy would copy every chunk the batch touches).
        var oldPaths: [ManagedObjectID: IndexPath] = [:]
        for placed in deleted + repositioned.map(\.old) + kept.map(\.old) {
            oldPaths[placed.id] = content.indexPath(section: placed.section, keys: placed.keys, primaryKey: placed.id.primaryKey, in: order)
        }
        let oldNames = content.sections.map(\.name)
        let oldIndexByName = content.indexByName
        let edits = FetchedEdits(deleted: deleted, inserted: inserted, repositioned: repositioned)
        edits.apply(to: &content, in: order)
        do {
            try content.settle(in: order, describingSort: sortDescription)
        } catch {
            content = edits.undone(content, in: order)
            throw error
        }

        let layout: FetchedLayout
        if FetchedChanges.movedSections(from: oldNames, to: content).isEmpty {
            layout = FetchedLayout(sectionNames: oldNames, indexByName: oldIndexByName, paths: oldPaths, order: order)
        } else {
            layout = FetchedLayout(edits.undone(content, in: order), order: order)
        }
        let changes = FetchedChanges(
            from: layout,
            to: content,
            order: order,
            deleted: deleted,
            inserted: inserted,
            repositioned: repositioned,
            kept: kept
        )
        for object in deleted { placements[object.id] = nil }
        for object in inserted { placements[object.id] = Placement(keys: object.keys, section: object.section) }
        for pair in repositioned { placements[pair.new.id] = Placement(keys: pair.new.keys, section: pair.new.section) }
        let after = content
        let order = self.order
        commit(changes: changes, before: FetchedResultsSnapshot(making: { edits.undone(after, in: order) }))
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
        let changes = FetchedChanges(
            from: FetchedLayout(content, order: order),
            to: new,
            order: order,
            deleted: deleted,
            inserted: inserted,
            repositioned: repositioned,
            kept: kept
        )
        let before = FetchedResultsSnapshot(content: content)
        content = new
        placements = newPlacements
        commit(changes: changes, before: before)
    }

    /// An object's sort keys and section now.
    private func placed(_ object: ManagedObject) -> PlacedObject {
        PlacedObject(
            object: object,
            id: object.objectID,
            keys: order.keys(of: object),
            section: sectionPath.map { Self.sectionName(of: object, path: $0) } ?? ""
        )
    }
}

/// The edits of one batch, which can be applied to content and undone from it.
struct FetchedEdits {
    let deleted: [PlacedObject]
    let inserted: [PlacedObject]
    let repositioned: [(old: PlacedObject, new: PlacedObject)]

    func apply(to content: inout FetchedContent, in order: FetchSortOrder) {
        for placed in deleted { content.remove(placed.keys, placed.id.primaryKey, section: placed.section, in: order) }
        for pair in repositioned { content.remove(pair.old.keys, pair.old.id.primaryKey, section: pair.old.section, in: order) }
        for placed in inserted { content.insert(placed.entry, section: placed.section, in: order) }
        for pair in repositioned { content.insert(pair.new.entry, section: pair.new.section, in: order) }
    }

    /// The content before the edits, rebuilt from the content after them.
    func undone(_ after: FetchedContent, in order: FetchSortOrder) -> FetchedContent {
        var content = after
        for placed in inserted { content.remove(placed.keys, placed.id.primaryKey, section: placed.section, in: order) }
        for pair in repositioned { content.remove(pair.new.keys, pair.new.id.primaryKey, section: pair.new.section, in: order) }
        for placed in deleted { content.insert(placed.entry, section: placed.section, in: order) }
        for pair in repositioned { content.insert(pair.old.entry, section: pair.old.section, in: order) }
        // The content before was consistent, so settling cannot fail.
        try? content.settle(in: order, describingSort: "")
        return content
    }
}

extension PlacedObject {
    var entry: FetchedEntry { FetchedEntry(object: object, id: id, keys: keys) }
}
