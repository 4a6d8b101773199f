/// One step of a staged migration — Core Data's `NSMigrationStage`.
///
/// Two forms: ObjectGraph's, between two named versions of a ``ManagedObjectModelBundle``
/// (``custom(from:to:handler:)`` with SQL on both versions' tables, in the migration's one
/// transaction; ``lightweight(from:to:)``), and Core Data's, between model versions named by
/// checksum (``CustomMigrationStage`` with handlers that use contexts, and
/// ``LightweightMigrationStage``). A ``StagedMigrationManager`` takes either.
///
/// Stages are configured before the manager is given to a store, and not changed after:
/// their handlers run on the thread that adds the store.
public class MigrationStage: @unchecked Sendable {
    /// A name for the stage, for logs (Core Data's `label`).
    public var label: String = ""
    /// The bundle version the stage migrates from (``ManagedObjectModelBundle/Version/name``);
    /// empty for Core Data's stages.
    public let sourceVersion: String
    /// The bundle version the stage migrates to; empty for Core Data's stages.
    public let destinationVersion: String
    /// The custom SQL work, run after the inferable part is copied and before the old tables go.
    let handler: (@Sendable (MigrationContext) throws -> Void)?

    init(sourceVersion: String, destinationVersion: String, handler: (@Sendable (MigrationContext) throws -> Void)?) {
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.handler = handler
    }

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

/// Model versions a store moves through by lightweight migration, oldest first, named by
/// their ``ManagedObjectModel/versionChecksum`` — Core Data's `NSLightweightMigrationStage`.
///
/// The versions are found among the models the manager's ``CustomMigrationStage``s name
/// (every version of their model files) and the versions of the container's model bundle.
public final class LightweightMigrationStage: MigrationStage, @unchecked Sendable {
    /// The versions' checksums, in the order the store moves through them.
    public let versionChecksums: [String]

    /// A stage through the versions with `versionChecksums`, oldest first.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init(sourceVersion: "", destinationVersion: "", handler: nil)
    }
}

/// A step from one model version to the next that runs code before and after the store's
/// lightweight migration — Core Data's `NSCustomMigrationStage`.
///
/// The handlers get the manager, whose ``StagedMigrationManager/container`` has the store open:
/// with ``currentModel`` in ``willMigrateHandler`` (to prepare the data the migration cannot
/// infer: fill a new required value, remove duplicates before a uniqueness constraint), with
/// ``nextModel`` in ``didMigrateHandler``. Save what a handler changes; a handler that throws
/// stops the migration, and the store stays at the version it had reached.
public final class CustomMigrationStage: MigrationStage, @unchecked Sendable {
    /// The version the stage migrates from.
    public let currentModel: ManagedObjectModelReference
    /// The version the stage migrates to.
    public let nextModel: ManagedObjectModelReference
    /// Runs before the migration, with the store open with ``currentModel``.
    public var willMigrateHandler: ((StagedMigrationManager, CustomMigrationStage) throws -> Void)?
    /// Runs after the migration, with the store open with ``nextModel``.
    public var didMigrateHandler: ((StagedMigrationManager, CustomMigrationStage) throws -> Void)?

    /// A stage from `currentModel` to `nextModel`.
    public init(migratingFrom currentModel: ManagedObjectModelReference, to nextModel: ManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init(sourceVersion: "", destinationVersion: "", handler: nil)
    }
}
