import Foundation

/// One section of a controller's content: its name and its sorted objects.
struct FetchedSection {
    let name: String
    var run: OrderedRun
}

/// A controller's whole content: contiguous sections in sort order.
///
/// A value: copying it is cheap (see ``OrderedRun``), which is how the controller keeps the
/// content before a change for index paths, snapshots and rollback.
struct FetchedContent {
    private(set) var sections: [FetchedSection] = []
    private(set) var indexByName: [String: Int] = [:]
    /// Without a section key path there is one section, named "", even when it is empty.
    let isSectioned: Bool

    init(isSectioned: Bool) {
        self.isSectioned = isSectioned
        if !isSectioned {
            sections = [FetchedSection(name: "", run: OrderedRun())]
            indexByName = ["": 0]
        }
    }

    /// Content from entries in sort order and their section names.
    ///
    /// - Throws: ``ObjectGraphError/Code/sectionsNotContiguous`` when a section name comes back
    ///   after another section.
    init(sortedEntries entries: [FetchedEntry], sectionNames: [String]?, describingSort sort: String) throws {
        self.init(isSectioned: sectionNames != nil)
        guard let sectionNames else {
            sections[0].run = OrderedRun(sorted: entries)
            return
        }
        var start = 0
        while start < entries.count {
            let name = sectionNames[start]
            var end = start + 1
            while end < entries.count && sectionNames[end] == name { end += 1 }
            if indexByName[name] != nil {
                throw Self.notContiguous(name, after: sections[sections.count - 1].name, row: start, sort: sort)
            }
            indexByName[name] = sections.count
            sections.append(FetchedSection(name: name, run: OrderedRun(sorted: Array(entries[start..<end]))))
            start = end
        }
    }

    static func notContiguous(_ name: String, after other: String, row: Int?, sort: String) -> ObjectGraphError {
        let whereText = row.map { " at object \($0)" } ?? ""
        return ObjectGraphError(
            .sectionsNotContiguous,
            "section '\(name)' appears again\(whereText) after section '\(other)': the sort \(sort) does not keep each section's objects together; sort first by the section key path (or by a key that orders sections the same way)"
        )
    }

    var numberOfObjects: Int { sections.reduce(0) { $0 + $1.run.count } }

    /// The index path of an entry with these keys in the named section.
    func indexPath(section name: String, keys: [Value], primaryKey: Int64, in order: FetchSortOrder) -> IndexPath? {
        guard let section = indexByName[name], let row = sections[section].run.row(of: keys, primaryKey, in: order) else { return nil }
        return IndexPath(row: row, section: section)
    }

    // MARK: Changing

    /// Removes the entry with these keys from the named section; returns whether it was there.
    @discardableResult
    mutating func remove(_ keys: [Value], _ primaryKey: Int64, section name: String, in order: FetchSortOrder) -> Bool {
        guard let index = indexByName[name] else { return false }
        return sections[index].run.remove(keys, primaryKey, in: order)
    }

    /// Inserts an entry into its section, creating the section where the entry's keys place it.
    mutating func insert(_ entry: FetchedEntry, section name: String, in order: FetchSortOrder) {
        if let index = indexByName[name] {
            sections[index].run.insert(entry, in: order)
            return
        }
        var low = 0
        var high = sections.count
        while low < high {
            let mid = (low + high) / 2
            // Sections may be momentarily empty while a batch is applied; they sort by nothing.
            guard let first = sections[mid].run.first else {
                high = mid
                continue
            }
            if order.compare(first.keys, first.primaryKey, entry.keys, entry.primaryKey) == .orderedAscending { low = mid + 1 } else { high = mid }
        }
        var run = OrderedRun()
        run.insert(entry, in: order)
        sections.insert(FetchedSection(name: name, run: run), at: low)
        reindex()
    }

    /// Drops empty sections (a sectioned list has no empty sections), then puts sections back in
    /// the order of their first objects if a change moved one; throws if sections overlap.
    mutating func settle(in order: FetchSortOrder, describingSort sort: String) throws {
        guard isSectioned else { return }
        if sections.contains(where: { $0.run.isEmpty }) {
            sections.removeAll { $0.run.isEmpty }
            reindex()
        }
        if firstOverlap(in: order) != nil {
            sections.sort { lhs, rhs in
                let a = lhs.run.first!
                let b = rhs.run.first!
                return order.compare(a.keys, a.primaryKey, b.keys, b.primaryKey) == .orderedAscending
            }
            reindex()
            if let index = firstOverlap(in: order) {
                throw Self.notContiguous(sections[index + 1].name, after: sections[index].name, row: nil, sort: sort)
            }
        }
    }

    /// The first section whose last object sorts after the next section's first object.
    private func firstOverlap(in order: FetchSortOrder) -> Int? {
        guard sections.count > 1 else { return nil }
        for index in 0..<(sections.count - 1) {
            let last = sections[index].run.last!
            let next = sections[index + 1].run.first!
            if order.compare(last.keys, last.primaryKey, next.keys, next.primaryKey) != .orderedAscending { return index }
        }
        return nil
    }

    private mutating func reindex() {
        indexByName = [:]
        for (index, section) in sections.enumerated() { indexByName[section.name] = index }
    }
}
