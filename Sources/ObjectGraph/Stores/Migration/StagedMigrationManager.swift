import Synchronization

/// The versions a store migrates through, and the custom stages among them — Core Data's
/// `NSStagedMigrationManager`.
///
/// Give it to a store with ``PersistentStore/stagedMigrationManagerOption`` (a
/// ``PersistentContainer`` created with ``PersistentContainer/init(name:bundle:)`` does it for
/// you). A store several versions behind then migrates one version at a time, oldest first:
/// each step is inferred (lightweight) unless a stage covers it.
///
/// ```swift
/// let bundle = try ManagedObjectModelBundle(contentsOf: modelURL)
/// let manager = StagedMigrationManager(bundle: bundle, stages: [
///     .custom(from: "Model 2", to: "Model 3") { context in
///         try context.execute("UPDATE …")
///     },
/// ])
/// description.setOption(manager, forKey: PersistentStore.stagedMigrationManagerOption)
/// ```
///
/// Core Data's own form, stages of model versions named by checksum, works the same way:
///
/// ```swift
/// let stage = CustomMigrationStage(migratingFrom: v1Reference, to: v2Reference)
/// stage.didMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()
///     try context.performAndWait { /* fetch, change and save with version 2's model */ }
/// }
/// let manager = StagedMigrationManager([LightweightMigrationStage([v0Checksum, v1Checksum]), stage])
/// ```
public final class StagedMigrationManager: Sendable {
    /// Every version of the model, oldest first (for a manager made of Core Data's stages,
    /// none: its stages name the versions).
    public let bundle: ManagedObjectModelBundle
    /// The stages, in the order given.
    public let stages: [MigrationStage]
    private let current = Mutex<PersistentContainer?>(nil)

    /// A manager for the versions of `bundle`, with custom `stages` where a step is not
    /// lightweight.
    public init(bundle: ManagedObjectModelBundle, stages: [MigrationStage] = []) {
        self.bundle = bundle
        self.stages = stages
    }

    /// A manager of Core Data's stages (``LightweightMigrationStage``, ``CustomMigrationStage``),
    /// as `NSStagedMigrationManager(_:)`: a store written by a version a stage names is moved
    /// through the stages that follow from it, each custom stage's handlers running with
    /// ``container`` open on the store.
    public init(_ stages: [MigrationStage]) {
        self.bundle = ManagedObjectModelBundle(versions: [])
        self.stages = stages
    }

    /// While a ``CustomMigrationStage``'s handler runs: a container with the store open, with
    /// the model of the version the store is at (the stage's current model before the
    /// migration, its next model after); `nil` otherwise.
    public var container: PersistentContainer? {
        current.withLock { $0 }
    }

    /// Sets ``container`` for the length of a handler.
    func withContainer<T>(_ container: PersistentContainer, _ body: () throws -> T) rethrows -> T {
        current.withLock { $0 = container }
        defer { current.withLock { $0 = nil } }
        return try body()
    }

    /// The stage that starts at version `name`, if any.
    func stage(from name: String) -> MigrationStage? {
        stages.first { $0.sourceVersion == name }
    }
}

extension PersistentStore {
    /// The option key of a ``StagedMigrationManager``: the versions (and custom stages) a store
    /// migrates through — Core Data's `NSPersistentStoreStagedMigrationManagerOptionKey`.
    public static let stagedMigrationManagerOption = "NSPersistentStoreStagedMigrationManagerOptionKey"

    /// The option key (a `Bool`) that migrates a store written with an older model version
    /// when it is added — Core Data's `NSMigratePersistentStoresAutomaticallyOption`. Absent
    /// means `false`, as in Core Data; a ``PersistentStoreDescription`` sets it from
    /// ``PersistentStoreDescription/shouldMigrateStoreAutomatically`` (`true` by default).
    public static let migratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"

    /// The option key (a `Bool`) that lets a migration infer lightweight steps — Core Data's
    /// `NSInferMappingModelAutomaticallyOption`. Absent means `false`; a
    /// ``PersistentStoreDescription`` sets it from
    /// ``PersistentStoreDescription/shouldInferMappingModelAutomatically``.
    public static let inferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
}
