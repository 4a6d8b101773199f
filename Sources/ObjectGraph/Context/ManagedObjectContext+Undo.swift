import Foundation

// Undo, as Core Data's: with an ``UndoManager`` set, each ``ManagedObjectContext/processPendingChanges()``
// registers one action that takes the objects changed since the previous one back to their
// state before — values, relationships, and whether they exist (an insert is undone by
// removing the object, a delete by restoring it, with what its delete rules changed). The
// action's run registers the inverse, so the manager can redo it.
//
// What an object was before the first change of a step is known without watching every set:
// it is the state recorded for it at the end of its last step, or else its committed values
// (the changes tracker's snapshot of what was last read or saved).

extension ManagedObjectContext {
    /// Called after an undo or redo changed the context (ObjectGraphData schedules its
    /// autosave there); the change tracker keeps it with the undo state.
    package var undoDidApply: (() -> Void)? {
        get { tracker.undoDidApply }
        set { tracker.undoDidApply = newValue }
    }

    /// The undo manager recording this context's changes, as Core Data's; `nil` (the default)
    /// records nothing. Setting one starts recording from the current state; ``rollback()``
    /// and ``reset()`` clear its actions for this context.
    public var undoManager: UndoManager? {
        get { tracker.undoRecorder?.manager }
        set {
            assertOnQueue()
            if let old = tracker.undoRecorder?.manager {
                old.removeCheckpointHandler(owner: self)
                old.removeAllActions(withTarget: self)
            }
            guard let newValue else {
                tracker.recordUndo(for: nil)
                return
            }
            tracker.recordUndo(for: newValue)
            let reference = objectReference
            newValue.addCheckpointHandler(owner: self) {
                guard let context = reference.context else { return }
                context.performAndWait { context.processPendingChanges() }
            }
        }
    }

    /// Notes, at the first change of a step, what `object` was before it.
    func recordUndoState(of object: ManagedObject, in recorder: UndoRecorder) {
        let id = ObjectIdentifier(object)
        guard recorder.touched[id] == nil else { return }
        if recorder.touched.isEmpty { recorder.manager.beginEventGroupIfNeeded() }
        let before: UndoState
        if let recorded = recorder.recorded[object.objectID] {
            before = recorded
        } else if object.storage.flags.contains(.inserted) {
            before = .absent
        } else {
            before = committedState(of: object)
        }
        recorder.touched[id] = (object, before)
    }

    /// Registers the step since the last one with the undo manager (called by
    /// ``processPendingChanges()`` once delete rules have run).
    func registerUndoStep(_ recorder: UndoRecorder) {
        let touched = recorder.touched
        recorder.touched = [:]
        var changes: [UndoChange] = []
        for entry in touched.values {
            let after = currentState(of: entry.object)
            recorder.recorded[entry.object.objectID] = after
            if after != entry.before { changes.append(UndoChange(object: entry.object, before: entry.before, after: after)) }
        }
        guard !changes.isEmpty else { return }
        register(changes, with: recorder.manager)
    }

    private func register(_ changes: [UndoChange], with manager: UndoManager) {
        manager.registerUndo(withTarget: self) { context in
            context.performAndWait { context.applyUndo(changes) }
        }
    }

    /// Takes each object of `changes` back to its `before` state, and registers the inverse.
    private func applyUndo(_ changes: [UndoChange]) {
        guard let recorder = tracker.undoRecorder else { return }
        processPendingChanges()
        recorder.isApplying = true
        // Objects come back first, so that relationships to them can be restored; removals go
        // last, once nothing refers to them.
        for change in changes where change.before.exists && !exists(change.object) { restore(change.object) }
        for change in changes where change.before.exists { apply(change.before, to: change.object) }
        for change in changes where !change.before.exists && exists(change.object) { remove(change.object) }
        for change in changes { recorder.recorded[change.object.objectID] = change.before }
        processPendingChanges()
        recorder.isApplying = false
        register(changes.map { UndoChange(object: $0.object, before: $0.after, after: $0.before) }, with: recorder.manager)
        tracker.undoDidApply?()
    }

    // MARK: States

    private func exists(_ object: ManagedObject) -> Bool {
        let flags = object.storage.flags
        return object.managedObjectContext === self && !flags.contains(.deleted) && !flags.contains(.gone)
    }

    /// The object's state now.
    private func currentState(of object: ManagedObject) -> UndoState {
        guard exists(object) else { return .absent }
        object.fulfillIfNeeded()
        return UndoState(exists: true, values: object.storage.values, toMany: toManyMembers(of: object, committed: false))
    }

    /// The object's state as last read or saved.
    private func committedState(of object: ManagedObject) -> UndoState {
        object.fulfillIfNeeded()
        let values = object.storage.committed ?? object.storage.values
        return UndoState(exists: true, values: values, toMany: toManyMembers(of: object, committed: true))
    }

    /// The members of each to-many relationship of `object`: its current ones, or those it had
    /// at the last read or save (the current ones less the unsaved additions, plus removals).
    private func toManyMembers(of object: ManagedObject, committed: Bool) -> [Int: Set<ManagedObjectID>] {
        var members: [Int: Set<ManagedObjectID>] = [:]
        for slot in object.entity.relationshipSlots {
            guard let relationship = object.entity.allProperties[slot] as? RelationshipDescription, relationship.isToMany else { continue }
            var set = Set(object.toManyMembers(at: slot))
            if committed, let state = object.storage.toMany[slot] {
                set.subtract(state.added)
                set.formUnion(state.removed)
            }
            members[slot] = set
        }
        return members
    }

    // MARK: Applying a state

    /// Brings back an object that was removed: an undone insert, or a delete (saved or not).
    private func restore(_ object: ManagedObject) {
        let flags = object.storage.flags
        if flags.contains(.deleted) && !flags.contains(.gone) && object.managedObjectContext === self {
            // Deleted, not yet saved: the deletion is withdrawn.
            object.storage.flags.remove(.deleted)
            tracker.noteUndeleted(object)
            noteChanged(object)
            return
        }
        // Gone (an undone insert, or a saved deletion): inserted again, with its identity.
        object.managedObjectContext = self
        var storage = ObjectStorage()
        storage.becomeInserted(as: object.entity)
        object.storage = storage
        registry.register(object)
        noteChanged(object)
        tracker.noteInserted(object)
    }

    /// Sets `object`'s values and relationships that differ from `state`'s.
    private func apply(_ state: UndoState, to object: ManagedObject) {
        object.fulfillIfNeeded()
        let entity = object.entity
        for slot in entity.allProperties.indices where slot < state.values.count {
            if let relationship = entity.allProperties[slot] as? RelationshipDescription, relationship.isToMany { continue }
            if entity.allProperties[slot].isTransient { continue }
            if object.storage.values[slot] != state.values[slot] { object.setStored(state.values[slot], at: slot) }
        }
        for (slot, wanted) in state.toMany {
            let current = Set(object.toManyMembers(at: slot))
            guard current != wanted else { continue }
            for id in current.subtracting(wanted) { object.primitiveRemoveMember(slot, id) }
            for id in wanted.subtracting(current).sorted(by: { $0.primaryKey < $1.primaryKey }) { object.primitiveAddMember(slot, id) }
            if object.storage.toMany[slot]?.hasChanges == false, !object.storage.flags.contains(.inserted) {
                object.storage.markUnchanged(slot)
            }
        }
    }

    /// Removes an object an undo takes back before it existed: an unsaved insert is forgotten,
    /// a saved object deleted (its delete rules do not run: the objects they would change are
    /// restored by the same undo).
    private func remove(_ object: ManagedObject) {
        if object.storage.flags.contains(.inserted) {
            tracker.noteDeleted(object, runningDeleteRules: false)
            forget(object)
            return
        }
        object.storage.markDeleted()
        noteChanged(object)
        tracker.noteDeletedElsewhere(object)
    }
}

/// What an undo manager needs of a context between steps.
final class UndoRecorder {
    let manager: UndoManager
    /// The objects changed since the last step, with their state before it.
    var touched: [ObjectIdentifier: (object: ManagedObject, before: UndoState)] = [:]
    /// Each object's state at the end of the last step that changed it, by ID: an object the
    /// context let go of comes back as another instance.
    var recorded: [ManagedObjectID: UndoState] = [:]
    /// Whether an undo or redo is being applied (its changes are not recorded as a step).
    var isApplying = false

    init(manager: UndoManager) { self.manager = manager }

    /// Forgets what was recorded, and `context`'s actions (a rollback or reset, as Core
    /// Data's, which clear the undo stack).
    func clear(for context: ManagedObjectContext) {
        touched = [:]
        recorded = [:]
        manager.removeAllActions(withTarget: context)
    }
}

/// An object's state for undo: whether it exists in its context, its slot values, and the
/// members of its to-many relationships.
struct UndoState: Equatable {
    var exists: Bool
    var values: ContiguousArray<Value>
    var toMany: [Int: Set<ManagedObjectID>]

    /// Not in the context (not yet inserted, or deleted).
    static let absent = UndoState(exists: false, values: [], toMany: [:])
}

/// One object's step: its state before and after.
struct UndoChange {
    let object: ManagedObject
    let before: UndoState
    let after: UndoState
}
