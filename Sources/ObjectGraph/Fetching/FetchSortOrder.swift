import Foundation

/// A fetch's sort descriptors as one total order: each descriptor in turn, then the primary
/// key, exactly as the SQLite store's `ORDER BY` (so objects sorted in memory and rows sorted
/// by SQL agree).
struct FetchSortOrder {
    let descriptors: [FetchSortDescriptor]
    /// Each descriptor's key path, split once (`nil` sorts by the object itself).
    private let paths: [[String]?]

    init(descriptors: [FetchSortDescriptor]) {
        self.descriptors = descriptors
        paths = descriptors.map { $0.key.map(Self.components) }
    }

    /// The components of a key path.
    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".").map(String.init)
    }

    /// The values `object` is sorted by, one per descriptor.
    func keys(of object: ManagedObject) -> [Value] {
        var keys: [Value] = []
        keys.reserveCapacity(paths.count)
        for path in paths { keys.append(path.map { Self.value(of: object, along: $0) } ?? .objectID(object.objectID)) }
        return keys
    }

    /// The stored value at the end of a key path (split beforehand) through to-one
    /// relationships; `.null` where the path meets `nil`, an unknown key, or a to-many
    /// relationship.
    static func value(of start: ManagedObject, along path: [String]) -> Value {
        var object = start
        for (index, component) in path.enumerated() {
            guard let slot = object.entity.slot(forKey: component) else { return .null }
            object.fulfillIfNeeded()
            let value = object.storage.values[slot]
            if index == path.count - 1 { return value }
            guard case .objectID(let id) = value, let context = object.managedObjectContext else { return .null }
            object = context.object(with: id)
        }
        return .objectID(start.objectID)
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
