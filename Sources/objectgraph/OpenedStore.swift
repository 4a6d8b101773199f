import Foundation
import ObjectGraph

/// A store the tool opened: its model (given, or the one the store carries) and a container
/// with the store loaded, read-only unless asked otherwise.
struct OpenedStore {
    let model: ManagedObjectModel
    let container: PersistentContainer

    /// Opens the store at `store` with the model at `model` (an `.xcdatamodeld`,
    /// `.xcdatamodel`, `.momd` or `.mom`), or with the one Core Data cached in the store
    /// (`Z_MODELCACHE`) when `model` is `nil`.
    ///
    /// - Throws: ``ToolError`` naming the file when the model cannot be read, the store is
    ///   missing, or the store does not open with the model.
    init(store: String, model: String?, readOnly: Bool = true) throws {
        do {
            if let model {
                self.model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: model))
            } else {
                self.model = try ManagedObjectModel(cachedInStoreAt: URL(fileURLWithPath: store))
            }
        } catch {
            throw ToolError("\(model ?? store): cannot be read as a model (\(error))")
        }
        guard FileManager.default.fileExists(atPath: store) else { throw ToolError("\(store): no such file") }
        container = PersistentContainer(name: "objectgraph", managedObjectModel: self.model)
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: store))
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw ToolError("\(failure)") }
    }
}
