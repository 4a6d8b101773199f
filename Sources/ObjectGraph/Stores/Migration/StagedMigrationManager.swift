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
public final class StagedMigrationManager: Sendable {
    /// Every version of the model, oldest first.
    public let bundle: ManagedObjectModelBundle
    /// The custom stages; steps without one are lightweight.
    public let stages: [MigrationStage]

    /// A manager for the versions of `bundle`, with custom `stages` where a step is not
    /// lightweight.
    public init(bundle: ManagedObjectModelBundle, stages: [MigrationStage] = []) {
        self.bundle = bundle
        self.stages = stages
    }

    /// The stage that starts at version `name`, if any.
    func stage(from name: String) -> MigrationStage? {
        stages.first { $0.sourceVersion == name }
    }
}

/// One step of a staged migration, between two named versions of a
/// ``ManagedObjectModelBundle`` — Core Data's `NSCustomMigrationStage`.
public struct MigrationStage: Sendable {
    /// The version the stage migrates from (as ``ManagedObjectModelBundle/Version/name``).
    public let sourceVersion: String
    /// The version the stage migrates to.
    public let destinationVersion: String
    /// The custom work, run after the inferable part is copied and before the old tables go.
    let handler: (@Sendable (MigrationContext) throws -> Void)?

    /// A stage for a change that is not lightweight: what can be inferred is copied first
    /// (changes that cannot be inferred are left empty instead of failing), then `handler`
    /// runs with both versions' tables, in the migration's transaction. A thrown error rolls
    /// the whole migration back.
    ///
    /// - Parameters:
    ///   - source: The version migrated from.
    ///   - destination: The version migrated to, usually the next one.
    ///   - handler: Reads the old tables and writes the new ones (see ``MigrationContext``).
    public static func custom(
        from source: String,
        to destination: String,
        handler: @escaping @Sendable (MigrationContext) throws -> Void
    ) -> MigrationStage {
        MigrationStage(sourceVersion: source, destinationVersion: destination, handler: handler)
    }

    /// A lightweight stage (what a step without a stage does anyway); use it to skip the
    /// versions between `source` and `destination`.
    public static func lightweight(from source: String, to destination: String) -> MigrationStage {
        MigrationStage(sourceVersion: source, destinationVersion: destination, handler: nil)
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
