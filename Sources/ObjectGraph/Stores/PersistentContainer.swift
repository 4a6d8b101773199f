public import Foundation

/// The whole stack — model, coordinator, store, contexts — in one object, as Core Data's
/// `NSPersistentContainer`.
///
/// ```swift
/// let container = PersistentContainer(name: "SPoT", managedObjectModel: model)
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
/// container.loadPersistentStores { description, error in
///     if let error { fatalError("\(error)") }
/// }
/// let context = container.viewContext
/// ```
open class PersistentContainer: @unchecked Sendable {
    // @unchecked Sendable: the descriptions are set up before loading (one thread), and the
    // lazily created view context is in a lock-protected box.

    /// The container's name; the default store file is `<name>.sqlite`.
    public let name: String
    /// The model.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator all of the container's contexts use.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The stores to load: by default one SQLite file in ``defaultDirectoryURL()``.
    public var persistentStoreDescriptions: [PersistentStoreDescription]

    private let viewContextStorage = Locked<ManagedObjectContext?>(nil)

    /// Creates a container for `model`; call ``loadPersistentStores(completionHandler:)`` next.
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.name = name
        managedObjectModel = model
        persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        persistentStoreDescriptions = [PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
    }

    /// Where stores go by default: the user's application-support directory
    /// (`~/.local/share` on Linux).
    open class func defaultDirectoryURL() -> URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// Loads every store description, calling `completionHandler` once per description before
    /// this method returns, with the error if the store could not be loaded.
    public func loadPersistentStores(completionHandler: (PersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                try load(description)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
    }

    /// Loads every store description, throwing the first error.
    public func loadPersistentStores() async throws {
        for description in persistentStoreDescriptions { try load(description) }
    }

    private func load(_ description: PersistentStoreDescription) throws {
        if let url = description.url, description.type == SQLiteStoreType, url.path != "/dev/null" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        var options = description.options
        options[PersistentStore.readOnlyOption] = description.isReadOnly
        try persistentStoreCoordinator.addPersistentStore(
            type: PersistentStore.StoreType(rawValue: description.type),
            configuration: description.configuration,
            at: description.url,
            options: options
        )
    }

    /// The main-queue context for the UI (and for code on the main thread); created on first use.
    public var viewContext: ManagedObjectContext {
        viewContextStorage.withLock { storage in
            if let context = storage { return context }
            let context = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            context.name = "viewContext"
            context.attach(to: persistentStoreCoordinator)
            storage = context
            return context
        }
    }

    /// A new private-queue context on the container's coordinator; use it inside `perform`.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.name = "background"
        context.attach(to: persistentStoreCoordinator)
        return context
    }

    /// Runs `block` on a new background context's queue.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}

/// How to open one store, as Core Data's `NSPersistentStoreDescription`.
public final class PersistentStoreDescription: CustomStringConvertible {
    /// The store file; `/dev/null` means in memory.
    public var url: URL?
    /// ``SQLiteStoreType`` (the default) or ``InMemoryStoreType``.
    public var type: String = SQLiteStoreType
    /// The model configuration to use.
    public var configuration: String?
    /// Whether the store is opened read-only.
    public var isReadOnly = false
    /// Accepted for source compatibility: stores always load synchronously.
    public var shouldAddStoreAsynchronously = false
    /// Accepted for source compatibility (migrations come later).
    public var shouldMigrateStoreAutomatically = true
    /// Accepted for source compatibility (migrations come later).
    public var shouldInferMappingModelAutomatically = true
    /// Store options.
    public private(set) var options: [String: Any] = [:]

    /// A description of an SQLite store at `url`.
    public init(url: URL) { self.url = url }

    /// A description with no URL; set ``url`` or ``type``.
    public init() {}

    /// Sets a store option.
    public func setOption(_ option: Any?, forKey key: String) { options[key] = option }

    /// A readable summary, for logs and debugging.
    public var description: String { "PersistentStoreDescription(\(type), \(url?.path ?? "no URL"))" }
}

extension ManagedObjectContext {
    /// Connects a new context to its coordinator without the queue check (it is not shared yet).
    func attach(to coordinator: PersistentStoreCoordinator) {
        setCoordinatorUnchecked(coordinator)
        coordinator.register(self)
    }
}
