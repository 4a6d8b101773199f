/// A context's objects with unsaved changes, held strongly, in the order they first changed.
///
/// The order is what a save sorts by entity and key: an import's objects come in key order,
/// so the sort finds them sorted, and each of the save's passes walks the objects in the order
/// they were made — in memory order — instead of a hash table's. An object's position is kept
/// in its storage (``ObjectStorage/changeIndex``), so adding, finding and removing one hash
/// nothing. A position left behind by a removal is harmless: an object is a member only while
/// the slot at its position holds it.
struct ChangedObjects {
    /// Members at their positions; `nil` where one was removed.
    private var slots: ContiguousArray<ManagedObject?> = []
    /// How many members there are.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Whether `object` is a member.
    @inline(__always)
    func contains(_ object: ManagedObject) -> Bool {
        let index = object.storage.changeIndex
        return index < slots.count && slots[index] === object
    }

    /// Adds `object` after the others, unless it is a member already.
    mutating func insert(_ object: ManagedObject) {
        guard !contains(object) else { return }
        object.storage.changeIndex = slots.count
        slots.append(object)
        count += 1
    }

    /// Removes `object` if it is a member.
    mutating func remove(_ object: ManagedObject) {
        guard contains(object) else { return }
        slots[object.storage.changeIndex] = nil
        count -= 1
        if count == 0 {
            slots.removeAll()
        } else if slots.count >= 64 && count * 2 < slots.count {
            compact()
        }
    }

    /// Removes every member.
    mutating func removeAll() {
        slots = []
        count = 0
    }

    /// The members, in the order they first changed.
    var values: [ManagedObject] {
        var members: [ManagedObject] = []
        members.reserveCapacity(count)
        for case let object? in slots { members.append(object) }
        return members
    }

    /// Whether a member satisfies `predicate` (without collecting the members).
    func contains(where predicate: (ManagedObject) throws -> Bool) rethrows -> Bool {
        for case let object? in slots where try predicate(object) { return true }
        return false
    }

    /// Drops the slots of removed members, so that removals cannot grow the table forever.
    private mutating func compact() {
        var kept = ContiguousArray<ManagedObject?>()
        kept.reserveCapacity(count)
        for case let object? in slots {
            object.storage.changeIndex = kept.count
            kept.append(object)
        }
        slots = kept
    }
}
