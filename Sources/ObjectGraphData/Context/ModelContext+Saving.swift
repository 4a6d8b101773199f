public import Foundation
import ObjectGraph

extension ModelContext {
    /// Posted (on `NotificationCenter.default`, object: the context) before a save.
    public static let willSave = Notification.Name("ObjectGraphData.ModelContext.willSave")
    /// Posted after a save; `userInfo` holds the saved models' identifiers under
    /// ``NotificationKey``'s `inserted`, `updated` and `deleted` raw values.
    public static let didSave = Notification.Name("ObjectGraphData.ModelContext.didSave")

    /// The keys of ``didSave``'s `userInfo`, as SwiftData's.
    public enum NotificationKey: String, Sendable {
        /// `[PersistentIdentifier]` of the inserted models.
        case insertedIdentifiers
        /// `[PersistentIdentifier]` of the updated models.
        case updatedIdentifiers
        /// `[PersistentIdentifier]` of the deleted models.
        case deletedIdentifiers
        /// The context's history token after the save, when history is recorded.
        case queryGeneration
        /// Whether the context was invalidated.
        case invalidatedAllIdentifiers
    }

    /// Saves the context's changes to the store in one transaction.
    ///
    /// A model inserted with a `.unique` attribute value already stored updates the stored
    /// model instead (SwiftData's upsert). A delete rule `.deny` with related models left, a
    /// relationship out of its count bounds, or a store error throws, and the changes stay.
    ///
    /// - Throws: ``ObjectGraph/ObjectGraphError`` naming what failed; nothing is saved then.
    public func save() throws {
        guard hasChanges else { return }
        guard allowsSave else {
            throw SwiftDataError.saveNotAllowed
        }
        NotificationCenter.default.post(name: Self.willSave, object: self)
        let saved = try read { () throws -> (inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier]) in
            let inserted = managedObjectContext.insertedObjects
            let updated = managedObjectContext.updatedObjects
            let deleted = managedObjectContext.deletedObjects
            try managedObjectContext.save()
            // Deleted objects leave the context: forget their models.
            for object in deleted { registry.remove(object) }
            // The identifiers (permanent now) of the saved objects that have models. Each
            // object is in its set once, so the identifiers need no set of their own.
            let ids = { (objects: Set<ManagedObject>) -> [PersistentIdentifier] in
                var ids: [PersistentIdentifier] = []
                ids.reserveCapacity(objects.count)
                for object in objects where self.registry.contains(object) { ids.append(PersistentIdentifier(object.objectID)) }
                return ids
            }
            return (ids(inserted), ids(updated), deleted.map { PersistentIdentifier($0.objectID) })
        }
        NotificationCenter.default.post(
            name: Self.didSave,
            object: self,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: saved.inserted,
                NotificationKey.updatedIdentifiers.rawValue: saved.updated,
                NotificationKey.deletedIdentifiers.rawValue: saved.deleted,
            ]
        )
    }

    /// Discards the unsaved changes: inserted models leave the context, changed and deleted
    /// ones return to their saved values.
    public func rollback() {
        read {
            for object in managedObjectContext.insertedObjects { registry.remove(object) }
            managedObjectContext.rollback()
        }
    }

    /// Runs `block`, then saves its changes; a thrown error rolls them back.
    ///
    /// - Throws: `block`'s error, or the save's.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    /// Settles pending changes, and saves them when ``autosaveEnabled`` is on.
    ///
    /// - Note: ObjectGraph settles changes as they are made; this is where autosave happens
    ///   for a context without a main actor to schedule it.
    public func processPendingChanges() {
        read { managedObjectContext.processPendingChanges() }
        autosaveIfNeeded()
    }

    /// Saves if autosave is on and there are changes; a failing autosave keeps the changes
    /// (and is reported by the next explicit ``save()``).
    func autosaveIfNeeded() {
        autosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        try? save()
    }

    /// After a change: on the main context, schedules one autosave on the main actor.
    func noteChange() {
        guard autosaveEnabled, !autosaveScheduled, isMainContext else { return }
        autosaveScheduled = true
        let box = UncheckedContext(context: self)
        Task { @MainActor in box.context.autosaveIfNeeded() }
    }
}

/// Carries the main context into its autosave task, which runs on the main actor where the
/// main context lives.
private struct UncheckedContext: @unchecked Sendable {
    // @unchecked Sendable: the main context is only used on the main actor; the task runs there.
    let context: ModelContext
}
