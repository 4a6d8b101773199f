import Foundation
import ObjectGraph

/// A store the tool opened: its model (given, or the one the store carries) and a container
/// with the store loaded, read-only unless asked otherwise.
struct OpenedStore {
    let model: ManagedObjectModel
    let container: PersistentContainer

    /// Opens the store at `store` with the model at `model` (an `.xcdatamodeld`,
    /// `.xcdatamodel`, `.momd` or `.mom`), or, when `model` is `nil`, with the one the store
    /// carries: Core Data's cache in a file (`Z_MODELCACHE`), the model snapshot in a
    /// PostgreSQL store's metadata.
    ///
    /// - Throws: ``ToolError`` naming the file or server when the model cannot be read, the
    ///   store is missing or unreachable, or the store does not open with the model.
    init(store: StoreLocation, model: String?, readOnly: Bool = true) throws {
        if store.isFile, model == nil, !FileManager.default.fileExists(atPath: store.url.path) {
            throw ToolError("\(store.name): no such file")
        }
        if !store.isFile {
            // A schema without a store would be created by opening it: read its metadata first.
            do {
                _ = try PersistentStoreCoordinator.metadataForPersistentStore(at: store.url)
            } catch {
                throw ToolError("\(error)")
            }
        }
        do {
            if let model {
                self.model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: model))
            } else {
                self.model = try ManagedObjectModel(cachedInStoreAt: store.url)
            }
        } catch {
            if model == nil, !store.isFile { throw ToolError("\(error)") }
            throw ToolError("\(model ?? store.name): cannot be read as a model (\(error))")
        }
        if store.isFile, !FileManager.default.fileExists(atPath: store.url.path) { throw ToolError("\(store.name): no such file") }
        container = PersistentContainer(name: "objectgraph", managedObjectModel: self.model)
        let description = PersistentStoreDescription(url: store.url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw ToolError("\(failure)") }
    }
}
