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
///
/// The table is open-addressed (linear probing, backward-shift deletion) and hashes with one
/// multiplication: every fetched object is looked up, inserted and, when released, removed,
/// and `Dictionary`'s seeded SipHash cost ~100 instructions each time. Entries are plain values
/// (a key and a pointer), so growing the table retains nothing.
///
/// An entry's key is its ID's primary key plus its scope's ``ObjectIDScope/registrySalt``, not
/// the scope itself (store and entity): the object it points to holds its whole ID, and is
/// read only when the keys match. At 16 bytes instead of 24 an entry costs a context holding a
/// million objects 32 MB of table instead of 48 MB. This relies on an object's ID not changing
/// while it is registered: the context unregisters it before giving it a new ID (see
/// `replaceObjectIDs`).
///
/// Eight consecutive keys of a scope share a home run of eight buckets, and only the runs are
/// scattered: objects come and go in key order (an import's inserts, a fetch's rows, a save's
/// releases), and a hash scattering every key made each of them a cache miss in a table of
/// megabytes — a fifth of the time a 50,000-object import spent outside the database. The salt
/// keeps two entities' equal keys (both count from 1) in runs of their own.
struct ObjectRegistry {
    // @unchecked Sendable only so that the empty bucket can be a static constant: entries
    // are used on their context's queue only.
    private struct Entry: @unchecked Sendable {
        /// The ID's ``ObjectRegistry/key(_:)``.
        var key: UInt64
        /// `nil` for an empty bucket.
        var object: UnsafeMutableRawPointer?

        /// Whether this occupied entry is `id`'s (of key `key`): same key, and the object's ID
        /// has its scope.
        @inline(__always)
        func holds(_ id: ManagedObjectID, key: UInt64, object pointer: UnsafeMutableRawPointer) -> Bool {
            self.key == key
                && Unmanaged<ManagedObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.objectID.scope === id.scope }
        }
    }

    private static let empty = Entry(key: 0, object: nil)

    private var entries: ContiguousArray<Entry>
    /// `64 - log2(entries.count)`: a hash's top bits index the table.
    private var shift: Int
    private var count = 0

    init() {
        entries = ContiguousArray(repeating: Self.empty, count: 16)
        shift = 64 - 4
    }

    /// `id`'s key in the table: its primary key, moved by its scope's salt.
    @inline(__always)
    private static func key(_ id: ManagedObjectID) -> UInt64 {
        UInt64(bitPattern: id.primaryKey) &+ id.scope.registrySalt
    }

    /// The bucket where the probe for `key` starts: the run of eight keys it belongs to goes
    /// to a hashed place, and the key to its position in the run.
    @inline(__always)
    private func home(_ key: UInt64) -> Int { Self.home(key, shift: shift) }

    /// ``home(_:)`` in a table of `64 - shift` bits.
    @inline(__always)
    private static func home(_ key: UInt64, shift: Int) -> Int {
        let run = ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift + 3)
        return Int(truncatingIfNeeded: run << 3 | key & 7)
    }

    /// The bucket holding `id`, or the empty bucket where it would go.
    @inline(__always)
    private func find(_ id: ManagedObjectID) -> (index: Int, found: Bool) {
        let mask = entries.count - 1
        let key = Self.key(id)
        var index = home(key)
        return entries.withUnsafeBufferPointer { buffer in
            while true {
                let entry = buffer[index]
                guard let object = entry.object else { return (index, false) }
                if entry.holds(id, key: key, object: object) { return (index, true) }
                index = (index + 1) & mask
            }
        }
    }

    /// The object registered under `id`; setting `nil` unregisters it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            let (index, found) = find(id)
            guard found, let pointer = entries[index].object else { return nil }
            return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            guard let newValue else {
                removeValue(forKey: id)
                return
            }
            assert(newValue.objectID == id, "ObjectGraph: an object is registered under its own ID only")
            let pointer = Unmanaged.passUnretained(newValue).toOpaque()
            let (foundIndex, found) = find(id)
            var index = foundIndex
            if found {
                entries[index].object = pointer
                return
            }
            if (count + 1) * 4 > entries.count * 3 {
                grow(to: entries.count * 2)
                index = find(id).index
            }
            entries[index] = Entry(key: Self.key(id), object: pointer)
            count += 1
        }
    }

    /// The registered objects, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for entry in entries {
            if let pointer = entry.object { result.append(Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()) }
        }
        return result
    }

    /// Unregisters `id`, returning its object if it was registered.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        let (index, found) = find(id)
        guard found, let pointer = entries[index].object else { return nil }
        remove(at: index)
        return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Unregisters `id` if `object` — being deinitialized — is what it holds (another object
    /// may have been registered under the ID since).
    mutating func forget(_ id: ManagedObjectID, deinitializing object: UnsafeMutableRawPointer) {
        // Found by key and pointer: no object is read on the way.
        let mask = entries.count - 1
        let key = Self.key(id)
        var index = home(key)
        while let occupant = entries[index].object {
            if occupant == object && entries[index].key == key {
                remove(at: index)
                return
            }
            index = (index + 1) & mask
        }
    }

    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Makes room for `additional` more objects without growing the table on the way.
    mutating func reserveCapacity(forAdditional additional: Int) {
        let needed = count + additional
        guard needed * 4 > entries.count * 3 else { return }
        var capacity = entries.count
        while needed * 4 > capacity * 3 { capacity *= 2 }
        grow(to: capacity)
    }

    /// How many entries the table holds, for tests.
    var entryCount: Int { count }

    /// Empties bucket `index`, moving later entries of its probe run back (no tombstones).
    ///
    /// Through the buffer's pointer: a save's released objects each scan the rest of their run
    /// of eight, and the array's checks on each step were a sixth of what 50,000 removals cost
    /// (callgrind: 11.7M -> 9.8M instructions).
    private mutating func remove(at index: Int) {
        let shift = shift
        entries.withUnsafeMutableBufferPointer { buffer in
            let mask = buffer.count - 1
            var hole = index
            var next = index
            while true {
                next = (next + 1) & mask
                guard buffer[next].object != nil else { break }
                let wanted = Self.home(buffer[next].key, shift: shift)
                // The entry at `next` may move to `hole` unless its home lies cyclically in (hole, next].
                let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
                if !stays {
                    buffer[hole] = buffer[next]
                    hole = next
                }
            }
            buffer[hole] = Self.empty
        }
        count -= 1
    }

    /// Moves every entry into a table of `capacity` buckets.
    private mutating func grow(to capacity: Int) {
        let old = entries
        var grown = ContiguousArray(repeating: Self.empty, count: capacity)
        let shift = 64 - capacity.trailingZeroBitCount
        let mask = capacity - 1
        grown.withUnsafeMutableBufferPointer { buffer in
            old.withUnsafeBufferPointer { old in
                for entry in old where entry.object != nil {
                    var index = Self.home(entry.key, shift: shift)
                    while buffer[index].object != nil { index = (index + 1) & mask }
                    buffer[index] = entry
                }
            }
        }
        entries = grown
        self.shift = shift
    }
}
