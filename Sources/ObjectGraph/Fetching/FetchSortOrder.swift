import Foundation

/// A fetch's sort descriptors as one total order: each descriptor in turn, then the primary
/// key, exactly as the SQLite store's `ORDER BY` (so objects sorted in memory and rows sorted
/// by SQL agree).
struct FetchSortOrder {
    let descriptors: [FetchSortDescriptor]

    /// The values `object` is sorted by, one per descriptor.
    func keys(of object: ManagedObject) -> [Value] {
        descriptors.map { $0.key.map(object.sortValue(forKeyPath:)) ?? .objectID(object.objectID) }
    }

    /// Compares two objects by their sort keys, then by primary key.
    func compare(_ lhs: [Value], _ lhsKey: Int64, _ rhs: [Value], _ rhsKey: Int64) -> ComparisonResult {
        for index in descriptors.indices {
            let order = descriptors[index].compare(lhs[index], rhs[index])
            if order != .orderedSame { return order }
        }
        return lhsKey < rhsKey ? .orderedAscending : lhsKey > rhsKey ? .orderedDescending : .orderedSame
    }

    /// Sorts objects as the store would.
    func sorted(_ objects: [ManagedObject]) -> [ManagedObject] {
        let keyed = objects.map { ($0, keys(of: $0)) }
        return keyed.sorted { lhs, rhs in
            compare(lhs.1, lhs.0.objectID.primaryKey, rhs.1, rhs.0.objectID.primaryKey) == .orderedAscending
        }.map(\.0)
    }
}
