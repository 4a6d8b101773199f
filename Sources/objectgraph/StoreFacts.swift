import Foundation
import ObjectGraph

/// What a store file says about itself, read by ObjectGraph on a read-only connection
/// (``SQLiteStoreFileTables``): its metadata, its entities (`Z_PRIMARYKEY`) and how many rows
/// each has.
struct StoreFacts {
    /// One `Z_PRIMARYKEY` row, with the rows of that entity (not its subentities') in its table.
    typealias Entity = SQLiteStoreFileTables.Entity

    /// `Core Data` for a store whose metadata is a Core Data property list, `ObjectGraph` for
    /// one ObjectGraph wrote.
    let writer: String
    let layout: String
    let storeType: String
    let uuid: String
    let versionIdentifiers: [String]
    /// `NSStoreModelVersionHashes` (Core Data stores only).
    let versionHashes: [String: Data]
    /// The keys of the metadata, as stored.
    let metadataKeys: [String]
    let entities: [Entity]

    /// Reads the facts of the store at `path`.
    ///
    /// - Throws: ``ToolError`` naming the file when it is not an SQLite store with `Z_METADATA`.
    init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw ToolError("\(path): no such file") }
        let tables: SQLiteStoreFileTables
        do {
            tables = try SQLiteStoreFileTables(path: path)
        } catch .cannotOpen(let error) {
            throw ToolError("\(path): cannot be opened as an SQLite database (\(error))")
        } catch .cannotRead(let error) {
            throw ToolError("\(path): could not be read (\(error))")
        }
        guard let plist = tables.metadata else {
            throw ToolError("\(path): not a Core Data or ObjectGraph store (it has no Z_METADATA row)")
        }
        entities = tables.entities
        if plist.starts(with: Array("bplist".utf8)) || plist.starts(with: Array("<?xml".utf8)) {
            let decoded = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
            guard let dictionary = decoded else { throw ToolError("\(path): its Core Data metadata is damaged") }
            writer = "Core Data"
            layout = "Core Data"
            storeType = dictionary["NSStoreType"] as? String ?? "?"
            uuid = dictionary["NSStoreUUID"] as? String ?? tables.uuidColumn
            versionIdentifiers = (dictionary["NSStoreModelVersionIdentifiers"] as? [Any])?.map { "\($0)" } ?? []
            versionHashes = (dictionary["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
            metadataKeys = dictionary.keys.sorted()
            return
        }
        let json = (try? JSONSerialization.jsonObject(with: plist)) as? [String: Any]
        guard let json else { throw ToolError("\(path): its metadata is neither Core Data's nor ObjectGraph's") }
        writer = "ObjectGraph"
        layout = (json["layout"] as? String) == "coreData" ? "Core Data" : "ObjectGraph 1 (before Core Data's layout)"
        storeType = "SQLite"
        uuid = json["storeUUID"] as? String ?? tables.uuidColumn
        versionIdentifiers = []
        versionHashes = [:]
        metadataKeys = json.keys.sorted()
    }
}

/// A failure the tool reports on one line, naming the file or option at fault.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
