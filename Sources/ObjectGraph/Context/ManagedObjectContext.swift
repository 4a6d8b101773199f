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

    // The context's parts, each the owner of its state, with the invariants it keeps at the
    // top of its file (ARCHITECTURE.md, "A context's parts"). Besides them the context keeps
    // only its settings, its queue and its links (coordinator or parent, `objectReference`).

    /// The registered objects (one per ID), the changed objects, and the bookkeeping kept per
    /// object.
    let registry = ContextRegistry()

    /// What changed since the last objects-did-change, the deletes whose rules have not run,
    /// the store errors not yet reported, and the undo step being recorded.
    let tracker = ChangeTracker()
    /// The observers of the context's notifications (registered from any thread).
    let observers = ContextObservers()

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
}
