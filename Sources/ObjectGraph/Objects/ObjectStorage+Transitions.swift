import Foundation

// An object's life, in one place. The context decides *when*; these methods say *what* each
// step does to the object's state, so no caller sets flags, values or versions by hand:
//
//   new ──insert──▶ inserted ──save──▶ loaded ◀──load── fault ◀──register/turnIntoFault── (any saved)
//                      │                 │  ▲                │
//                      │              change │ save          load fails ──▶ fault showing defaults
//                      │                 ▼  │                │               (read again on access)
//                      │               changed ──delete──▶ deleted ──save──▶ gone
//                      └──delete / rollback──▶ gone        row missing ──▶ gone
extension ObjectStorage {
    /// A registered object whose values are not loaded yet.
    mutating func becomeFault() {
        self = ObjectStorage()
        flags = [.fault]
    }

    /// An object just inserted: its entity's defaults, each non-nil one counted as a change.
    mutating func becomeInserted(defaults: ContiguousArray<Value>, attributeSlots: [Int]) {
        let preset = values
        values = defaults
        flags = [.inserted]
        for slot in attributeSlots where !values[slot].isNull { changed.insert(slot) }
        // Values set while detached survive the insert.
        if !preset.isEmpty {
            for slot in attributeSlots where preset[slot] != values[slot] {
                values[slot] = preset[slot]
                changed.insert(slot)
            }
        }
    }

    /// The committed values of `row`, a row of `entity` (transient slots keep their values or
    /// take their defaults); with `keepingChanges`, unsaved changes stay on top.
    mutating func load(_ row: StoredRow, entity: EntityDescription, keepingChanges: Bool) {
        var loaded = row.values
        for property in entity.allProperties where property.isTransient {
            let slot = property.slot
            loaded[slot] = values.isEmpty ? ((property as? AttributeDescription)?.defaultStoredValue ?? .null) : values[slot]
        }
        if keepingChanges, !values.isEmpty {
            for slot in changed.slots { loaded[slot] = values[slot] }
        } else {
            changed.removeAll()
            toMany = [:]
        }
        if keepingChanges {
            for slot in Array(toMany.keys) { toMany[slot]!.members = nil }
        }
        flags.remove(.fault)
        values = loaded
        committed = row.values
        version = row.version
    }

    /// Values and changes discarded (`turnIntoFault()`, `refresh`): the values load again on
    /// next access. Lifecycle flags other than `.fault` are the caller's to change.
    mutating func discardValues() {
        values = []
        committed = nil
        toMany = [:]
        changed.removeAll()
        pendingFailures = []
        prefetched = []
        flags.insert(.fault)
    }

    /// A fault of a batched fetch: it fills with batch `number` of `fetch`, and keeps that
    /// batch when it turns back into a fault.
    mutating func joinFaultBatch(_ fetch: BatchedFetch, number: Int) {
        faultBatch = (fetch, number)
    }

    /// Holds `objects`, prefetched with this one, while this one is loaded.
    mutating func holdPrefetched(_ objects: [ManagedObject]) {
        prefetched = objects
    }

    /// A key-path probe: its accessors record keys instead of reading values.
    mutating func becomeProbe() { flags.insert(.probe) }

    /// A fault whose row does not exist: it was deleted elsewhere.
    mutating func becomeMissing(defaults: ContiguousArray<Value>) {
        flags.remove(.fault)
        flags.insert(.gone)
        values = defaults
    }

    /// A fault whose row could not be read (it stays a fault: the next access reads again),
    /// or a new detached object: shows `defaults`, so accessors never index empty values.
    mutating func showPlaceholders(_ defaults: ContiguousArray<Value>) {
        if values.isEmpty { values = defaults }
    }

    /// Counted among its context's changed objects.
    mutating func track() { flags.insert(.tracked) }

    /// Reported as inserted by an objects-did-change: later changes are updates.
    mutating func announceInsert() { flags.insert(.insertAnnounced) }

    /// Deleted in its context, not yet saved.
    mutating func markDeleted() { flags.insert(.deleted) }

    /// Neither tracked nor deleted any more (a refresh that discards changes).
    mutating func discardChangeState() {
        flags.remove(.tracked)
        flags.remove(.deleted)
    }

    /// No longer exists for its context: its deletion was saved or merged, or it was an
    /// unsaved insert that was deleted or rolled back.
    mutating func becomeGone(deleted: Bool) {
        flags = deleted ? [.deleted, .gone] : [.gone]
    }

    /// Forgotten by a context `reset()`: nothing left but its identity.
    mutating func detach() {
        self = ObjectStorage()
        flags = [.gone]
    }

    /// After a save wrote it: the deletion is gone; otherwise the values are committed.
    mutating func saved(deleted: Bool, wroteValues: Bool) {
        flags.remove(.tracked)
        if deleted {
            flags.insert(.gone)
        } else if wroteValues {
            version += 1
            committed = values
            changed.removeAll()
            for slot in toMany.keys { toMany[slot]!.commit() }
            pendingFailures = []
            flags.remove(.inserted)
        }
    }
}
