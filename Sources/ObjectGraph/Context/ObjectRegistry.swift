/// A context's objects by ID, held weakly, as Core Data's contexts hold them: an object nobody
/// holds goes away (a later `object(with:)` makes a new one), while one object per ID exists as
/// long as anyone holds it (uniquing).
///
/// Objects with unsaved changes are held strongly elsewhere (the context's changed objects), so
/// they stay registered until saved or rolled back. Entries of released objects are swept out
/// when the table has grown to twice its size after the last sweep, so the cost is amortized
/// and memory follows what is alive.
struct ObjectRegistry {
    private struct Entry {
        weak var object: ManagedObject?
    }

    private var entries: [ManagedObjectID: Entry] = [:]
    /// The entry count after the last sweep; the next sweep runs at twice that.
    private var sweptCount = 0

    /// The live object registered under `id`; setting `nil` unregisters it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get { entries[id]?.object }
        set {
            guard let newValue else {
                entries[id] = nil
                return
            }
            entries[id] = Entry(object: newValue)
            if entries.count > max(1_024, sweptCount * 2) { sweep() }
        }
    }

    /// The live objects, in no particular order.
    var values: [ManagedObject] { entries.values.compactMap(\.object) }

    /// Unregisters `id`, returning its object if it was alive.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        entries.removeValue(forKey: id)?.object
    }

    mutating func removeAll() {
        entries = [:]
        sweptCount = 0
    }

    /// How many entries the table holds (live or not yet swept), for tests.
    var entryCount: Int { entries.count }

    /// Drops the entries of released objects.
    mutating func sweep() {
        entries = entries.filter { $0.value.object != nil }
        sweptCount = entries.count
    }
}
