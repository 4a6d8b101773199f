import Foundation

/// The state a managed object carries: its values, its last committed snapshot and what changed.
///
/// Five words (40 bytes), so that an object is 88 bytes and glibc serves it from a 96-byte
/// block: a million faults are 32 MB less than with the 128-byte block the state took as
/// separate fields. What most objects never need — to-many state, held related objects,
/// changed slots past the 64th, a version past 32 bits, a fault source beside those — lives in
/// ``ObjectExtras``, made on first use. A fault carries no values (``values`` is empty).
struct ObjectStorage {
    /// One value per slot (see `EntityDescription.allProperties`); to-one relationships hold
    /// `.objectID` or `.null`, to-many slots hold `.null` (their members live in ``toMany``).
    var values: ContiguousArray<Value> = []
    /// ``committed`` for a loaded object; for a fault a fetch left its row with
    /// (`returnsObjectsAsFaults`), that row's values, which fill it without a query.
    private var snapshot: ContiguousArray<Value>?
    /// Slots 0–63 of ``changed`` (nearly every entity's all); the rest are in ``extras``.
    private var changedLow: UInt64 = 0
    /// The extras, or — for a fault without them — where its values come from (a
    /// ``FaultBatch`` or a ``FetchStamp``); ``ObjectAux/kind`` says which.
    private var aux: ObjectAux?
    /// ``flags`` (bits 0–7), ``changeIndex`` (bits 8–31) and ``version`` (bits 32–63).
    private var packed: UInt64 = Self.noChangeIndex << 8

    /// The values as last read from or written to the store; `nil` for a new object (and for
    /// a fault, whose values are not loaded).
    var committed: ContiguousArray<Value>? {
        @inline(__always) get { flags.contains(.fault) ? nil : snapshot }
        set { snapshot = newValue }
    }

    /// The row version (Core Data's `Z_OPT`) the committed values came from.
    var version: Int64 {
        @inline(__always) get {
            let bits = packed >> 32
            return bits != Self.largeVersion ? Int64(bits) : (extras?.version ?? 0)
        }
        set {
            if newValue >= 0 && newValue < Int64(Self.largeVersion) {
                packed = packed & 0xFFFF_FFFF | UInt64(newValue) << 32
            } else {
                packed = packed & 0xFFFF_FFFF | Self.largeVersion << 32
                uniqueExtras().version = newValue
            }
        }
    }

    /// Where its context's ``ChangedObjects`` holds it (meaningful only while it holds it);
    /// ``noChangeIndex`` when not held or held past the 16,777,214th place (see `ChangedObjects`).
    var changeIndex: UInt32 {
        @inline(__always) mutating get { UInt32(truncatingIfNeeded: packed >> 8) & UInt32(Self.noChangeIndex) }
        @inline(__always) set { packed = packed & ~(Self.noChangeIndex << 8) | UInt64(min(newValue, UInt32(Self.noChangeIndex))) << 8 }
    }

    /// The lifecycle flags.
    var flags: ObjectFlags {
        @inline(__always) get { ObjectFlags(rawValue: UInt8(truncatingIfNeeded: packed)) }
        @inline(__always) set { packed = packed & ~0xFF | UInt64(newValue.rawValue) }
    }

    /// The ``changeIndex`` of an object its context does not hold at that place.
    static let noChangeIndex: UInt64 = 0xFF_FFFF
    /// The ``version`` bits that say the version is in ``extras``.
    private static let largeVersion: UInt64 = 0xFFFF_FFFF

    /// Slots changed since the last save or refresh.
    var changed: SlotMask {
        get { SlotMask(low: changedLow, high: extras?.changedHigh ?? []) }
        set {
            changedLow = newValue.low
            if !newValue.high.isEmpty {
                uniqueExtras().changedHigh = newValue.high
            } else if extras?.changedHigh.isEmpty == false {
                uniqueExtras().changedHigh = []
            }
        }
    }

    /// Whether slot `slot` changed (``changed``'s `contains`, inline for the first 64).
    @inline(__always)
    func isChanged(_ slot: Int) -> Bool {
        slot < 64 ? changedLow & (1 << UInt64(slot)) != 0 : changed.contains(slot)
    }

    /// Marks slot `slot` changed (a setter's step, inline for the first 64).
    @inline(__always)
    mutating func markChanged(_ slot: Int) {
        if slot < 64 { changedLow |= 1 << UInt64(slot) } else { changed.insert(slot) }
    }

    /// Marks slot `slot` unchanged (set back to its committed value).
    @inline(__always)
    mutating func markUnchanged(_ slot: Int) {
        if slot < 64 { changedLow &= ~(1 << UInt64(slot)) } else { changed.remove(slot) }
    }

    /// Whether no slot changed.
    @inline(__always)
    var hasNoChangedSlots: Bool { changedLow == 0 && (extras?.changedHigh.allSatisfy { $0 == 0 } ?? true) }

    /// Clears ``changed``.
    @inline(__always)
    mutating func clearChanged() {
        changedLow = 0
        if extras?.changedHigh.isEmpty == false { uniqueExtras().changedHigh = [] }
    }

    /// Where this fault's values come from when it fires, other than a read of its own row:
    /// a ``FaultBatch`` or a ``FetchStamp`` (whose row is in ``snapshot``), beside the extras
    /// or in their place.
    @inline(__always)
    private var faultSource: ObjectAux? {
        guard let aux else { return nil }
        return aux.kind == .extras ? unsafeDowncast(aux, to: ObjectExtras.self).faultSource : aux
    }

    @inline(__always)
    private mutating func setFaultSource(_ source: ObjectAux?) {
        if hasExtras { uniqueExtras().faultSource = source } else { aux = source }
    }

    /// Makes this fault one of `batch`'s (shared by the batch's faults: no allocation each).
    /// The batch stays when the object turns back into a fault, so it fills with its batch
    /// again.
    mutating func setFaultBatch(_ batch: FaultBatch) {
        if faultSource?.kind == .fetchedRow { snapshot = nil }
        setFaultSource(batch)
    }

    /// Makes this fault keep `values`, a row its fetch read at `stamp`'s generation.
    mutating func setFetchedRow(_ values: ContiguousArray<Value>, stamp: FetchStamp) {
        snapshot = values
        setFaultSource(stamp)
    }

    /// Takes the row a fetch left with this fault, and the generation it was read at.
    @inline(__always)
    mutating func takeFetchedRowValues() -> (values: ContiguousArray<Value>, generation: UInt64)? {
        guard let source = faultSource, source.kind == .fetchedRow else { return nil }
        let values = snapshot
        snapshot = nil
        setFaultSource(nil)
        return values.map { ($0, unsafeDowncast(source, to: FetchStamp.self).generation) }
    }

    /// Marks every slot of `mask` changed (an insert's defaults).
    @inline(__always)
    mutating func markChanged(_ mask: SlotMask) {
        changedLow |= mask.low
        if !mask.high.isEmpty { changed.formUnion(SlotMask(low: 0, high: mask.high)) }
    }

    // These reads (and those of ``changeIndex`` and ``hasExtras``) are `mutating` only so that
    // a read through the object's reference works on the state in place: a plain getter there
    // copies all five words first (three retains and releases a read, measured in the
    // relationship walk's and the insert's profiles).

    /// The batched fetch this fault came from, and its batch: firing it fills the whole batch.
    @inline(__always)
    var faultBatch: (fetch: BatchedFetch, number: Int)? {
        mutating get {
            guard let source = faultSource, source.kind == .batch else { return nil }
            let batch = unsafeDowncast(source, to: FaultBatch.self)
            return (batch.fetch, batch.number)
        }
    }

    /// Whether this fault keeps a row its fetch read (and at which store generation).
    @inline(__always)
    var fetchedRowGeneration: UInt64? {
        mutating get {
            guard let source = faultSource, source.kind == .fetchedRow else { return nil }
            return unsafeDowncast(source, to: FetchStamp.self).generation
        }
    }

    /// Whether relationship `slot`'s members are loaded (without copying ``toMany``).
    @inline(__always)
    mutating func hasLoadedMembers(at slot: Int) -> Bool {
        extras?.hasLoadedMembers(at: slot) == true
    }

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
    @inline(__always)
    var hasExtras: Bool { mutating get { aux?.kind == .extras } }

    @inline(__always)
    private var extras: ObjectExtras? {
        guard let aux, aux.kind == .extras else { return nil }
        return unsafeDowncast(aux, to: ObjectExtras.self)
    }

    /// This storage's own extras, made on first use (copied when another storage shares them);
    /// a fault source held in their place moves into them, its row staying in ``snapshot``.
    private mutating func uniqueExtras() -> ObjectExtras {
        if aux?.kind == .extras {
            if !isKnownUniquelyReferenced(&aux) { aux = unsafeDowncast(aux!, to: ObjectExtras.self).copy() }
            return unsafeDowncast(aux!, to: ObjectExtras.self)
        }
        let extras = ObjectExtras()
        extras.faultSource = aux
        aux = extras
        return extras
    }

    /// Clears the rarely used state: to-many members, pending failures, held objects (the
    /// fault source, a large version and changed slots past the 64th stay).
    mutating func resetExtras() {
        guard let extras else { return }
        if extras.version == nil, extras.changedHigh.isEmpty {
            aux = extras.faultSource
            return
        }
        let kept = ObjectExtras()
        kept.version = extras.version
        kept.changedHigh = extras.changedHigh
        kept.faultSource = extras.faultSource
        aux = kept
    }
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
