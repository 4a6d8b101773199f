import Foundation

/// The observers of one context, registered from any thread.
final class ContextObservers: @unchecked Sendable {
    // @unchecked Sendable: the dictionaries are only touched under `lock`.
    private let lock = NSLock()
    private var nextToken = 0
    private var objectsDidChange: [Int: (ObjectsDidChange) -> Void] = [:]
    /// Observers that also want changes made only of unregistered merged IDs.
    private var wantsUnregistered: Set<Int> = []
    private var willSave: [Int: () -> Void] = [:]
    private var didSave: [Int: @Sendable (ContextDidSave) -> Void] = [:]

    func add(objectsDidChange observer: @escaping (ObjectsDidChange) -> Void, includingUnregistered: Bool = false) -> Int {
        locked {
            nextToken += 1
            objectsDidChange[nextToken] = observer
            if includingUnregistered { wantsUnregistered.insert(nextToken) }
            return nextToken
        }
    }
    func add(willSave observer: @escaping () -> Void) -> Int {
        locked { nextToken += 1; willSave[nextToken] = observer; return nextToken }
    }
    func add(didSave observer: @escaping @Sendable (ContextDidSave) -> Void) -> Int {
        locked { nextToken += 1; didSave[nextToken] = observer; return nextToken }
    }
    func remove(_ token: Int) {
        locked {
            objectsDidChange[token] = nil
            wantsUnregistered.remove(token)
            willSave[token] = nil
            didSave[token] = nil
        }
    }
    func objectsDidChangeObservers(unregisteredOnly: Bool) -> [(ObjectsDidChange) -> Void] {
        locked { objectsDidChange.filter { !unregisteredOnly || wantsUnregistered.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value) }
    }
    var willSaveObservers: [() -> Void] { locked { willSave.sorted { $0.key < $1.key }.map(\.value) } }
    var didSaveObservers: [@Sendable (ContextDidSave) -> Void] { locked { didSave.sorted { $0.key < $1.key }.map(\.value) } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
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

    func postObjectsDidChange(_ change: ObjectsDidChange) {
        let unregisteredOnly = change.insertedObjects.isEmpty && change.updatedObjects.isEmpty && change.deletedObjects.isEmpty
            && change.refreshedObjects.isEmpty && !change.invalidatedAllObjects && change.readFailures.isEmpty
        for observer in observers.objectsDidChangeObservers(unregisteredOnly: unregisteredOnly) { observer(change) }
        guard !unregisteredOnly else { return }
        NotificationCenter.default.post(name: .managedObjectContextObjectsDidChange, object: self,
                                        userInfo: [Self.objectsDidChangeKey: change])
    }

    func postWillSave() {
        for observer in observers.willSaveObservers { observer() }
        NotificationCenter.default.post(name: .managedObjectContextWillSave, object: self)
    }

    func postDidSave(_ saved: ContextDidSave) {
        for observer in observers.didSaveObservers { observer(saved) }
        NotificationCenter.default.post(name: .managedObjectContextDidSave, object: self, userInfo: [
            Self.didSaveKey: saved,
            "insertedObjectIDs": saved.insertedObjectIDs,
            "updatedObjectIDs": saved.updatedObjectIDs,
            "deletedObjectIDs": saved.deletedObjectIDs,
        ])
    }
}
