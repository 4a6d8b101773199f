import Foundation

extension ManagedObjectContext {
    /// How many times a save resolves conflicts and tries again before it gives up (other
    /// saves keep changing the same objects).
    static let conflictAttempts = 10

    /// Resolves a save's optimistic-locking conflicts with ``mergePolicy``: throws for
    /// ``MergePolicy/error``, else brings each conflicting object to the store's version as the
    /// policy says, so the save can run again.
    ///
    /// - Throws: ``ObjectGraphError/Code/managedObjectMerge`` listing the conflicts (policy
    ///   `.error`, or conflicts still coming after ``conflictAttempts`` tries); a custom
    ///   policy's error. The context keeps its changes.
    func resolveConflicts(_ failure: OptimisticLockingFailure, in store: any ObjectStore, attempt: Int) throws {
        let objects = failure.storeVersions.keys.compactMap { registry[$0] }
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        let rows: [ManagedObjectID: StoredRow]
        do {
            rows = try store.rows(for: objects.map(\.objectID))
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the save found \(objects.count) object(s) changed in the store but could not read their new values; nothing was saved",
                underlying: error
            )
        }
        // Deleted here and there: nothing left to save for it, under every policy.
        for object in objects where object.isDeleted && rows[object.objectID] == nil {
            markDeletedElsewhere(object)
        }
        let conflicts = objects.filter { !$0.storage.flags.contains(.gone) }.map { MergeConflict(object: $0, row: rows[$0.objectID]) }
        guard !conflicts.isEmpty else { return }
        let policy = mergePolicy
        if policy.type == .errorMergePolicyType || attempt > Self.conflictAttempts {
            let why =
                attempt > Self.conflictAttempts
                ? "other saves kept changing them (\(Self.conflictAttempts) attempts)" : "the merge policy is .error"
            throw ObjectGraphError(
                .managedObjectMerge,
                "the save of context '\(name ?? "unnamed")' found \(conflicts.count) object(s) changed in the store since they were read, and \(why); nothing was saved",
                conflicts: conflicts
            )
        }
        if let resolver = policy.resolver { try resolver(conflicts, self) }
        for object in objects where !object.storage.flags.contains(.gone) {
            resolve(object, against: rows[object.objectID], with: policy.type)
        }
        // Objects-did-change reports the resolved objects after the save, outside the save lock.
    }

    /// Brings one conflicting object to the store's `row` (`nil`: deleted there) as `type` says.
    private func resolve(_ object: ManagedObject, against row: StoredRow?, with type: MergePolicyType) {
        guard let row else {
            // A row cannot come back through an update: the other save's delete wins.
            markDeletedElsewhere(object)
            return
        }
        if object.isDeleted {
            object.storage.rebaseDeleted(on: row)
            return
        }
        let slots = MergeConflict.storedSlots(of: object.entity)
        let committed = object.storage.committed ?? row.values
        let changed = object.storage.changed
        switch type {
        case .rollbackMergePolicyType:
            apply(row, to: object, keepingChanges: false)
            tracker.noteRefreshed(object)
        case .overwriteMergePolicyType:
            object.storage.rebase(on: row, storedSlots: slots, writesAll: true) { _ in true }
        case .mergeByPropertyStoreTrumpMergePolicyType:
            object.storage.rebase(on: row, storedSlots: slots, writesAll: false) { slot in
                changed.contains(slot) && committed[slot] == row.values[slot]
            }
            tracker.noteRefreshed(object)
        case .mergeByPropertyObjectTrumpMergePolicyType, .errorMergePolicyType:
            object.storage.rebase(on: row, storedSlots: slots, writesAll: false) { slot in changed.contains(slot) }
            tracker.noteRefreshed(object)
        }
    }
}
