import Foundation

/// The state a managed object carries: its values, its last committed snapshot and what changed.
///
/// A fault carries none of it (``values`` is empty), which keeps a fault at an ID and a context
/// reference.
struct ObjectStorage {
    /// One value per slot (see `EntityDescription.allProperties`); to-one relationships hold
    /// `.objectID` or `.null`, to-many slots hold `.null` (their members live in ``toMany``).
    var values: ContiguousArray<Value> = []
    /// The values as last read from or written to the store; `nil` for a new object.
    var committed: ContiguousArray<Value>?
    /// The row version (Core Data's `Z_OPT`) the committed values came from.
    var version: Int64 = 0
    /// Slots changed since the last save or refresh.
    var changed = SlotMask()
    /// Where this fault's values come from when it fires, other than a read of its own row.
    /// (Inline: every fault of a batched fetch, every fetched fault has one.)
    var faultSource: FaultSource?

    /// The batched fetch this fault came from, and its batch: firing it fills the whole batch.
    var faultBatch: (fetch: BatchedFetch, number: Int)? {
        if case .batch(let fetch, let number) = faultSource { return (fetch, number) }
        return nil
    }
    /// The state most objects never use (to-many members, held related objects, pending
    /// failures), allocated on first use: it keeps every object — a fault,
    /// a fetched row — small and quick to create and free.
    private var extras: ObjectExtras?
    // The two small fields last, together: declared among the 8-byte ones, each took a word of
    // its own, and an object 121 bytes or more takes a 144-byte allocation instead of 128
    // (glibc adds 8 bytes and rounds to 16): 16 bytes more per object, fault or not.
    /// Where its context's ``ChangedObjects`` holds it (meaningful only while it holds it).
    var changeIndex = UInt32.max
    var flags: ObjectFlags = []

    /// To-many relationship state, by slot; created on first use.
    var toMany: [Int: ToManyState] {
        get { extras?.toMany ?? [:] }
        _modify { yield &uniqueExtras().toMany }
    }
    /// Values given to `setValue(_:forKey:)` that could not be stored; the next save reports them.
    var pendingFailures: [ValidationFailure] {
        get { extras?.pendingFailures ?? [] }
        _modify { yield &uniqueExtras().pendingFailures }
    }
    /// Related objects prefetched with this one (see `relationshipKeyPathsForPrefetching`),
    /// held so that they stay registered — their values loaded — while this object is; as
    /// Core Data's objects hold their related objects. Only fetched objects hold, and never
    /// each other, so holding makes no cycle.
    var prefetched: [ManagedObject] {
        get { extras?.prefetched ?? [] }
        _modify { yield &uniqueExtras().prefetched }
    }
    /// The related objects this object's relationship properties last returned, by slot: held,
    /// as Core Data's objects hold theirs, so that objects many others point to (a photo's
    /// tags) stay loaded while those others live. Released when the object turns into a fault
    /// (`refresh`, `refreshAllObjects()`), which is how cycles between related objects break.
    var related: [Int: [ManagedObject]] {
        get { extras?.related ?? [:] }
        _modify { yield &uniqueExtras().related }
    }
    /// Whether any of the rarely used state was ever set (see ``resetExtras()``).
    var hasExtras: Bool { extras != nil }

    /// This storage's own extras, made on first use (copied when another storage shares them).
    private mutating func uniqueExtras() -> ObjectExtras {
        if extras == nil {
            extras = ObjectExtras()
        } else if !isKnownUniquelyReferenced(&extras) {
            extras = extras!.copy()
        }
        return extras!
    }

    /// Clears the rarely used state: to-many members, pending failures, held objects.
    mutating func resetExtras() {
        extras = nil
    }
}

/// The part of ``ObjectStorage`` most objects never use.
final class ObjectExtras {
    var toMany: [Int: ToManyState] = [:]
    var pendingFailures: [ValidationFailure] = []
    var prefetched: [ManagedObject] = []
    var related: [Int: [ManagedObject]] = [:]

    init() {}

    func copy() -> ObjectExtras {
        let copy = ObjectExtras()
        copy.toMany = toMany
        copy.pendingFailures = pendingFailures
        copy.prefetched = prefetched
        copy.related = related
        return copy
    }
}

/// What fills a fault besides a read of its own row.
enum FaultSource {
    /// Batch `number` of a batched fetch (`fetchBatchSize`): firing fills the whole batch.
    case batch(BatchedFetch, number: Int)
    /// The row values a fetch read (`returnsObjectsAsFaults`), with the row's version in
    /// ``ObjectStorage/version``: Core Data keeps such a snapshot in its row cache, so firing
    /// the fault runs no query. Valid while the store's ``ObjectStore/snapshotGeneration`` is
    /// still `generation` (no context's save written since).
    case fetchedRow(ContiguousArray<Value>, generation: UInt64)
}

/// Lifecycle flags of a managed object.
struct ObjectFlags: OptionSet {
    let rawValue: UInt8
    /// Values not loaded: the object is an ID and a context reference.
    static let fault = ObjectFlags(rawValue: 1)
    /// Inserted in its context and not yet saved.
    static let inserted = ObjectFlags(rawValue: 2)
    /// Deleted in its context (saved or not).
    static let deleted = ObjectFlags(rawValue: 4)
    /// Counted among its context's changed objects.
    static let tracked = ObjectFlags(rawValue: 8)
    /// Its deletion has been saved, or merged in from another context: it no longer exists.
    static let gone = ObjectFlags(rawValue: 16)
    /// A key-path probe (see `KeyPathRecorder`): its accessors record keys instead of reading.
    static let probe = ObjectFlags(rawValue: 32)
    /// An inserted object whose insert an objects-did-change notification has reported, so its
    /// later changes are reported as updates.
    static let insertAnnounced = ObjectFlags(rawValue: 64)
    /// Among its context's inserts for the next objects-did-change (see `PendingInsertions`).
    static let insertPending = ObjectFlags(rawValue: 128)

    /// Flags under which a typed getter takes the general path: values to load first, keys to
    /// record, or an object that no longer exists.
    static let readsNeedCare: ObjectFlags = [.fault, .probe, .gone]

    /// Flags that say where the context lists the object rather than what state it is in: a
    /// transition of the object's state keeps them.
    static let contextBookkeeping: ObjectFlags = [.insertPending]
}

/// A set of slot numbers, allocation-free for entities with up to 64 properties.
struct SlotMask: Equatable {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    // The first 64 slots (nearly every entity's all) inline at every call: a setter inserts
    // one, and an insert marks each set default.
    @inline(__always)
    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    @inline(__always)
    mutating func insert(_ slot: Int) {
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        insertHigh(slot)
    }

    @inline(never)
    private mutating func insertHigh(_ slot: Int) {
        let word = slot / 64 - 1
        while high.count <= word { high.append(0) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
            return
        }
        let word = slot / 64 - 1
        if word < high.count { high[word] &= ~(1 << UInt64(slot % 64)) }
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    /// Adds every slot of `other`.
    mutating func formUnion(_ other: SlotMask) {
        low |= other.low
        for (word, bits) in other.high.enumerated() where bits != 0 {
            while high.count <= word { high.append(0) }
            high[word] |= bits
        }
    }

    /// The slots in ascending order.
    var slots: [Int] {
        var result: [Int] = []
        var bits = low
        while bits != 0 {
            result.append(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        for (index, word) in high.enumerated() {
            var bits = word
            while bits != 0 {
                result.append((index + 1) * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}

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
