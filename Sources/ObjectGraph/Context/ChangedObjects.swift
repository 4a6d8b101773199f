/// A context's objects with unsaved changes, held strongly, in the order they first changed
/// (until one is removed: the last member takes its place).
///
/// The order is what a save sorts by entity and key: an import's objects come in key order,
/// so the sort finds them sorted, and each of the save's passes walks the objects in the order
/// they were made — in memory order — instead of a hash table's. An object's position is kept
/// in its storage (``ObjectStorage/changeIndex``), so adding, finding and removing one hash
/// nothing, and the members are one array without holes: a save takes it as it is, without
/// retaining 50,000 objects into a copy and releasing them again.
struct ChangedObjects {
    /// The members.
    private(set) var values: [ManagedObject] = []
    /// Moves with every insert and removal: a save that finds the number it started with knows
    /// the members are those it ordered.
    private(set) var generation: UInt64 = 0
    /// The places of members past the 16,777,214th, which an object's 24-bit
    /// ``ObjectStorage/changeIndex`` cannot hold (a context changing that many objects at once).
    private var farPlaces: [ObjectIdentifier: Int] = [:]
    /// The first place kept in ``farPlaces`` (lower only in tests).
    private let farFrom: Int

    init(farFrom: Int = Int(ObjectStorage.noChangeIndex)) {
        self.farFrom = min(farFrom, Int(ObjectStorage.noChangeIndex))
    }

    /// How many members there are.
    var count: Int { values.count }
    var isEmpty: Bool { values.isEmpty }

    /// Where `object` is among the members, if it is one.
    @inline(__always)
    private func place(of object: ManagedObject) -> Int? {
        let index = Int(object.storage.changeIndex)
        if index < values.count && values[index] === object { return index }
        guard index == Int(ObjectStorage.noChangeIndex), !farPlaces.isEmpty else { return nil }
        return farPlaces[ObjectIdentifier(object)]
    }

    /// Records that `object` is at `index`.
    @inline(__always)
    private mutating func put(_ object: ManagedObject, at index: Int) {
        if index < farFrom {
            object.storage.changeIndex = UInt32(index)
        } else {
            object.storage.changeIndex = UInt32(ObjectStorage.noChangeIndex)
            farPlaces[ObjectIdentifier(object)] = index
        }
    }

    /// Whether `object` is a member.
    @inline(__always)
    func contains(_ object: ManagedObject) -> Bool {
        place(of: object) != nil
    }

    /// Adds `object` after the others, unless it is a member already.
    mutating func insert(_ object: ManagedObject) {
        guard !contains(object) else { return }
        put(object, at: values.count)
        values.append(object)
        generation &+= 1
    }

    /// Removes `object` if it is a member; the last member takes its place.
    mutating func remove(_ object: ManagedObject) {
        guard let index = place(of: object) else { return }
        let last = values.removeLast()
        if !farPlaces.isEmpty {
            farPlaces[ObjectIdentifier(last)] = nil
            farPlaces[ObjectIdentifier(object)] = nil
        }
        if last !== object {
            values[index] = last
            put(last, at: index)
        }
        generation &+= 1
    }

    /// Removes every member.
    mutating func removeAll() {
        values = []
        farPlaces = [:]
        generation &+= 1
    }

    /// Whether a member satisfies `predicate`.
    func contains(where predicate: (ManagedObject) throws -> Bool) rethrows -> Bool {
        try values.contains(where: predicate)
    }
}
