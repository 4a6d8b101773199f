import Foundation

/// An object as the controller files it: the sort keys and section it has on one side of a
/// change.
struct PlacedObject {
    let object: ManagedObject
    let id: ManagedObjectID
    let keys: [Value]
    let section: String
}

/// The content before a batch, as much of it as the changes need: section names, and where the
/// changed objects were.
///
/// Built either from a whole copy of the old content (after a refetch) or, on the incremental
/// path, from index paths looked up before the content was changed in place — copying the
/// content there would copy every chunk the batch touches.
struct FetchedLayout {
    let sectionNames: [String]
    let indexByName: [String: Int]
    private let paths: [ManagedObjectID: IndexPath]
    private let content: FetchedContent?
    private let order: FetchSortOrder

    /// A layout that can answer for any object of `content`.
    init(_ content: FetchedContent, order: FetchSortOrder) {
        sectionNames = content.sections.map(\.name)
        indexByName = content.indexByName
        paths = [:]
        self.content = content
        self.order = order
    }

    /// A layout that knows only the given objects' index paths.
    init(sectionNames: [String], indexByName: [String: Int], paths: [ManagedObjectID: IndexPath], order: FetchSortOrder) {
        self.sectionNames = sectionNames
        self.indexByName = indexByName
        self.paths = paths
        self.content = nil
        self.order = order
    }

    /// Whether the layout can list a section's objects (needed when sections move).
    var hasContent: Bool { content != nil }

    func indexPath(of placed: PlacedObject) -> IndexPath? {
        if let content { return content.indexPath(section: placed.section, keys: placed.keys, primaryKey: placed.id.primaryKey, in: order) }
        return paths[placed.id]
    }

    func entries(ofSection name: String) -> [FetchedEntry] {
        guard let content, let index = content.indexByName[name] else { return [] }
        return content.sections[index].run.entries
    }
}

/// One batch of changes, in the form table views apply: section deletes and inserts, then
/// object deletes, inserts, moves and updates with their index paths.
struct FetchedChanges {
    struct SectionChange {
        let section: FetchedSection
        let index: Int
        let type: FetchedResultsChangeType
    }

    struct ObjectChange {
        let object: ManagedObject
        let id: ManagedObjectID
        let type: FetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    private(set) var sections: [SectionChange] = []
    private(set) var objects: [ObjectChange] = []
    private var insertedSectionNames: [String] = []
    private var deletedSectionNames: [String] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// The changes that turn `old` into `new`.
    ///
    /// - Parameters:
    ///   - deleted: objects that left the results (old placement).
    ///   - inserted: objects that entered (new placement).
    ///   - repositioned: objects that stayed but whose sort keys or section changed.
    ///   - kept: objects that stayed with the same keys and section but changed otherwise.
    ///
    /// Every other object kept its keys and section, so it kept its order relative to the others
    /// like it: only the objects named here can move. Costs O(k log n) for k named objects.
    init(
        from old: FetchedLayout,
        to new: FetchedContent,
        order: FetchSortOrder,
        deleted: [PlacedObject],
        inserted: [PlacedObject],
        repositioned givenRepositioned: [(old: PlacedObject, new: PlacedObject)],
        kept givenKept: [(old: PlacedObject, new: PlacedObject)]
    ) {
        // Sections: those in both keep their relative order except the fewest possible, which
        // count as deleted and inserted again.
        let movedSections = Self.movedSections(from: old.sectionNames, to: new)
        var deletedSections = IndexSet()
        for (index, name) in old.sectionNames.enumerated() where new.indexByName[name] == nil || movedSections.contains(name) {
            deletedSections.insert(index)
        }
        var insertedSections = IndexSet()
        for (index, section) in new.sections.enumerated() where old.indexByName[section.name] == nil || movedSections.contains(section.name) {
            insertedSections.insert(index)
        }

        var repositioned = givenRepositioned
        var keptObjects = givenKept
        if !movedSections.isEmpty {
            // Every object of a moved section moves with it.
            var handled = Set(deleted.map(\.id))
            for pair in repositioned { handled.insert(pair.old.id) }
            keptObjects.removeAll { movedSections.contains($0.old.section) }
            for name in movedSections.sorted() {
                precondition(old.hasContent, "fetched results: sections moved, but the old content was not kept")
                for entry in old.entries(ofSection: name) where !handled.contains(entry.id) {
                    let placed = PlacedObject(object: entry.object, id: entry.id, keys: entry.keys, section: name)
                    repositioned.append((placed, placed))
                }
            }
        }

        func oldPath(_ placed: PlacedObject) -> IndexPath {
            guard let path = old.indexPath(of: placed) else {
                preconditionFailure("fetched results: \(placed.id) is not where the controller filed it")
            }
            return path
        }
        func newPath(_ placed: PlacedObject) -> IndexPath {
            guard let path = new.indexPath(section: placed.section, keys: placed.keys, primaryKey: placed.id.primaryKey, in: order) else {
                preconditionFailure("fetched results: \(placed.id) was not filed")
            }
            return path
        }

        // Which repositioned objects really move: within one section that stays in place, an
        // object stays if it has as many unchanged objects before it as before the change
        // (and, among those in the same gap, keeps its order — the longest increasing run).
        struct Located {
            let placed: PlacedObject
            let from: IndexPath
            let to: IndexPath
        }
        let located = repositioned.map { Located(placed: $0.new, from: oldPath($0.old), to: newPath($0.new)) }
        var oldSpecial: [Int: [Int]] = [:]
        var newSpecial: [Int: [Int]] = [:]
        let deletedPaths = deleted.map(oldPath)
        let insertedPaths = inserted.map(newPath)
        for path in deletedPaths { oldSpecial[path.section, default: []].append(path.row) }
        for path in insertedPaths { newSpecial[path.section, default: []].append(path.row) }
        for item in located {
            oldSpecial[item.from.section, default: []].append(item.from.row)
            newSpecial[item.to.section, default: []].append(item.to.row)
        }
        for key in oldSpecial.keys { oldSpecial[key]!.sort() }
        for key in newSpecial.keys { newSpecial[key]!.sort() }

        var moving: [Located] = []
        var inPlace: [Located] = []
        var gaps: [[Int]: [Located]] = [:]
        for (position, item) in repositioned.enumerated() {
            let entry = located[position]
            guard item.old.section == item.new.section, !movedSections.contains(item.old.section) else {
                moving.append(entry)
                continue
            }
            let unchangedBefore = entry.from.row - countBelow(entry.from.row, in: oldSpecial[entry.from.section] ?? [])
            let unchangedBeforeNow = entry.to.row - countBelow(entry.to.row, in: newSpecial[entry.to.section] ?? [])
            if unchangedBefore != unchangedBeforeNow {
                moving.append(entry)
            } else {
                gaps[[entry.from.section, unchangedBefore], default: []].append(entry)
            }
        }
        for (_, group) in gaps {
            let byOld = group.sorted { $0.from.row < $1.from.row }
            let staying = longestIncreasingSubsequence(byOld.map(\.to.row))
            for (position, item) in byOld.enumerated() {
                if staying.contains(position) { inPlace.append(item) } else { moving.append(item) }
            }
        }

        // Report, in table-view batch order.
        for index in deletedSections.reversed() {
            // A deleted section's objects all left it: they are its old content.
            let name = old.sectionNames[index]
            var run = OrderedRun()
            for placed in deleted where placed.section == name {
                run.insert(FetchedEntry(object: placed.object, id: placed.id, keys: placed.keys), in: order)
            }
            for pair in repositioned where pair.old.section == name {
                run.insert(FetchedEntry(object: pair.old.object, id: pair.old.id, keys: pair.old.keys), in: order)
            }
            sections.append(SectionChange(section: FetchedSection(name: name, run: run), index: index, type: .delete))
            deletedSectionNames.append(name)
        }
        for index in insertedSections {
            sections.append(SectionChange(section: new.sections[index], index: index, type: .insert))
            insertedSectionNames.append(new.sections[index].name)
        }
        var deletes = zip(deleted, deletedPaths).map { ObjectChange(object: $0.object, id: $0.id, type: .delete, indexPath: $1, newIndexPath: nil) }
        var inserts = zip(inserted, insertedPaths).map { ObjectChange(object: $0.object, id: $0.id, type: .insert, indexPath: nil, newIndexPath: $1) }
        var moves: [ObjectChange] = []
        for item in moving {
            // UITableView cannot move a row out of a deleted section or into an inserted one, and
            // a move to the same index path reads as no move: those are a delete and an insert.
            if deletedSections.contains(item.from.section) || insertedSections.contains(item.to.section) || item.from == item.to {
                deletes.append(ObjectChange(object: item.placed.object, id: item.placed.id, type: .delete, indexPath: item.from, newIndexPath: nil))
                inserts.append(ObjectChange(object: item.placed.object, id: item.placed.id, type: .insert, indexPath: nil, newIndexPath: item.to))
            } else {
                moves.append(ObjectChange(object: item.placed.object, id: item.placed.id, type: .move, indexPath: item.from, newIndexPath: item.to))
            }
        }
        deletes.sort { $0.indexPath! > $1.indexPath! }
        inserts.sort { $0.newIndexPath! < $1.newIndexPath! }
        moves.sort { $0.newIndexPath! < $1.newIndexPath! }
        var updates = inPlace.map { ObjectChange(object: $0.placed.object, id: $0.placed.id, type: .update, indexPath: $0.from, newIndexPath: $0.to) }
        updates += keptObjects.map {
            ObjectChange(object: $0.new.object, id: $0.new.id, type: .update, indexPath: oldPath($0.old), newIndexPath: newPath($0.new))
        }
        updates.sort { $0.indexPath! < $1.indexPath! }
        objects = deletes + inserts + moves + updates
        movedIdentifiers = moving.map(\.placed.id)
        insertedIdentifiers = inserted.map(\.id)
        deletedIdentifiers = deleted.map(\.id)
    }

    /// Sections in both old and new content that changed places relative to the others (the
    /// fewest such sections): they count as deleted and inserted again.
    static func movedSections(from oldNames: [String], to new: FetchedContent) -> Set<String> {
        let survivors = oldNames.compactMap { name in new.indexByName[name].map { (name: name, newIndex: $0) } }
        let staying = longestIncreasingSubsequence(survivors.map(\.newIndex))
        var moved = Set<String>()
        for (position, survivor) in survivors.enumerated() where !staying.contains(position) { moved.insert(survivor.name) }
        return moved
    }

    private var movedIdentifiers: [ManagedObjectID] = []
    private var insertedIdentifiers: [ManagedObjectID] = []
    private var deletedIdentifiers: [ManagedObjectID] = []

    /// The batch as one difference between two snapshots.
    func difference(before: FetchedResultsSnapshot, after: FetchedContent) -> FetchedResultsDifference {
        FetchedResultsDifference(
            before: before,
            after: FetchedResultsSnapshot(content: after),
            insertedSectionIdentifiers: insertedSectionNames,
            deletedSectionIdentifiers: deletedSectionNames,
            insertedItemIdentifiers: insertedIdentifiers,
            deletedItemIdentifiers: deletedIdentifiers,
            movedItemIdentifiers: movedIdentifiers,
            updatedItemIdentifiers: objects.filter { $0.type == .update }.map(\.id)
        )
    }
}

/// How many values of a sorted array are below `value`.
private func countBelow(_ value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
        let mid = (low + high) / 2
        if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}

/// The positions of one longest strictly increasing subsequence of `values`.
func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []  // positions; values[tails[k]] is the smallest tail of a run of k + 1
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[position] = tails[low - 1] }
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var result = Set<Int>()
    var position = tails.last!
    while position >= 0 {
        result.insert(position)
        position = previous[position]
    }
    return result
}
