public import Foundation

/// A scratch pad of managed objects: it tracks changes, applies delete rules, validates and
/// saves, as Core Data's `NSManagedObjectContext`.
///
/// A context and its objects belong to one queue. A ``ConcurrencyType/mainQueueConcurrencyType``
/// context (a container's ``PersistentContainer/viewContext``) is used directly on the main
/// thread — top-level code, `@MainActor` code — and through ``perform(_:)`` from anywhere; a
/// ``ConcurrencyType/privateQueueConcurrencyType`` one only inside ``perform(_:)`` /
/// ``performAndWait(_:)``. In debug builds, use from another queue traps, as Core Data's
/// concurrency debugging does.
public final class ManagedObjectContext: @unchecked Sendable {
    // @unchecked Sendable: every mutable member is touched only on `queue` (checked in debug
    // builds by assertOnQueue); only the queue itself, immutable lets and the lock-guarded
    // observer lists are used from other threads.

    /// How a context's work is scheduled, as Core Data's `NSManagedObjectContextConcurrencyType`.
    public enum ConcurrencyType: Sendable {
        /// The context's queue is the main queue.
        case mainQueueConcurrencyType
        /// The context has its own private serial queue.
        case privateQueueConcurrencyType
    }

    /// The context's concurrency type.
    public let concurrencyType: ConcurrencyType
    /// A name for debugging and logs; persistent history records it as each transaction's
    /// ``PersistentHistoryTransaction/contextName``.
    public var name: String?
    /// Who saves with this context ("app", "importer", …), recorded as each save's
    /// ``PersistentHistoryTransaction/author`` when the store tracks persistent history, so a
    /// reader can skip its own transactions — as Core Data's `transactionAuthor`.
    public var transactionAuthor: String?
    /// Whether saves of sibling contexts (through the same coordinator) are merged in
    /// automatically, on this context's queue; for a child context (see ``parent``), the
    /// saves of its parent.
    public var automaticallyMergesChangesFromParent = false {
        didSet {
            coordinator?.updateAutomaticMerging(for: self)
            updateMergingFromParent()
        }
    }
    /// How a save resolves objects another save changed since this context read them (Core
    /// Data's optimistic locking); see ``MergePolicy``. ``MergePolicy/error`` by default.
    public var mergePolicy: MergePolicy = .error

    /// The coordinator this context reads from and saves to; for a child context (see
    /// ``parent``), its root context's coordinator, which it cannot set.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        get { coordinator ?? parentLink?.coordinator }
        set {
            assertOnQueue()
            precondition(parentLink == nil, "ObjectGraph: a context has either a persistentStoreCoordinator or a parent, not both")
            coordinator = newValue
            newValue?.register(self)
        }
    }

    let queue: ContextQueue
    private(set) var coordinator: PersistentStoreCoordinator? {
        didSet { registry.forgetEntityLookups() }
    }

    func setCoordinatorUnchecked(_ coordinator: PersistentStoreCoordinator) { self.coordinator = coordinator }

    /// The parent context, as a store, for a child context (see ``parent``).
    var parentLink: ParentContextStore? {
        didSet { registry.forgetEntityLookups() }
    }

    /// What this context reads from and saves to. Every read and write goes through this
    /// abstract store: the parent context for a child, else the coordinator's store.
    var parentStore: (any ObjectStore)? {
        if let parentLink { return parentLink }
        return coordinator?.store
    }

    // The context's parts, each the owner of its state (see each type's invariants).

    /// The registered objects (one per ID), the changed objects, and the bookkeeping kept per
    /// object.
    let registry = ContextRegistry()

    /// The registry, by its former name, for the tests that count its entries.
    var registeredObjectsByID: ContextRegistry { registry }
    /// The changed objects, for an asynchronous fetch deciding whether it may read the store
    /// off the context's queue (Requests/ reads it).
    var changedObjects: ChangedObjects { registry.changed }
    /// What changed since the last objects-did-change, the deletes whose rules have not run,
    /// the store errors not yet reported, and the undo step being recorded.
    let tracker = ChangeTracker()
    /// The observers of the context's notifications (registered from any thread).
    let observers = ContextObservers()

    /// Called after an undo or redo changed the context (ObjectGraphData schedules its
    /// autosave there).
    package var undoDidApply: (() -> Void)? {
        get { tracker.undoDidApply }
        set { tracker.undoDidApply = newValue }
    }

    // The tracker's pending changes and walks, as fetched results controllers read them
    // (Results/RelatedRoots.swift).
    var pendingInserted: PendingInsertions { tracker.pendingInserted }
    var pendingUpdated: Set<ManagedObject> { tracker.pendingUpdated }
    var pendingDeleted: Set<ManagedObject> { tracker.pendingDeleted }
    var relatedRootWalks: [RelatedRoots.Key: RelatedRoots]? {
        get { tracker.relatedRootWalks }
        set { tracker.relatedRootWalks = newValue }
    }

    /// The weak reference to this context that its objects share (see ``ContextReference``).
    let objectReference = ContextReference()

    /// Creates a context of `concurrencyType`; set ``persistentStoreCoordinator`` before use.
    public convenience init(concurrencyType: ConcurrencyType) {
        self.init(concurrencyType: concurrencyType, qualityOfService: .default)
    }

    /// Creates a context of `concurrencyType` whose private queue runs blocks at
    /// `qualityOfService`; set ``persistentStoreCoordinator`` before use.
    ///
    /// Not in Core Data, where a private queue's blocks take the quality of service of the
    /// code that enqueues them. libdispatch on Linux does not carry it across, and runs the
    /// lower classes at a higher nice value: a context for an import or for merging other
    /// processes' saves at `.utility` or `.background` leaves the processor to a server's
    /// request handling when both want it. A main-queue context ignores it.
    public init(concurrencyType: ConcurrencyType, qualityOfService: QualityOfService) {
        self.concurrencyType = concurrencyType
        queue = ContextQueue(
            main: concurrencyType == .mainQueueConcurrencyType,
            label: "ObjectGraph.ManagedObjectContext",
            qos: Self.dispatchQoS(qualityOfService)
        )
        objectReference.context = self
    }

    private static func dispatchQoS(_ qualityOfService: QualityOfService) -> DispatchQoS {
        switch qualityOfService {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .utility: .utility
        case .background: .background
        default: .unspecified
        }
    }

    deinit {
        // Related objects hold each other (a photo its tags, a tag its photos); with the
        // context gone nothing would turn them into faults, so their cycles are broken here.
        for object in registry.objects { object.storage.releaseRelated() }
    }

    /// The model of the context's coordinator (the root's, for a child context).
    var model: ManagedObjectModel? { (coordinator ?? parentLink?.coordinator)?.managedObjectModel }

    // MARK: Queue

    /// Traps when called off the context's queue (debug builds only).
    func assertOnQueue() {
        #if DEBUG
        if !queue.isCurrent {
            let kind =
                concurrencyType == .mainQueueConcurrencyType
                ? "main-queue context off the main thread" : "private-queue context outside perform/performAndWait"
            preconditionFailure(
                "ObjectGraph concurrency violation: \(name ?? "a ManagedObjectContext") (a \(kind)) was used from the wrong queue. Wrap the work in context.perform { … } and pass objectIDs, not objects, across queues."
            )
        }
        #endif
    }

    /// Runs `block` on the context's queue, asynchronously, then processes pending changes.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            block()
            processPendingChanges()
        }
    }

    /// When to run an `async` ``perform(schedule:_:)`` block, as Core Data's
    /// `NSManagedObjectContext.ScheduledTaskType`.
    public enum ScheduledTaskType: Sendable {
        /// Run in place if already on the context's queue, otherwise enqueue.
        case immediate
        /// Always enqueue behind work already scheduled.
        case enqueued
    }

    /// Runs `block` on the context's queue and returns its result.
    public func perform<T: Sendable>(schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () throws -> T) async throws -> T {
        if schedule == .immediate && queue.isCurrent {
            defer { processPendingChanges() }
            return try block()
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                let result = Result { try block() }
                processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `block` on the context's queue and returns its result.
    public func perform<T: Sendable>(schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () -> T) async -> T {
        if schedule == .immediate && queue.isCurrent {
            defer { processPendingChanges() }
            return block()
        }
        return await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = block()
                processPendingChanges()
                continuation.resume(returning: result)
            }
        }
    }

    /// Runs `block` on the context's queue and waits for it; reentrant (runs in place when
    /// already on the queue), so it may capture non-Sendable values.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try queue.sync {
            defer { processPendingChanges() }
            return try block()
        }
    }

    /// Runs `block` on the context's queue and waits for it, leaving pending changes to be
    /// processed by the next ``performAndWait(_:)``, ``processPendingChanges()`` or save — for
    /// a façade (ObjectGraphData's ModelContext) that reads or inserts one object per call and
    /// would otherwise post a change notification for each.
    package func performAndWaitDeferringPendingChanges<T>(_ block: () throws -> T) rethrows -> T {
        try queue.sync(block)
    }

    /// Runs `work` on the context's queue, asynchronously, leaving pending changes to the work
    /// itself — for an executor that runs jobs on the queue (ObjectGraphData's
    /// `DefaultSerialModelExecutor`, the executor of a `@ModelActor`).
    package func enqueueOnQueue(_ work: @escaping @Sendable () -> Void) {
        queue.async(work)
    }

    /// Whether the calling code runs on the context's queue (or in a synchronous call onto it).
    package var isOnQueue: Bool { queue.isCurrent }

    // MARK: Registry

    /// The objects registered in the context.
    public var registeredObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.objects)
    }

    /// The registered object with `objectID`, or `nil`.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        assertOnQueue()
        return registry[objectID]
    }

    /// The object with `objectID`: the registered one, or a fault that loads on first access.
    ///
    /// Does no I/O. If no such object exists, reading the fault gives `nil` values.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        assertOnQueue()
        if let object = registry[objectID] { return object }
        guard let entity = entity(of: objectID) else {
            preconditionFailure("ObjectGraph: object(with:) got \(objectID), whose entity is not in this context's model")
        }
        let object = registerNewObject(of: entity, id: objectID)
        object.storage.becomeFault()
        return object
    }

    /// The object with `objectID`, loaded; throws when no such object exists.
    ///
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/objectNotFound``.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        assertOnQueue()
        guard model?.entity(named: objectID.entityName) != nil else {
            throw ObjectGraphError(.objectNotFound, "no object with ID \(objectID): its entity is not in the model")
        }
        let object = self.object(with: objectID)
        if object.isFault { try loadFault(object) }
        if object.storage.flags.contains(.gone) {
            throw ObjectGraphError(.objectNotFound, "no object with ID \(objectID) exists in the store")
        }
        return object
    }

    /// The entity whose `managedObjectClass` is `type`.
    func entityBound(to type: ManagedObject.Type) -> EntityDescription? {
        registry.entityBound(to: type, in: model)
    }

    /// Reads a fault's row from the store; an object that no longer exists becomes "gone".
    ///
    /// For accessors that cannot throw: a failed read is reported (see ``reportFaultFailure(_:_:)``).
    func fulfillFault(of object: ManagedObject) {
        do {
            try loadFault(object)
        } catch {
            reportFaultFailure([object], error)
        }
    }

    /// Reads a fault's row from the store, throwing when the store cannot be read.
    func loadFault(_ object: ManagedObject) throws {
        guard let store = parentStore else { return }
        if let (fetch, number) = object.storage.faultBatch {
            try fillBatch(number, of: fetch, from: store)
            if !object.isFault { return }
        }
        // Only a fault a fetch left a row with asks the store's generation (a hot path).
        if case .fetchedRow = object.storage.faultSource, let generation = store.snapshotGeneration,
            let row = object.storage.takeFetchedRow(id: object.objectID, current: generation)
        {
            return fill(object, with: row)
        }
        try loadFaultWithNeighbours(object, from: store)
    }

    /// A fault whose row could not be read stays a fault — it keeps its identity and is read
    /// again on next access, never taken for deleted — and shows its entity's default values
    /// meanwhile; the error is kept for the next save or fetch and objects-did-change.
    func reportFaultFailure(_ objects: [ManagedObject], _ error: any Error) {
        for object in objects { object.storage.showPlaceholders(object.entity.defaultValues) }
        recordStoreError(error, for: objects, while: objects.count == 1 ? "read \(objects[0].objectID)" : "read \(objects.count) objects")
    }

    /// Turns a fault into a full object from its row, or into a "gone" object without one.
    func fill(_ object: ManagedObject, with row: StoredRow?) {
        guard let row else {
            object.storage.becomeMissing(defaults: object.entity.defaultValues)
            return
        }
        apply(row, to: object, keepingChanges: false)
        object.awakeFromFetch()
    }

    /// Puts a row's values into an object; with `keepingChanges`, unsaved changes stay on top.
    func apply(_ row: StoredRow, to object: ManagedObject, keepingChanges: Bool) {
        object.storage.load(row, entity: object.entity, keepingChanges: keepingChanges)
    }

    /// Loads a to-many relationship's members from the store; `nil` when the store could not
    /// be read (the error is reported as a fault's is, and the next access reads again).
    func loadMembers(of object: ManagedObject, slot: Int) -> [ManagedObjectID]? {
        guard let store = parentStore,
            let relationship = object.entity.allProperties[slot] as? RelationshipDescription,
            !relationship.isTransient
        else { return [] }
        do {
            return try membersWithNeighbours(of: object, relationship: relationship, from: store)
        } catch {
            recordStoreError(error, for: object, while: "read \(object.entity.name).\(relationship.name) of \(object.objectID)")
            return nil
        }
    }

    /// Registers a row fetched from the store as an object, reusing a registered one.
    func registerFetched(_ row: StoredRow) -> ManagedObject {
        registerFetched(row, asFaultAt: nil)
    }

    /// Registers a fetched row as an object; with a `generation` (`returnsObjectsAsFaults`), a
    /// new or still-faulted object stays a fault that keeps the row, and fills from it on first
    /// access without a query while the store is still at that generation.
    func registerFetched(_ row: StoredRow, asFaultAt generation: UInt64?) -> ManagedObject {
        if let object = registry[row.id] {
            if object.isFault {
                fillFetched(object, with: row, asFaultAt: generation)
            } else if !object.hasChanges && row.version != object.storage.version {
                apply(row, to: object, keepingChanges: false)
            }
            return object
        }
        guard let entity = entity(of: row.id) else {
            preconditionFailure("ObjectGraph: the store returned a row of unknown entity \(row.id.entityName)")
        }
        let object = registerNewObject(of: entity, id: row.id)
        if generation != nil { object.storage.becomeFault() }
        fillFetched(object, with: row, asFaultAt: generation)
        return object
    }

    /// Loads a fetched row into a fault, or (with a `generation`) leaves it a fault keeping the row.
    private func fillFetched(_ object: ManagedObject, with row: StoredRow, asFaultAt generation: UInt64?) {
        if let generation {
            object.storage.holdFetchedRow(row, generation: generation)
        } else {
            apply(row, to: object, keepingChanges: false)
            object.awakeFromFetch()
        }
    }

    /// The entity of `id` in the context's model (the last one found is remembered: a fetch
    /// registers rows of one entity after another).
    @inline(__always)
    func entity(of id: ManagedObjectID) -> EntityDescription? {
        registry.entity(of: id, in: model)
    }

    /// A new instance of `entity`'s class for the stored object `id`, registered in this context.
    private func registerNewObject(of entity: EntityDescription, id: ManagedObjectID) -> ManagedObject {
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = id
        object.managedObjectContext = self
        registry.register(object)
        return object
    }
}
