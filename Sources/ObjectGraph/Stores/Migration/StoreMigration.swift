import Foundation

/// Whether and how a store written with another model version migrates, read from the store's
/// options (``PersistentStore/migratePersistentStoresAutomaticallyOption`` and friends).
struct MigrationOptions: Sendable {
    var migratesAutomatically = false
    var infersMapping = false
    var manager: StagedMigrationManager?
}

/// The migration of one store file from the model version that wrote it to the app's: its
/// steps (one per version of the bundle, or one from the store's own snapshot), planned
/// before anything is written.
///
/// On SQLite, ``rehearse(url:configuration:)`` (in Stores/SQLite, with the other GRDB code) runs every step on a private copy of the file, so a
/// migration that cannot succeed fails without leaving a trace; ``run(in:)`` then runs them on
/// the store, in the caller's one transaction, and writes the new metadata.
struct StoreMigration {
    struct Step {
        let mapping: MigrationMapping
        let handler: (@Sendable (MigrationContext) throws -> Void)?
    }

    let steps: [Step]
    let metadata: StoreMetadata
    let target: ModelSnapshot
    /// Core Data's version hash of each entity of the target model, for the migrated metadata.
    let targetEntityVersionHashes: [String: Data]
    let path: String
    /// The layout every step writes: Core Data's for SQLite files, ObjectGraph's former one in
    /// the PostgreSQL store (see ``SQLStoreLayout``).
    let newLayout: StoreLayout
    /// What every refusal and failure says of the store ("the file was not changed").
    let unchanged: String
    /// For a store Core Data wrote: its metadata, which the migration rewrites in Core Data's
    /// form (so Core Data opens the file after it as before), instead of ObjectGraph's.
    var coreDataMetadata: CoreDataStoreMetadata?
    /// The target model's version identifiers, for Core Data's metadata.
    var targetVersionIdentifiers: [String] = []

    /// Plans the migration of a store whose metadata is `metadata` to `model`.
    ///
    /// - Throws: ``ObjectGraphError`` with code
    ///   ``ObjectGraphError/Code/persistentStoreIncompatibleVersionHash`` — naming the store's
    ///   version and the model's — when migration is off, inference is off and a step needs
    ///   it, the store is of a newer version, or store and model share no entity.
    init(
        metadata: StoreMetadata,
        model: ManagedObjectModel,
        options: MigrationOptions,
        path: String,
        layout newLayout: StoreLayout = .coreData,
        dialect: any SQLDialect = SQLiteDialect(),
        unchanged: String = "the file was not changed"
    ) throws {
        self.metadata = metadata
        self.path = path
        self.newLayout = newLayout
        self.unchanged = unchanged
        target = ModelSnapshot(model)
        targetEntityVersionHashes = model.entityVersionHashesByName
        // The first step reads the store's layout; every step writes Core Data's (a store in
        // ObjectGraph's former layout is brought to Core Data's by the same migration).
        var layout = metadata.storeLayout
        let versions = options.manager?.bundle.versions ?? []
        for version in versions { try version.model.validate() }
        let hashes = versions.map(\.model.versionHash)
        let storedHash = metadata.modelVersionHash
        let targetHash = target.versionHash
        func name(_ hash: String) -> String? { hashes.lastIndex(of: hash).map { versions[$0].name } }
        let storeVersion = name(storedHash) ?? "an unnamed version (hash \(storedHash.prefix(12)))"
        let identifiers = model.versionIdentifiers.sorted().joined(separator: ", ")
        let modelVersion =
            name(targetHash)
            ?? (identifiers.isEmpty ? "an unnamed version (hash \(targetHash.prefix(12)))" : "\(identifiers) (hash \(targetHash.prefix(12)))")
        let differences = target.differences(from: metadata.model)
        func incompatible(_ reason: String) -> ObjectGraphError {
            ObjectGraphError(
                .persistentStoreIncompatibleVersionHash,
                "the store at \(path) was written with model version \(Self.quoted(storeVersion)), and the model is version \(Self.quoted(modelVersion)): \(reason); \(unchanged)",
                differences: differences.isEmpty ? ["the model version hashes differ"] : differences,
                file: path
            )
        }
        guard options.migratesAutomatically else {
            throw incompatible("automatic migration is off (PersistentStoreDescription.shouldMigrateStoreAutomatically)")
        }
        if metadata.rememberedVersionHashes.dropLast().contains(targetHash) {
            throw incompatible("the store has been migrated past this version, and is not migrated back")
        }
        var steps: [Step] = []
        if let start = hashes.lastIndex(of: storedHash), let end = hashes.lastIndex(of: targetHash) {
            guard start < end else { throw incompatible("the store was written by a newer version, and is not migrated back") }
            var index = start
            while index < end {
                let from = versions[index]
                if let stage = options.manager?.stage(from: from.name),
                    let destination = versions.firstIndex(where: { $0.name == stage.destinationVersion }), destination > index, destination <= end
                {
                    steps.append(
                        Step(
                            mapping: MigrationMapping(
                                from: from.model,
                                to: versions[destination].model,
                                sourceVersion: from.name,
                                destinationVersion: versions[destination].name,
                                oldLayout: layout,
                                newLayout: newLayout,
                                dialect: dialect
                            ),
                            handler: stage.handler
                        )
                    )
                    layout = newLayout
                    index = destination
                } else {
                    let to = versions[index + 1]
                    if to.model.versionHash != from.model.versionHash {
                        steps.append(
                            Step(
                                mapping: MigrationMapping(
                                    from: from.model,
                                    to: to.model,
                                    sourceVersion: from.name,
                                    destinationVersion: to.name,
                                    oldLayout: layout,
                                    newLayout: newLayout,
                                    dialect: dialect
                                ),
                                handler: nil
                            )
                        )
                        layout = newLayout
                    }
                    index += 1
                }
            }
        } else {
            // No bundle, or the store's version is not in it: straight from the store's snapshot.
            let old = try ManagedObjectModel(snapshot: metadata.model)
            let mapping = MigrationMapping(
                from: old,
                to: model,
                sourceVersion: storeVersion,
                destinationVersion: modelVersion,
                oldLayout: layout,
                newLayout: newLayout,
                dialect: dialect
            )
            steps = [Step(mapping: mapping, handler: nil)]
        }
        if steps.first?.mapping.sharesNoEntity == true {
            throw incompatible("they share no entity, so the store is not an older version of this model")
        }
        if !options.infersMapping, let step = steps.first(where: { $0.handler == nil }) {
            throw incompatible(
                "the step from \(Self.quoted(step.mapping.sourceVersion)) to \(Self.quoted(step.mapping.destinationVersion)) needs an inferred mapping, and inferring is off (PersistentStoreDescription.shouldInferMappingModelAutomatically)"
            )
        }
        self.steps = steps
    }

    /// Runs every step through `executor`, with the tables `creation` makes for each step's new
    /// model, in the caller's transaction; the caller writes ``migratedMetadata``.
    ///
    /// - Throws: As ``run(in:)``; a custom stage (its handler reads an SQLite connection) fails.
    func run(on executor: some MigrationSQLExecutor, creation: (ManagedObjectModel) -> [String]) throws {
        try runSteps { step in
            guard step.handler == nil else {
                throw ObjectGraphError(.migrationFailed, "custom migration stages run on SQLite stores only; \(unchanged)", file: path)
            }
            return try step.mapping.run(on: executor, creation: creation(step.mapping.newModel))
        }
    }

    /// Runs `body` for every step, turning what it reports and throws into the errors of
    /// ``run(in:)``.
    func runSteps(_ body: (Step) throws -> [String]) throws {
        for step in steps {
            let mapping = step.mapping
            let problems: [String]
            do {
                problems = try body(step)
            } catch let error as ObjectGraphError {
                throw error
            } catch {
                throw ObjectGraphError(
                    .migrationFailed,
                    "the store at \(path) could not be migrated from \(Self.quoted(mapping.sourceVersion)) to \(Self.quoted(mapping.destinationVersion))\(step.handler == nil ? "" : " (custom stage)"); \(unchanged)",
                    underlying: error,
                    file: path
                )
            }
            if !problems.isEmpty {
                throw ObjectGraphError(
                    .migrationFailed,
                    "the store at \(path) cannot be migrated from \(Self.quoted(mapping.sourceVersion)) to \(Self.quoted(mapping.destinationVersion)): \(problems.count) change\(problems.count == 1 ? "" : "s") cannot be migrated; \(unchanged)",
                    differences: problems,
                    file: path
                )
            }
        }
    }

    /// The store's metadata once migrated: the new layout, model and version hash, and the
    /// hashes the store has been written with.
    var migratedMetadata: StoreMetadata {
        var updated = metadata
        updated.layout = newLayout
        updated.modelVersionHash = target.versionHash
        updated.model = target
        updated.entityVersionHashes = targetEntityVersionHashes
        var history = metadata.rememberedVersionHashes
        for hash in steps.map(\.mapping.newModel.versionHash) + [target.versionHash] where history.last != hash {
            history.append(hash)
        }
        updated.versionHashHistory = history
        return updated
    }

    /// The conversion of a store ObjectGraph wrote in its former layout, with `model`'s very
    /// version, to Core Data's layout: one step that copies every row, relationship and order
    /// into the new tables. Rehearsed and run as any migration: in one transaction, the file
    /// untouched when it fails.
    init(convertingLayoutOf metadata: StoreMetadata, model: ManagedObjectModel, path: String) {
        self.metadata = metadata
        self.path = path
        newLayout = .coreData
        unchanged = "the file was not changed"
        target = ModelSnapshot(model)
        targetEntityVersionHashes = model.entityVersionHashesByName
        let mapping = MigrationMapping(
            from: model,
            to: model,
            sourceVersion: "ObjectGraph's former layout",
            destinationVersion: "Core Data's layout",
            oldLayout: .objectGraph,
            newLayout: .coreData
        )
        steps = [Step(mapping: mapping, handler: nil)]
    }

    /// A version's name in quotes; a description of an unnamed version as it is.
    static func quoted(_ version: String) -> String {
        version.hasPrefix("an unnamed version") ? version : "'\(version)'"
    }
}
