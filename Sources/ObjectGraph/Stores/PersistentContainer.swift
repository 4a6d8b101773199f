public import Foundation
import Synchronization

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

    /// The versions of the model, when the container was created from a bundle: stores written
    /// with an older version migrate through them, one version at a time.
    public let managedObjectModelBundle: ManagedObjectModelBundle?

    private let viewContextStorage = Mutex<ManagedObjectContext?>(nil)

    /// Creates a container for `model`; call ``loadPersistentStores(completionHandler:)`` next.
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.name = name
        managedObjectModel = model
        managedObjectModelBundle = nil
        persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        persistentStoreDescriptions = [PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
    }

    /// Creates a container for the current version of `bundle`; a store written with an older
    /// version migrates through the versions between, one at a time (see <doc:Migrations>).
    ///
    /// ```swift
    /// let bundle = try ManagedObjectModelBundle(contentsOf: modelURL)
    /// let container = PersistentContainer(name: "Company", bundle: bundle)
    /// try await container.loadPersistentStores()
    /// ```
    ///
    /// A description may still set its own ``PersistentStore/stagedMigrationManagerOption``
    /// (for custom stages); without one, the container gives it a ``StagedMigrationManager``
    /// over `bundle`.
    public init(name: String, bundle: ManagedObjectModelBundle) {
        self.name = name
        managedObjectModel = bundle.currentModel
        managedObjectModelBundle = bundle
        persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: bundle.currentModel)
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
        if let url = description.url, url.isFileURL, description.type == SQLiteStoreType, url.path != "/dev/null" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        var options = description.options
        options[PersistentStore.migratePersistentStoresAutomaticallyOption] = description.shouldMigrateStoreAutomatically
        options[PersistentStore.inferMappingModelAutomaticallyOption] = description.shouldInferMappingModelAutomatically
        if options[PersistentStore.stagedMigrationManagerOption] == nil, let managedObjectModelBundle {
            options[PersistentStore.stagedMigrationManagerOption] = StagedMigrationManager(bundle: managedObjectModelBundle)
        }
        try persistentStoreCoordinator.addPersistentStore(
            type: PersistentStore.StoreType(rawValue: description.type),
            configuration: description.configuration,
            at: description.url,
            options: options
        )
    }

    /// The main-queue context for the UI (and for code on the main thread); created on first use.
    public var viewContext: ManagedObjectContext {
        if let context = viewContextStorage.withLock({ $0 }) { return context }
        // Made and attached with the lock released (attaching takes the coordinator's lock);
        // when two threads race here, the first one stored wins and the other is dropped.
        let made = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        made.name = "viewContext"
        made.attach(to: persistentStoreCoordinator)
        return viewContextStorage.withLock { storage in
            if let context = storage { return context }
            storage = made
            return made
        }
    }

    /// A new private-queue context on the container's coordinator; use it inside `perform`.
    public func newBackgroundContext() -> ManagedObjectContext {
        newBackgroundContext(qualityOfService: .default)
    }

    /// A new private-queue context on the container's coordinator whose blocks run at
    /// `qualityOfService` (see ``ManagedObjectContext/init(concurrencyType:qualityOfService:)``):
    /// `.background` for work nobody waits on, such as an import.
    public func newBackgroundContext(qualityOfService: QualityOfService) -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, qualityOfService: qualityOfService)
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
    /// ``SQLiteStoreType`` (the default), ``InMemoryStoreType``, or a registered type such as
    /// ObjectGraphPostgres's `PostgreSQLStoreType` (once that is registered, a `postgres://` URL
    /// selects it by itself).
    public var type: String = SQLiteStoreType
    /// The model configuration to use.
    public var configuration: String?
    /// Whether the store is opened read-only: as in Core Data, the
    /// ``PersistentStore/readOnlyOption`` of ``options`` (`"NSReadOnlyPersistentStoreOption"`),
    /// so setting either sets both.
    public var isReadOnly: Bool {
        get { (try? PersistentStoreCoordinator.flag(PersistentStore.readOnlyOption, in: options)) ?? false }
        set { options[PersistentStore.readOnlyOption] = newValue }
    }
    /// Accepted for source compatibility: stores always load synchronously.
    public var shouldAddStoreAsynchronously = false
    /// Whether a store written with an older version of the model is migrated when it loads
    /// (`true` by default, as in Core Data); `false` refuses it with an error naming the
    /// store's version and the model's, and leaves the file as it was. See <doc:Migrations>.
    public var shouldMigrateStoreAutomatically = true
    /// Whether a migration may infer lightweight steps (`true` by default, as in Core Data);
    /// `false` allows only the custom stages of a ``StagedMigrationManager``.
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
