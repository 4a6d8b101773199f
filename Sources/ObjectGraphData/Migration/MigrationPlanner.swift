import Foundation
import ObjectGraph

/// Runs a ``SchemaMigrationPlan`` on a configuration's store before the container opens it.
enum MigrationPlanner {
    /// Moves the store of `configuration` to `schema`'s version through `plan`'s stages.
    static func migrate(_ configuration: ModelConfiguration, by plan: any SchemaMigrationPlan.Type, to schema: Schema) throws {
        // Stores in memory start empty: nothing to migrate.
        guard !configuration.isStoredInMemoryOnly else { return }
        guard let current = try storeVersion(configuration, plan: plan) else { return }
        var version = current
        while let stage = plan.stages.first(where: { $0.fromVersion.versionIdentifier == version.versionIdentifier }),
            stage.fromVersion.versionIdentifier < schema.version
        {
            if case .custom(_, _, let willMigrate?, _) = stage {
                try run(willMigrate, configuration, Schema(versionedSchema: stage.fromVersion))
            }
            // Opening with the next version migrates (lightweight) and closes again.
            try run({ _ in }, configuration, Schema(versionedSchema: stage.toVersion))
            if case .custom(_, _, _, let didMigrate?) = stage {
                try run(didMigrate, configuration, Schema(versionedSchema: stage.toVersion))
            }
            version = stage.toVersion
        }
    }

    /// The version of the plan whose schema opens the store as it is; `nil` when there is no
    /// store yet.
    private static func storeVersion(_ configuration: ModelConfiguration, plan: any SchemaMigrationPlan.Type) throws -> (any VersionedSchema.Type)? {
        if configuration.url.isFileURL, !FileManager.default.fileExists(atPath: configuration.url.path) { return nil }
        for version in plan.schemas.reversed() {
            let schema = Schema(versionedSchema: version)
            let container = PersistentContainer(name: configuration.name, managedObjectModel: schema.managedObjectModel)
            // Without history: probing must not fail on a store Core Data wrote, whose history
            // ObjectGraph does not record, nor add history tables to a store it only looks at.
            let description = configuration.storeDescription(history: false)
            description.shouldMigrateStoreAutomatically = false
            description.shouldInferMappingModelAutomatically = false
            container.persistentStoreDescriptions = [description]
            var failed = false
            container.loadPersistentStores { _, error in failed = error != nil }
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
            if !failed { return version }
        }
        throw SwiftDataError.migrationFailed.with("no schema version of the plan opens the store at \(configuration.url)")
    }

    /// Opens the store with `schema` (migrating it if needed), runs `body` on a context of it
    /// and saves, then closes the store.
    private static func run(_ body: (ModelContext) throws -> Void, _ configuration: ModelConfiguration, _ schema: Schema) throws {
        let container = try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        defer {
            for store in container.persistentContainer.persistentStoreCoordinator.persistentStores {
                try? container.persistentContainer.persistentStoreCoordinator.remove(store)
            }
        }
        let context = ModelContext(container)
        try body(context)
        try context.save()
    }
}
