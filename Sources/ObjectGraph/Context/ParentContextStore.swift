import Foundation
import Synchronization

/// The ``ObjectStore`` of a child context: its parent context, as Core Data's
/// `NSManagedObjectContext.parent`.
///
/// A child reads *through* its parent: a row is the parent's registered object's current
/// values (unsaved changes included; an object the parent deleted has no row), otherwise the
/// parent's own store's row; fetches run the parent's fetch, which merges the parent's pending
/// inserts, updates and deletes. A child's save pushes its changes into the parent's objects
/// and writes nothing to disk. Every call into the parent runs on the parent's queue,
/// synchronously (in place when already on it: a child used from the main thread under a
/// main-queue parent). Calls only go up the chain, never down, so chains of any depth cannot
/// deadlock on each other.
///
/// Object IDs, fetch plans and the model come from the root store directly: IDs stay
/// permanent across the chain, and a plan compiled for the root serves every level.
final class ParentContextStore: ObjectStore, @unchecked Sendable {
    // @unchecked Sendable: `parent` is used only on its own queue (every call hops there with
    // `onParent`); `child` is set once at creation and read only on the child's queue (its
    // save); the merge observation is guarded by its lock.

    /// The context this store reads from and pushes saves into.
    let parent: ManagedObjectContext
    /// The coordinator at the root of the chain.
    let coordinator: PersistentStoreCoordinator
    /// The context this store serves (held weakly: the child holds this store).
    private weak var child: ManagedObjectContext?
    /// The child's subscription to the parent's saves, when it merges them automatically.
    private let mergeObservation = Mutex<ContextObservation?>(nil)

    /// Makes `observation` the child's subscription; the one it replaces is cancelled after
    /// the lock is released (cancelling takes the parent's observer lock).
    func replaceMergeObservation(with observation: ContextObservation?) {
        let replaced = mergeObservation.withLock { current in
            defer { current = observation }
            return current
        }
        replaced?.cancel()
    }

    /// Drops the child's subscription to the parent's saves.
    func dropMergeObservation() {
        replaceMergeObservation(with: nil)
    }

    init(parent: ManagedObjectContext, coordinator: PersistentStoreCoordinator, child: ManagedObjectContext) {
        self.parent = parent
        self.coordinator = coordinator
        self.child = child
    }

    /// The root store, throwing when the root coordinator has none loaded.
    private func rootStore() throws -> any ObjectStore {
        guard let store = coordinator.store else {
            throw ObjectGraphError(
                .noPersistentStore,
                "the root context of this child context has no persistent store; load the container's stores first"
            )
        }
        return store
    }

    /// Runs `body` on the parent's queue and waits (in place when already there).
    private func onParent<T>(_ body: (ManagedObjectContext) throws -> T) rethrows -> T {
        try parent.queue.sync { try body(parent) }
    }

    // MARK: ObjectStore

    var managedObjectModel: ManagedObjectModel { coordinator.managedObjectModel }

    var identifier: String { coordinator.store?.identifier ?? "" }

    /// `nil`: the parent's objects change without a store event, so a child's faults read
    /// through to the parent when they fire, and its fetches return loaded objects.
    var snapshotGeneration: UInt64? { nil }

    func newObjectID(forEntity entityCode: Int) throws -> ManagedObjectID {
        try rootStore().newObjectID(forEntity: entityCode)
    }

    func row(for id: ManagedObjectID) throws -> StoredRow? {
        try onParent { try $0.rowForChild(id) }
    }

    func rows(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow] {
        guard !ids.isEmpty else { return [:] }
        return try onParent { try $0.rowsForChild(ids) }
    }

    func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan {
        try rootStore().fetchPlan(for: request)
    }

    func canUse(_ plan: FetchPlan) -> Bool {
        coordinator.store?.canUse(plan) ?? false
    }

    func cachedFetchPlan(for request: FetchDescriptor, key: FetchPlanKey) throws -> FetchPlan {
        try rootStore().cachedFetchPlan(for: request, key: key)
    }

    func rows(matching request: FetchDescriptor) throws -> [StoredRow] {
        try onParent { parent in
            try parent.objectsForChild(matching: request).compactMap(parent.rowForChild(of:))
        }
    }

    func objectIDs(matching request: FetchDescriptor) throws -> [ManagedObjectID] {
        try onParent { parent in
            let (entity, descriptor) = try parent.descriptorForChild(request)
            return try parent.matchingIDs(entity, descriptor, includePending: true)
        }
    }

    func count(matching request: FetchDescriptor) throws -> Int {
        try onParent { parent in
            let (entity, descriptor) = try parent.descriptorForChild(request)
            return try parent.count(entity, descriptor, includePending: true)
        }
    }

    /// Dictionary results read the store only, as a root context's do (and as Core Data's do).
    func dictionaries(matching request: FetchDescriptor, properties: [String], distinct: Bool) throws -> [[String: Value]] {
        try rootStore().dictionaries(matching: request, properties: properties, distinct: distinct)
    }

    func members(of id: ManagedObjectID, relationship: RelationshipKey) throws -> [ManagedObjectID] {
        try onParent { try $0.membersForChild(of: id, relationship: relationship) }
    }

    func members(ofAll ids: [ManagedObjectID], relationship: RelationshipKey) throws -> [[ManagedObjectID]] {
        guard !ids.isEmpty else { return [] }
        return try onParent { parent in try ids.map { try parent.membersForChild(of: $0, relationship: relationship) } }
    }

    /// A push is atomic on the parent's queue (checked and applied in one block), so sibling
    /// children need no other lock.
    func serializingSaves<T>(_ body: () throws -> T) rethrows -> T {
        try body()
    }

    /// Pushes a child's save into the parent: conflicts are checked first (each updated or
    /// deleted object's values as the child read them against the parent's current ones), and
    /// nothing changes in the parent when there is one.
    ///
    /// - Throws: ``OptimisticLockingFailure`` for conflicts (the child's merge policy resolves
    ///   them and pushes again); a store error from reading objects the parent had not loaded.
    func save(_ changes: SaveChanges) throws {
        // Called on the child's queue: the snapshots the child's objects were read with.
        var snapshots: [ManagedObjectID: ContiguousArray<Value>] = [:]
        if let child {
            for check in changes.versionChecks {
                if let committed = child.registry[check.id]?.storage.committed { snapshots[check.id] = committed }
            }
        }
        try parent.performAndWait { try parent.applyChildSave(changes, snapshots: snapshots) }
    }
}
