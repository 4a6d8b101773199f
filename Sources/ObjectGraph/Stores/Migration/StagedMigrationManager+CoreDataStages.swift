import Foundation

/// Core Data's stages (``LightweightMigrationStage``, ``CustomMigrationStage``), run before the
/// store is added: the store moves one version at a time, each step a store opened with the
/// next version's model (an inferred migration, in its own transaction), and a custom stage's
/// handlers run with the store open before and after its step.
extension StagedMigrationManager {
    /// One step: from the version with checksum `from` to the one with `to`, through `stage`
    /// when a custom stage makes it.
    private struct Step {
        let from: String
        let to: String
        let stage: CustomMigrationStage?
    }

    /// Moves the store at `url` through the stages that follow from the version it is at.
    /// Does nothing for a store that does not exist yet, or is at no version a stage starts
    /// from.
    ///
    /// - Parameter models: Models the lightweight stages' checksums may name besides the
    ///   custom stages' (the model the store is being added with).
    /// - Throws: A handler's error, a migration's, or ``ObjectGraphError`` when a stage names a
    ///   checksum no known model has.
    func runCoreDataStages(storeAt url: URL, type: PersistentStore.StoreType, options: [String: Any]?, models: [ManagedObjectModel]) throws {
        var steps: [Step] = []
        for stage in stages {
            if let custom = stage as? CustomMigrationStage {
                steps.append(Step(from: custom.currentModel.versionChecksum, to: custom.nextModel.versionChecksum, stage: custom))
            } else if let lightweight = stage as? LightweightMigrationStage {
                for (from, to) in zip(lightweight.versionChecksums, lightweight.versionChecksums.dropFirst()) {
                    steps.append(Step(from: from, to: to, stage: nil))
                }
            }
        }
        guard !steps.isEmpty, !url.isFileURL || FileManager.default.fileExists(atPath: url.path) else { return }
        var byChecksum: [String: ManagedObjectModel] = [:]
        for model in models { byChecksum[model.versionChecksum] = model }
        for case let stage as CustomMigrationStage in stages {
            for reference in [stage.currentModel, stage.nextModel] where byChecksum[reference.versionChecksum] == nil {
                byChecksum[reference.versionChecksum] = try reference.resolvedModel
            }
        }
        func model(_ checksum: String) throws -> ManagedObjectModel {
            guard let model = byChecksum[checksum] else {
                throw ObjectGraphError(
                    .persistentStoreIncompatibleVersionHash,
                    "a migration stage names the model version checksum \(checksum), which none of the stages' models nor the store's model has; the store at \(url.path) stays at the version it reached"
                )
            }
            return model
        }
        var visited: Set<String> = []
        while true {
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url, options: options)
            guard let hashes = metadata[StoreModelVersionHashesKey] as? [String: Data] else { return }
            let checksum = ManagedObjectModel.versionChecksum(of: hashes)
            guard visited.insert(checksum).inserted, let step = steps.first(where: { $0.from == checksum && $0.to != checksum }) else { return }
            if let stage = step.stage, let willMigrate = stage.willMigrateHandler {
                try withStore(at: url, type: type, options: options, model: model(step.from), migrating: false) { container in
                    try withContainer(container) { try willMigrate(self, stage) }
                }
            }
            try withStore(at: url, type: type, options: options, model: model(step.to), migrating: true, from: model(step.from)) { container in
                if let stage = step.stage, let didMigrate = stage.didMigrateHandler {
                    try withContainer(container) { try didMigrate(self, stage) }
                }
            }
        }
    }

    /// Opens the store at `url` with `model` (migrating to it when `migrating`), runs `body`
    /// with the container, and closes the store.
    private func withStore(
        at url: URL,
        type: PersistentStore.StoreType,
        options: [String: Any]?,
        model: ManagedObjectModel,
        migrating: Bool,
        from source: ManagedObjectModel? = nil,
        _ body: (PersistentContainer) throws -> Void
    ) throws {
        let container = PersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.type = type.rawValue
        for (key, value) in options ?? [:] where key != PersistentStore.stagedMigrationManagerOption {
            description.setOption(value, forKey: key)
        }
        if let source {
            // The step's two versions: the store's own metadata may not name its model (a Core
            // Data store migrated before keeps no model cache).
            let versions = [source, model].map { model in
                ManagedObjectModelBundle.Version(name: model.versionChecksum, url: url, model: model)
            }
            description.setOption(StagedMigrationManager(bundle: ManagedObjectModelBundle(versions: versions)), forKey: PersistentStore.stagedMigrationManagerOption)
        }
        description.shouldMigrateStoreAutomatically = migrating
        description.shouldInferMappingModelAutomatically = migrating
        description.shouldAddStoreAsynchronously = false
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        defer {
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        if let loadError { throw loadError }
        try body(container)
    }
}
