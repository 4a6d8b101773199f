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
        let pending = flags.intersection(.contextBookkeeping)
        self = ObjectStorage()
        flags = ObjectFlags.fault.union(pending)
    }

    /// An object just inserted as an `entity`: its defaults, each non-nil one counted as a
    /// change.
    mutating func becomeInserted(as entity: EntityDescription) {
        let preset = values
        let defaults = entity.defaultValues
        values = entity.frozenDefaultsAreTrivial ? .trivialCopy(of: defaults) : defaults
        markChanged(entity.defaultChanges)
        flags = ObjectFlags.inserted.union(flags.intersection(.contextBookkeeping))
        // Values set while detached survive the insert.
        if !preset.isEmpty {
            for slot in entity.attributeSlots where preset[slot] != values[slot] {
                values[slot] = preset[slot]
                markChanged(slot)
            }
        }
    }

    /// The committed values of `row`, a row of `entity` (transient slots keep their values or
    /// take their defaults); with `keepingChanges`, unsaved changes stay on top.
    mutating func load(_ row: StoredRow, entity: EntityDescription, keepingChanges: Bool) {
        // A fetched row into an object that holds nothing yet (a new fault), of an entity
        // without transient properties: the row is the values, as the general path below
        // would make them, without its copies and checks (every fetched object comes here;
        // a fault's extras — to-many members a neighbour read — stay, as they do below).
        if values.isEmpty, hasNoChangedSlots, entity.frozenTransientSlots?.isEmpty == true,
           !hasExtras || (flags.contains(.fault) && !keepingChanges) {
            dropFetchedRow()
            flags.remove(.fault)
            values = row.values
            committed = row.values
            version = row.version
            return
        }
        var loaded = row.values
        let transientSlots = entity.frozenTransientSlots ?? entity.allProperties.indices.filter { entity.allProperties[$0].isTransient }
        for slot in transientSlots {
            loaded[slot] = values.isEmpty ? ((entity.allProperties[slot] as? AttributeDescription)?.defaultStoredValue ?? .null) : values[slot]
        }
        if keepingChanges, !values.isEmpty {
            for slot in changed.slots { loaded[slot] = values[slot] }
        } else {
            clearChanged()
            // A fault's to-many members were read after it became one (a neighbour's fault or
            // a prefetch read them with its own): they stay. A loaded object's are read again.
            if hasExtras, !flags.contains(.fault) { toMany = [:] }
        }
        if keepingChanges {
            for slot in Array(toMany.keys) { toMany[slot]!.members = nil }
        }
        dropFetchedRow()
        flags.remove(.fault)
        values = loaded
        committed = row.values
        version = row.version
    }

    /// A fault that keeps the row a fetch read, to fill from without a query while the store
    /// has not changed since (`returnsObjectsAsFaults`).
    mutating func holdFetchedRow(_ row: StoredRow, stamp: FetchStamp) {
        version = row.version
        setFetchedRow(row.values, stamp: stamp)
    }

    /// Lets go of the row a fetch left with this fault (it reads its row when it fires).
    @inline(__always)
    mutating func dropFetchedRow() {
        _ = takeFetchedRowValues()
    }

    /// The row a fetch left with this fault, if `isCurrent` says the store is still at the
    /// generation it was read at (asked only when there is a row); a stale one is dropped.
    @inline(__always)
    mutating func takeFetchedRow(id: ManagedObjectID, isCurrent: (UInt64) -> Bool) -> StoredRow? {
        guard let (values, generation) = takeFetchedRowValues(), isCurrent(generation) else { return nil }
        return StoredRow(id: id, version: version, values: values)
    }

    /// Values and changes discarded (`turnIntoFault()`, `refresh`): the values load again on
    /// next access. Lifecycle flags other than `.fault` are the caller's to change.
    mutating func discardValues() {
        values = []
        committed = nil
        clearChanged()
        // To-many state, pending failures, held objects (a batch stays: see `setFaultBatch`).
        resetExtras()
        dropFetchedRow()
        flags.insert(.fault)
    }

    /// Lets go of every related object held (the context is going away).
    mutating func releaseRelated() {
        guard hasExtras else { return }
        related = [:]
        prefetched = []
    }

    /// Holds the objects relationship `slot` returned, while this one is loaded.
    mutating func holdRelated(_ objects: [ManagedObject], at slot: Int) {
        related[slot] = objects
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

    /// Reported as inserted by an objects-did-change, so no longer pending: later changes are
    /// updates.
    mutating func announceInsert() {
        flags.remove(.insertPending)
        flags.insert(.insertAnnounced)
    }

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
        let state: ObjectFlags = deleted ? [.deleted, .gone] : [.gone]
        flags = state.union(flags.intersection(.contextBookkeeping))
        dropFetchedRow()
    }

    /// Forgotten by a context `reset()`: nothing left but its identity.
    mutating func detach() {
        self = ObjectStorage()
        flags = [.gone]
    }

    /// Brought to a newer row of the store by a merge policy (another save changed the object
    /// since it was read): each slot of `storedSlots` keeps this object's value where
    /// `keepsOwn` says so — changed, so the save writes it, if it was changed or `writesAll` —
    /// and takes the row's value otherwise. The row becomes the committed snapshot and version;
    /// to-many members load again (their unsaved additions and removals replay on top).
    mutating func rebase(on row: StoredRow, storedSlots: [Int], writesAll: Bool, keepsOwn: (Int) -> Bool) {
        let wasChanged = changed
        for slot in storedSlots {
            if keepsOwn(slot) {
                if writesAll || wasChanged.contains(slot) { markChanged(slot) }
            } else {
                values[slot] = row.values[slot]
                markUnchanged(slot)
            }
        }
        committed = row.values
        version = row.version
        for slot in Array(toMany.keys) { toMany[slot]!.members = nil }
    }

    /// A value the store gave the row's attribute in `slot` while saving it (a derived
    /// attribute): committed, not a change; an unsaved change of the slot stays on top.
    mutating func takeStoredValue(_ value: Value, at slot: Int) {
        guard slot < values.count else { return }
        if !isChanged(slot) { values[slot] = value }
        if committed != nil, slot < committed!.count { committed![slot] = value }
    }

    /// A deleted object whose row changed in the store since it was read: the delete goes on,
    /// against the row's new version.
    mutating func rebaseDeleted(on row: StoredRow) {
        committed = row.values
        version = row.version
    }

    /// After a save wrote it: the deletion is gone; otherwise the values are committed, and
    /// the version follows the row's when the save wrote the row (`bumpedVersion`).
    mutating func saved(deleted: Bool, wroteValues: Bool, bumpedVersion: Bool) {
        flags.remove(.tracked)
        if deleted {
            flags.insert(.gone)
        } else if wroteValues {
            if bumpedVersion { version += 1 }
            committed = values
            clearChanged()
            if hasExtras {
                for slot in toMany.keys { toMany[slot]!.commit() }
                pendingFailures = []
            }
            flags.remove(.inserted)
        }
    }
}
