import Foundation
import ObjectGraph

extension InspectCommand {
    /// What `inspect` prints of a store on a server (PostgreSQL), read through ObjectGraph:
    /// the metadata its store type reads without opening it, then each entity of the model
    /// the store keeps, with its parent and its own rows (not its subentities').
    ///
    /// - Throws: ``ToolError`` naming the server and schema when the store cannot be reached,
    ///   holds no store, or does not open with the model it keeps.
    func serverStoreLines(_ location: StoreLocation) throws -> [String] {
        let metadata: [String: Any]
        do {
            metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: location.url)
        } catch {
            throw ToolError("\(error)")
        }
        let opened = try OpenedStore(store: location, model: nil)
        let context = opened.container.newBackgroundContext()
        let entities = opened.model.entities.sorted { $0.name < $1.name }
        let rows: [[String]]
        do {
            rows = try context.performAndWait {
                try entities.map { entity in
                    let request = FetchRequest<ManagedObject>(entityName: entity.name)
                    request.includesSubentities = false
                    return [entity.name, entity.superentity?.name ?? "", String(try context.count(for: request))]
                }
            }
        } catch {
            throw ToolError("\(location.name): could not count the rows (\(error))")
        }
        let layout = (metadata["layout"] as? String) == "coreData" ? "Core Data" : "ObjectGraph"
        var lines = [
            "store: \(location.name)",
            "written by: ObjectGraph",
            "layout: \(layout)",
            "store type: \(metadata[StoreTypeKey] as? String ?? "?")",
            "store UUID: \(metadata[StoreUUIDKey] as? String ?? "?")",
            "model version hash: \(metadata["modelVersionHash"] as? String ?? "?")",
            "metadata keys: \(metadata.keys.sorted().joined(separator: ", "))",
            "",
        ]
        lines += TextTable.lines(["ENTITY", "PARENT", "ROWS"], rows, maxWidth: 60)
        return lines
    }
}
