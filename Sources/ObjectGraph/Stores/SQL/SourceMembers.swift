/// The members of many sources' to-many relationship, filled from the rows of the engine's
/// members query (``SQLStoreLayout/membersQuery(_:)``), which come ordered by source key:
/// each row goes to the source a cursor over the keys in ascending order is at, so a read of
/// thousands of members hashes nothing and keeps no dictionary.
///
/// The sources are objects of one relationship's entity and its subentities, which share a
/// table and so a key space: each key names one source.
package struct SourceMembers {
    /// The members of each source, at the source's index in the sources given.
    package private(set) var members: [[ManagedObjectID]]
    /// The sources' keys, ascending.
    package let keys: [Int64]
    /// The index in the sources given of the source at each place of `keys`; `nil` when the
    /// sources came ascending (the common case: a fetch sorted by nothing or by key).
    private let indices: [Int]?
    /// The place in `keys` of the source the last row belonged to.
    private var cursor = 0

    /// Members for `sources`, each `[]` until rows are added.
    package init(sources: [ManagedObjectID]) {
        members = Array(repeating: [], count: sources.count)
        var ascending = true
        var previous = Int64.min
        for id in sources {
            if id.primaryKey <= previous {
                ascending = false
                break
            }
            previous = id.primaryKey
        }
        if ascending {
            keys = sources.map(\.primaryKey)
            indices = nil
        } else {
            let order = sources.indices.sorted { sources[$0].primaryKey < sources[$1].primaryKey }
            keys = order.map { sources[$0].primaryKey }
            indices = order
        }
    }

    /// Whether the keys are dense enough to be read as one range (`BETWEEN first AND last`)
    /// rather than listed: the range holds at most as many other keys as sources, whose
    /// rows ``add(_:ofSource:)`` passes over.
    package var readsRange: Bool {
        guard let first = keys.first, let last = keys.last else { return false }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        return !overflow && span < 2 * Int64(keys.count)
    }

    /// Adds `member` to the source whose key is `source`; rows must come in ascending source
    /// order (members of one source in their own order). A row of a key that is no source's
    /// (a range read's) is passed over.
    package mutating func add(_ member: ManagedObjectID, ofSource source: Int64) {
        while cursor < keys.count && keys[cursor] < source { cursor += 1 }
        guard cursor < keys.count && keys[cursor] == source else { return }
        members[indices?[cursor] ?? cursor].append(member)
    }
}
