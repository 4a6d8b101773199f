import Foundation

/// The members of a to-many relationship, and how they changed since the last save.
///
/// Changes made while the members are not loaded are kept as `added`/`removed` and applied when
/// they load, so changing one side of a relationship never has to read the other side's
/// whole membership.
struct ToManyState {
    /// The members, in order for an ordered relationship; `nil` until loaded.
    var members: [ManagedObjectID]?
    /// The same members, for constant-time membership tests.
    var memberSet: Set<ManagedObjectID> = []
    /// Members added since the last save.
    var added: Set<ManagedObjectID> = []
    /// Members removed since the last save.
    var removed: Set<ManagedObjectID> = []
    /// Whether an ordered relationship's order changed since the last save.
    var orderChanged = false

    var isLoaded: Bool { members != nil }

    /// Loads `stored` (the store's members), then replays the changes made meanwhile.
    mutating func load(_ stored: [ManagedObjectID]) {
        var order = stored.filter { !removed.contains($0) }
        var set = Set(order)
        for id in added.sorted(by: { $0.primaryKey < $1.primaryKey }) where set.insert(id).inserted {
            order.append(id)
        }
        members = order
        memberSet = set
    }

    mutating func add(_ id: ManagedObjectID, at index: Int? = nil) {
        if removed.remove(id) == nil { added.insert(id) }
        guard members != nil else { return }
        if memberSet.insert(id).inserted {
            if let index, index <= members!.count { members!.insert(id, at: index) } else { members!.append(id) }
        }
    }

    mutating func remove(_ id: ManagedObjectID) {
        if added.remove(id) == nil { removed.insert(id) }
        guard members != nil else { return }
        if memberSet.remove(id) != nil { members!.removeAll { $0 == id } }
    }

    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty || orderChanged }

    mutating func commit() {
        added = []
        removed = []
        orderChanged = false
    }
}

extension ObjectStorage {
    /// Makes relationship values that refer to a key of `replaced` refer to its value instead
    /// (temporary IDs turned permanent).
    mutating func replaceReferences(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        for index in values.indices {
            if case .objectID(let id) = values[index], let new = replaced[id] { values[index] = .objectID(new) }
        }
        for slot in Array(toMany.keys) {
            toMany[slot]?.replaceReferences(replaced)
        }
    }
}

extension ToManyState {
    /// Replaces the members that are keys of `replaced` by their values, in place.
    mutating func replaceReferences(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        func swap(_ set: inout Set<ManagedObjectID>) {
            guard !set.isDisjoint(with: replaced.keys) else { return }
            set = Set(set.map { replaced[$0] ?? $0 })
        }
        swap(&memberSet)
        swap(&added)
        swap(&removed)
        members = members?.map { replaced[$0] ?? $0 }
    }
}
