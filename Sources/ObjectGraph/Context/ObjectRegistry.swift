/// A context's objects by ID, held weakly, as Core Data's contexts hold them: an object nobody
/// holds goes away (a later `object(with:)` makes a new one), while one object per ID exists as
/// long as anyone holds it (uniquing).
///
/// Objects with unsaved changes are held strongly elsewhere (the context's changed objects), so
/// they stay registered until saved or rolled back.
///
/// Entries are unretained references, and an object removes its own entry when it is
/// deinitialized (`ManagedObject.deinit`), so every entry is alive. This relies on the rule
/// that objects are used — and so released — on their context's queue only; it spares every
/// object a Swift weak reference (a side-table allocation each) and the table periodic sweeps.
struct ObjectRegistry {
    private var entries: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]

    /// The object registered under `id`; setting `nil` unregisters it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get { entries[id]?.takeUnretainedValue() }
        set { entries[id] = newValue.map { Unmanaged.passUnretained($0) } }
    }

    /// The registered objects, in no particular order.
    var values: [ManagedObject] { entries.values.map { $0.takeUnretainedValue() } }

    /// Unregisters `id`, returning its object if it was registered.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        entries.removeValue(forKey: id)?.takeUnretainedValue()
    }

    /// Unregisters `id` if `object` — being deinitialized — is what it holds (another object
    /// may have been registered under the ID since).
    mutating func forget(_ id: ManagedObjectID, deinitializing object: UnsafeMutableRawPointer) {
        if let entry = entries[id], entry.toOpaque() == object { entries[id] = nil }
    }

    mutating func removeAll() {
        entries = [:]
    }

    /// How many entries the table holds, for tests.
    var entryCount: Int { entries.count }
}
