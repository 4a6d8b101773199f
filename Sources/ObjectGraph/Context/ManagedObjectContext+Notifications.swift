import Foundation

/// The observers of one context, registered from any thread.
final class ContextObservers: @unchecked Sendable {  // every access to `registry` holds `lock`
    private struct Registry {
        var nextToken = 0
        var objectsDidChange: [Int: (ObjectsDidChange) -> Void] = [:]
        /// Observers that also want changes made only of unregistered merged IDs.
        var wantsUnregistered: Set<Int> = []
        var willSave: [Int: () -> Void] = [:]
        var didSave: [Int: @Sendable (ContextDidSave) -> Void] = [:]
        var objectIDsReplaced: [Int: ([ManagedObjectID: ManagedObjectID]) -> Void] = [:]

        mutating func token() -> Int {
            nextToken += 1
            return nextToken
        }
    }

    // Objects-did-change and will-save observers are not `@Sendable`: they are registered from
    // any thread but only ever called on the context's queue, as Core Data's notifications are.
    // (A `Mutex` would demand `sending` closures, which these are not.)
    private var registry = Registry()
    private let lock = NSLock()

    private func withRegistry<Result>(_ body: (inout Registry) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&registry)
    }

    func add(objectsDidChange observer: @escaping (ObjectsDidChange) -> Void, includingUnregistered: Bool = false) -> Int {
        withRegistry { registry in
            let token = registry.token()
            registry.objectsDidChange[token] = observer
            if includingUnregistered { registry.wantsUnregistered.insert(token) }
            return token
        }
    }
    func add(willSave observer: @escaping () -> Void) -> Int {
        withRegistry { registry in
            let token = registry.token()
            registry.willSave[token] = observer
            return token
        }
    }
    func add(didSave observer: @escaping @Sendable (ContextDidSave) -> Void) -> Int {
        withRegistry { registry in
            let token = registry.token()
            registry.didSave[token] = observer
            return token
        }
    }
    func add(objectIDsReplaced observer: @escaping ([ManagedObjectID: ManagedObjectID]) -> Void) -> Int {
        withRegistry { registry in
            let token = registry.token()
            registry.objectIDsReplaced[token] = observer
            return token
        }
    }
    func remove(_ token: Int) {
        // The observer is released after the lock is: the last reference to what its closure
        // captured may go with it, and that object's deinit may remove an observer in turn
        // (this lock is not recursive) or call out (ARCHITECTURE.md, the lock rule).
        let removed = withRegistry { registry in
            registry.wantsUnregistered.remove(token)
            return (
                registry.objectsDidChange.removeValue(forKey: token), registry.willSave.removeValue(forKey: token),
                registry.didSave.removeValue(forKey: token), registry.objectIDsReplaced.removeValue(forKey: token)
            )
        }
        withExtendedLifetime(removed) {}
    }
    func objectsDidChangeObservers(unregisteredOnly: Bool) -> [(ObjectsDidChange) -> Void] {
        withRegistry { registry in
            registry.objectsDidChange.filter { !unregisteredOnly || registry.wantsUnregistered.contains($0.key) }.sorted { $0.key < $1.key }.map(
                \.value
            )
        }
    }
    var willSaveObservers: [() -> Void] { withRegistry { $0.willSave.sorted { $0.key < $1.key }.map(\.value) } }
    var didSaveObservers: [@Sendable (ContextDidSave) -> Void] { withRegistry { $0.didSave.sorted { $0.key < $1.key }.map(\.value) } }
    var objectIDsReplacedObservers: [([ManagedObjectID: ManagedObjectID]) -> Void] {
        withRegistry { $0.objectIDsReplaced.sorted { $0.key < $1.key }.map(\.value) }
    }
}

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
