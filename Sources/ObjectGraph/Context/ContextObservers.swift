import Foundation

/// The observers of one context's notifications (objects-did-change, will-save, did-save,
/// object IDs replaced), registered and removed from any thread.
///
/// Invariants it keeps:
/// - **Every access to its table holds its lock**, and nothing else happens under it: observers
///   are handed out as a copy and called after the lock is released, on the context's queue
///   (ARCHITECTURE.md, the lock rule), so an observer may add or remove observers.
/// - **A removed observer is released outside the lock**: what its closure captured may deinit
///   and remove an observer in turn (the lock is not recursive).
/// - **Observers are called in the order they were added** (tokens only grow).
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
