/// What a context has to report about its changes: the objects inserted, updated, deleted and
/// refreshed since its last objects-did-change, what merged saves said of them, the deletes
/// whose rules have not run, the store errors no caller could be told of yet, and the step an
/// undo manager is recording.
///
/// Invariants it keeps:
/// - **Each pending object is reported once, as what it became.** An object inserted since the
///   last objects-did-change is reported inserted, never also updated; a deleted one leaves
///   ``pendingUpdated`` and, unless its insert was never reported (then it simply leaves
///   ``pendingInserted``), joins ``pendingDeleted``. What is reported is forgotten here.
/// - **Delete rules run once per delete.** ``deletesToPropagate`` holds each deleted object whose
///   rules have not run, until ``takeDeletesToPropagate()`` hands them out (or an undo takes the
///   delete back).
/// - **Merged keys are known or absent.** ``pendingMergedKeys`` names the keys a merged save
///   changed on an object only while every update of it since the last objects-did-change came
///   from merged saves that said which; otherwise the object has no entry.
/// - **Related-root walks live while a change is posted.** ``relatedRootWalks`` is non-`nil`
///   only while observers of an objects-did-change run (see ``RelatedRoots``).
/// - **A store error reaches a caller and an observer.** An error recorded here is thrown by the
///   next save or fetch (``takeUnreportedError()``, at most ``keptStoreErrors`` kept in full)
///   and names its objects in the next objects-did-change (``pendingReadFailures``); only a
///   reset forgets it before.
///
/// Used on the context's queue only. It holds objects strongly until they are reported.
final class ChangeTracker {
    /// How many unreported store errors are kept in full; later ones are counted.
    static let keptStoreErrors = 20

    /// Objects inserted (or merged in as inserted) since the last objects-did-change.
    @exclusivity(unchecked) private(set) var pendingInserted = PendingInsertions()
    /// Objects updated since the last objects-did-change.
    @exclusivity(unchecked) private(set) var pendingUpdated: Set<ManagedObject> = []
    /// Objects deleted since the last objects-did-change.
    private(set) var pendingDeleted: Set<ManagedObject> = []
    /// Objects refreshed (turned into faults or re-read) since the last objects-did-change.
    private(set) var pendingRefreshed: Set<ManagedObject> = []
    /// IDs a merged save updated that are not registered here (see ``ObjectsDidChange``).
    private(set) var pendingMergedUnregistered: Set<ManagedObjectID> = []
    /// For objects only a merged save updated since the last objects-did-change, the keys whose
    /// values it changed (absent: not known; see ``ObjectsDidChange/mergedChangedKeys``).
    private var pendingMergedKeys: [ManagedObjectID: Set<String>] = [:]
    /// Deleted objects whose delete rules have not run yet.
    private var deletesToPropagate: [ManagedObject] = []
    /// While an objects-did-change is posted: the fetched results controllers' walks from
    /// changed objects back to their roots, made once for all of them (see ``RelatedRoots``;
    /// `nil` again once an observer changed objects).
    private var relatedRootWalks: [RelatedRoots.Key: RelatedRoots]?
    /// Store errors met where no caller could be told at once (a fault fired by a getter, a
    /// relationship read, a merge): the next save or fetch throws them.
    private var unreportedStoreErrors: [ObjectGraphError] = []
    /// Objects whose store read failed since the last objects-did-change, which names them.
    private var pendingReadFailures: [ManagedObject: ObjectGraphError] = [:]
    /// What undo needs between steps, while the context has an undo manager.
    private(set) var undoRecorder: UndoRecorder?
    /// Called after an undo or redo changed the context (ObjectGraphData schedules its
    /// autosave there).
    var undoDidApply: (() -> Void)?

    /// Starts recording undo steps for `manager` (`nil`: stops).
    func recordUndo(for manager: UndoManager?) {
        undoRecorder = manager.map { UndoRecorder(manager: $0) }
    }

    /// Starts keeping related-root walks, while an objects-did-change is posted.
    func beginPostingChange() {
        relatedRootWalks = [:]
    }

    /// Forgets the walks kept while the change was posted.
    func endPostingChange() {
        relatedRootWalks = nil
    }

    /// The walk `key` names, from the answers kept while this context posts a change, or made
    /// by `walk` (and kept, while the change is posted and nothing has changed since).
    ///
    /// An observer that changes objects while the change is posted makes the kept answers
    /// stale: from then on every walk is made afresh.
    func relatedRoots(_ key: RelatedRoots.Key, walk: () -> RelatedRoots?) -> RelatedRoots? {
        let unchanged = pendingUpdated.isEmpty && pendingInserted.isEmpty && pendingDeleted.isEmpty
        guard unchanged, relatedRootWalks != nil else {
            relatedRootWalks = nil
            return walk()
        }
        if let kept = relatedRootWalks?[key] { return kept }
        guard let made = walk() else { return nil }
        relatedRootWalks?[key] = made
        return made
    }

    // MARK: Noting changes

    /// Notes an object inserted here (or pushed in by a child, or restored by an undo).
    @inline(__always)
    func noteInserted(_ object: ManagedObject) {
        pendingInserted.insert(object)
        if !pendingUpdated.isEmpty { pendingUpdated.remove(object) }
    }

    /// Notes an object a merged save inserted.
    func noteMergedInsert(_ object: ManagedObject) {
        pendingInserted.insert(object)
    }

    /// Notes a change of `object`: an update, unless it is deleted or an insert not yet
    /// reported (its changes are part of the insert).
    @inline(__always)
    func noteUpdated(_ object: ManagedObject) {
        let flags = object.storage.flags
        if !flags.contains(.deleted) && (!flags.contains(.inserted) || flags.contains(.insertAnnounced)) {
            pendingUpdated.insert(object)
        }
    }

    /// Notes that `object` was deleted here; with `runningDeleteRules`, its delete rules are to
    /// run at the next processing of pending changes.
    func noteDeleted(_ object: ManagedObject, runningDeleteRules: Bool) {
        pendingUpdated.remove(object)
        if !pendingInserted.remove(object) { pendingDeleted.insert(object) }
        if runningDeleteRules { deletesToPropagate.append(object) }
    }

    /// Notes that `object` left the context deleted by someone else (another save, a merge
    /// policy), or by an undo of its insert once saved.
    func noteDeletedElsewhere(_ object: ManagedObject) {
        pendingUpdated.remove(object)
        pendingDeleted.insert(object)
    }

    /// Notes that an undo took back the unsaved delete of `object` (its rules not run yet are
    /// forgotten).
    func noteUndeleted(_ object: ManagedObject) {
        pendingDeleted.remove(object)
        deletesToPropagate.removeAll { $0 === object }
    }

    /// Notes that `object` was refreshed.
    func noteRefreshed(_ object: ManagedObject) {
        pendingRefreshed.insert(object)
    }

    /// Notes a merged save's update of the registered `object`, with the slots it changed when
    /// known (`nil` when the object has changes of its own).
    func noteMergedUpdate(of object: ManagedObject, slots: [Int]?) {
        noteMergedKeys(of: object.objectID, slots: slots, entity: object.entity, first: !pendingUpdated.contains(object))
        pendingUpdated.insert(object)
    }

    /// Notes a merged save's update of `id`, which is not registered here.
    func noteMergedUpdate(ofUnregistered id: ManagedObjectID, slots: [Int]?, entity: EntityDescription?) {
        noteMergedKeys(of: id, slots: slots, entity: entity, first: !pendingMergedUnregistered.contains(id))
        pendingMergedUnregistered.insert(id)
    }

    /// Records the keys a merged save changed on `id` for objects-did-change: known only while
    /// every update of the batch came from merged saves that said which (`first`: this is the
    /// batch's first update of it).
    private func noteMergedKeys(of id: ManagedObjectID, slots: [Int]?, entity: EntityDescription?, first: Bool) {
        guard let slots, let entity, first || pendingMergedKeys[id] != nil else {
            pendingMergedKeys[id] = nil
            return
        }
        let properties = entity.allProperties
        pendingMergedKeys[id, default: []].formUnion(slots.lazy.filter { $0 < properties.count }.map { properties[$0].name })
    }

    /// The deleted objects whose rules have not run, or `nil` when there are none; they are
    /// handed out once.
    func takeDeletesToPropagate() -> [ManagedObject]? {
        guard !deletesToPropagate.isEmpty else { return nil }
        defer { deletesToPropagate = [] }
        return deletesToPropagate
    }

    // MARK: Reporting

    /// The objects-did-change for what was noted since the last one, or `nil` when nothing
    /// was; what it reports is forgotten here. `registry` tells which merged objects changed
    /// here as well (their merged keys are then not known).
    func takeObjectsDidChange(registry: ContextRegistry) -> ObjectsDidChange? {
        guard
            !(pendingInserted.isEmpty && pendingUpdated.isEmpty && pendingDeleted.isEmpty && pendingRefreshed.isEmpty
                && pendingMergedUnregistered.isEmpty && pendingReadFailures.isEmpty)
        else { return nil }
        let updated = pendingInserted.isEmpty ? pendingUpdated : pendingUpdated.filter { !pendingInserted.contains($0) }
        let inserted = pendingInserted.takeAnnouncing()
        var change = ObjectsDidChange(
            inserted: inserted,
            updatedObjects: updated,
            deletedObjects: pendingDeleted,
            refreshedObjects: pendingRefreshed,
            invalidatedAllObjects: false,
            mergedUnregisteredObjectIDs: pendingMergedUnregistered
        )
        change.readFailures = pendingReadFailures
        // An object changed or refreshed here as well since it was merged: its changed keys are
        // not known.
        change.mergedChangedKeys = pendingMergedKeys.filter { entry in
            registry[entry.key].map { !$0.hasChanges && !pendingRefreshed.contains($0) } ?? true
        }
        pendingReadFailures = [:]
        forgetPendingChanges()
        return change
    }

    /// Forgets the changes noted for the next objects-did-change, except refreshes with
    /// `keepingRefreshed`.
    func forgetPendingChanges(keepingRefreshed: Bool = false) {
        pendingInserted.removeAll()
        pendingUpdated = []
        pendingDeleted = []
        pendingMergedUnregistered = []
        pendingMergedKeys = [:]
        if !keepingRefreshed { pendingRefreshed = [] }
    }

    /// Notes objects a rollback refreshed.
    func noteRefreshed(_ objects: Set<ManagedObject>) {
        pendingRefreshed.formUnion(objects)
    }

    /// Forgets the refreshed objects, once a rollback reported them.
    func forgetRefreshed() {
        pendingRefreshed = []
    }

    /// Forgets the deletes whose rules have not run (a rollback takes them back).
    func forgetDeletesToPropagate() {
        deletesToPropagate = []
    }

    /// For a reset: forgets everything noted, store errors included (the objects they concern
    /// are forgotten with everything else).
    func removeAll() {
        deletesToPropagate = []
        unreportedStoreErrors = []
        pendingReadFailures = [:]
        forgetPendingChanges()
    }

    // MARK: Store errors

    /// Keeps `error`, met while doing `what`, for the next save or fetch, and names `objects`
    /// with it in the next objects-did-change.
    func recordStoreError(_ error: any Error, for objects: [ManagedObject], while what: String) {
        let wrapped = error as? ObjectGraphError ?? ObjectGraphError(.persistentStoreOperation, "could not \(what)", underlying: error)
        if unreportedStoreErrors.count < Self.keptStoreErrors { unreportedStoreErrors.append(wrapped) }
        for object in objects where pendingReadFailures[object] == nil { pendingReadFailures[object] = wrapped }
    }

    /// The error to throw for the store errors kept since the last save or fetch — the error
    /// itself when there is one, else one that counts them and carries the first's cause — or
    /// `nil`; they are forgotten.
    func takeUnreportedError() -> ObjectGraphError? {
        guard let first = unreportedStoreErrors.first else { return nil }
        let count = unreportedStoreErrors.count
        unreportedStoreErrors = []
        if count == 1 { return first }
        return ObjectGraphError(
            first.code,
            "\(count)\(count == Self.keptStoreErrors ? " or more" : "") store reads failed since the last save or fetch; the first: \(first.message)",
            underlying: first,
            file: first.cause?.file
        )
    }
}
