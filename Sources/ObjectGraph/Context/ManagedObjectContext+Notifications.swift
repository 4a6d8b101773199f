import Foundation

extension ManagedObjectContext {
    /// The user-info key of an ``ObjectsDidChange`` in a posted notification.
    public static let objectsDidChangeKey = "ObjectGraph.objectsDidChange"
    /// The user-info key of a ``ContextDidSave`` in a posted notification.
    public static let didSaveKey = "ObjectGraph.didSave"

    /// Calls `observer` on the context's queue, synchronously, each time pending changes are
    /// processed (the objects-did-change notification). Keep the returned observation alive.
    public func addObjectsDidChangeObserver(_ observer: @escaping (ObjectsDidChange) -> Void) -> ContextObservation {
        let token = observers.add(objectsDidChange: observer)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    /// Calls `observer` on the context's queue before each save writes anything.
    public func addWillSaveObserver(_ observer: @escaping () -> Void) -> ContextObservation {
        let token = observers.add(willSave: observer)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    /// Calls `observer` on the context's queue after each successful save, with the saved IDs.
    public func addDidSaveObserver(_ observer: @escaping @Sendable (ContextDidSave) -> Void) -> ContextObservation {
        let token = observers.add(didSave: observer)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    /// The context's saves, as an asynchronous sequence of ``ContextDidSave`` payloads.
    ///
    /// Each iteration of the returned sequence sees the saves made after it was created; ending
    /// the iteration removes the observer.
    public func didSaveNotifications() -> AsyncStream<ContextDidSave> {
        AsyncStream { continuation in
            let token = observers.add(didSave: { continuation.yield($0) })
            continuation.onTermination = { [observers] _ in observers.remove(token) }
        }
    }

    /// Like ``addObjectsDidChangeObserver(_:)``, and also called for changes that consist only of
    /// merged updates to unregistered objects (for fetched results controllers).
    func addObjectsDidChangeObserverIncludingUnregistered(_ observer: @escaping (ObjectsDidChange) -> Void) -> ContextObservation {
        let token = observers.add(objectsDidChange: observer, includingUnregistered: true)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    /// Calls `observer` on the context's queue when objects' temporary IDs are replaced by
    /// permanent ones (old ID to new), so that whoever keys objects by ID (fetched results
    /// controllers) can follow.
    func addObjectIDsReplacedObserver(_ observer: @escaping ([ManagedObjectID: ManagedObjectID]) -> Void) -> ContextObservation {
        let token = observers.add(objectIDsReplaced: observer)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    func postObjectIDsReplaced(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        for observer in observers.objectIDsReplacedObservers { observer(replaced) }
    }

    func postObjectsDidChange(_ change: ObjectsDidChange) {
        let unregisteredOnly =
            change.inserted.objects.isEmpty && change.updatedObjects.isEmpty && change.deletedObjects.isEmpty
            && change.refreshedObjects.isEmpty && !change.invalidatedAllObjects && change.readFailures.isEmpty
        tracker.beginPostingChange()
        for observer in observers.objectsDidChangeObservers(unregisteredOnly: unregisteredOnly) { observer(change) }
        tracker.endPostingChange()
        guard !unregisteredOnly else { return }
        NotificationCenter.default.post(
            name: .managedObjectContextObjectsDidChange,
            object: self,
            userInfo: [Self.objectsDidChangeKey: change]
        )
    }

    func postWillSave() {
        for observer in observers.willSaveObservers { observer() }
        NotificationCenter.default.post(name: .managedObjectContextWillSave, object: self)
    }

    func postDidSave(_ saved: ContextDidSave) {
        for observer in observers.didSaveObservers { observer(saved) }
        NotificationCenter.default.post(
            name: .managedObjectContextDidSave,
            object: self,
            userInfo: saved.notificationUserInfo
        )
    }
}
