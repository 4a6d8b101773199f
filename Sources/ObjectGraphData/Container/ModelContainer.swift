import Foundation
public import ObjectGraph
import Synchronization

/// Holds a schema's stores and hands out contexts, as SwiftData's `ModelContainer`.
///
/// ```swift
/// let container = try ModelContainer(
///     for: Book.self, Author.self,
///     configurations: ModelConfiguration(isStoredInMemoryOnly: true)
/// )
/// let context = ModelContext(container)
/// ```
///
/// It is `Sendable`: share one container, and give each task or actor its own
/// ``ModelContext`` (or use ``mainContext`` on the main actor).
public final class ModelContainer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable and Sendable but the migration
    // plan, a metatype of a protocol whose requirements are all static.
    /// The schema the container stores.
    public let schema: Schema
    /// The configurations its stores were opened with.
    public let configurations: [ModelConfiguration]
    /// The migration plan the stores were opened with, if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The ObjectGraph container underneath: its coordinator, stores and contexts.
    public let persistentContainer: PersistentContainer
    /// The main context, made on first use.
    let mainContextStorage = Mutex<MainContextBox?>(nil)

    /// A container of `types` (and the models they reach), stored as `configurations` say
    /// (by default in `default.store` under Application Support).
    ///
    /// - Throws: when a store cannot be opened or migrated.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(forTypes), migrationPlan: nil, configurations: configurations)
    }

    /// A container of `schema`.
    public convenience init(for givenSchema: Schema, configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: nil, configurations: configurations)
    }

    /// A container of `schema`, migrating stores written with earlier schema versions by
    /// `migrationPlan`'s stages.
    ///
    /// - Throws: when a store cannot be opened or migrated; nothing of it is changed then.
    public init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]) throws {
        let configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        schema = givenSchema
        self.configurations = configurations
        self.migrationPlan = migrationPlan
        persistentContainer = PersistentContainer(name: configurations[0].name, managedObjectModel: givenSchema.managedObjectModel)
        if let migrationPlan {
            for configuration in configurations { try MigrationPlanner.migrate(configuration, by: migrationPlan, to: givenSchema) }
        }
        persistentContainer.persistentStoreDescriptions = configurations.map { $0.storeDescription() }
        var failed: [(ModelConfiguration, any Error)] = []
        persistentContainer.loadPersistentStores { description, error in
            if let error, let index = persistentContainer.persistentStoreDescriptions.firstIndex(where: { $0 === description }) {
                failed.append((configurations[index], error))
            }
        }
        // A store Core Data (or SwiftData) wrote keeps its history in tables ObjectGraph does
        // not write: such a store opens without history (fetchHistory then throws).
        for (configuration, error) in failed {
            guard let storeError = error as? ObjectGraphError, storeError.code == .persistentStoreOperation,
                storeError.description.contains("persistent history")
            else { throw error }
            persistentContainer.persistentStoreDescriptions = [configuration.storeDescription(history: false)]
            var retried: (any Error)?
            persistentContainer.loadPersistentStores { _, error in retried = error }
            if retried != nil { throw error }
        }
        persistentContainer.persistentStoreDescriptions = configurations.map { $0.storeDescription() }
    }

    /// The context of the main actor, made on first use; it saves on its own (see
    /// ``ModelContext/autosaveEnabled``).
    ///
    /// The container owns it, and it refers to the container without keeping it alive: keep
    /// the container while you use its main context (see ``ModelContext/container``).
    ///
    /// Its ObjectGraph context is a main-queue one (as Core Data's `viewContext`), so its
    /// models read their values in place on the main actor, with no hop onto another queue;
    /// other contexts' saves merge into it on the main queue.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextStorage.withLock({ $0?.context }) { return context }
        // Made with the lock released (attaching takes the coordinator's lock); the main actor
        // makes it once.
        let objectContext = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        objectContext.persistentStoreCoordinator = persistentContainer.persistentStoreCoordinator
        let made = ModelContext(self, managedObjectContext: objectContext, isMainContext: true)
        made.autosaveEnabled = true
        let stored = mainContextStorage.withLock { box in
            if let box { return box }
            let new = MainContextBox(context: made)
            box = new
            return new
        }
        return stored.context
    }

    /// Deletes every model of the container's stores (all of them, as SwiftData's
    /// `deleteAllData()`), by a batch delete per entity.
    public func deleteAllData() throws {
        let context = persistentContainer.newBackgroundContext()
        try context.performAndWait {
            for entity in schema.entities {
                let request = BatchDeleteRequest(fetchRequest: FetchRequest<any FetchRequestResult>(entityName: entity.name))
                _ = try context.execute(request)
            }
        }
    }

    /// Whether saves may happen, per the configurations.
    var allowsSave: Bool { configurations.allSatisfy(\.allowsSave) }

    /// The observers that want to hear of in-memory evaluation.
    var statementObservers: [SQLStatementObserver] { configurations.compactMap(\.sqlStatementObserver) }
}

/// The main context, made on the main actor and only handed out there.
final class MainContextBox: @unchecked Sendable {
    // @unchecked Sendable: only read through `mainContext`, which is main-actor isolated.
    let context: ModelContext
    init(context: ModelContext) { self.context = context }
}
