import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Containers whose store tracks persistent history, for the history tests.
enum HistoryStack {
    /// A store file in a new temporary folder (not created yet).
    static func temporaryURL() -> URL {
        TestDirectory.make("objectgraph-history")
            .appendingPathComponent("History.sqlite")
    }

    /// The SPoT model with `Photo.unique` kept in delete tombstones.
    static func model() throws -> ManagedObjectModel {
        let model = SPoTModel.make()
        let unique = try #require(model.entitiesByName["Photo"]?.properties.first { $0.name == "unique" } as? AttributeDescription)
        unique.preservesValueInHistoryOnDeletion = true
        return model
    }

    /// A container on the file at `url` (in memory for `nil`), tracking history unless
    /// `tracking` is `false`.
    static func container(at url: URL?, tracking: Bool = true, model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: "History", managedObjectModel: try model ?? Self.model())
        let description: PersistentStoreDescription
        if let url {
            description = PersistentStoreDescription(url: url)
        } else {
            description = PersistentStoreDescription()
            description.type = InMemoryStoreType
        }
        if tracking { description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption) }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// A container on a new, empty store of `kind` tracking history (a PostgreSQL store always
    /// does: other instances follow it through its history).
    static func container(_ kind: StoreKind, model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: "History", managedObjectModel: try model ?? Self.model())
        let description = try kind.newDescription()
        description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// Runs `request` in `context` (on its queue) and returns its result's value.
    static func run(_ request: PersistentHistoryChangeRequest, in context: ManagedObjectContext) throws -> Any? {
        try context.performAndWait {
            let result = try #require(try context.execute(request) as? PersistentHistoryResult)
            #expect(result.resultType == request.resultType)
            return result.result
        }
    }

    /// The transactions after `token` (every one for `nil`), with their changes.
    static func transactions(after token: PersistentHistoryToken?, in context: ManagedObjectContext) throws -> [PersistentHistoryTransaction] {
        try #require(try run(.fetchHistory(after: token), in: context) as? [PersistentHistoryTransaction])
    }
}
