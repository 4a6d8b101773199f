import Foundation
import GRDB

/// What a store file says about itself, read with SQL on a read-only connection: its
/// metadata, its entities (`Z_PRIMARYKEY`) and how many rows each has.
struct StoreFacts {
    /// One `Z_PRIMARYKEY` row, with the rows of that entity (not its subentities') in its table.
    struct Entity {
        let number: Int
        let name: String
        let parent: Int
        /// `nil` when the entity's table is missing.
        let rows: Int?
    }

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
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw ToolError("\(path): cannot be opened as an SQLite database (\(error))")
        }
        let read = try Self.read(queue, path: path)
        writer = read.writer
        layout = read.layout
        storeType = read.storeType
        uuid = read.uuid
        versionIdentifiers = read.identifiers
        versionHashes = read.hashes
        metadataKeys = read.keys
        entities = read.entities
        try queue.close()
    }

    private static func read(
        _ queue: DatabaseQueue,
        path: String
    ) throws -> (
        writer: String, layout: String, storeType: String, uuid: String, identifiers: [String], hashes: [String: Data], keys: [String],
        entities: [Entity]
    ) {
        do {
            return try queue.read { db in
                guard try db.tableExists("Z_METADATA"), let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA")
                else {
                    throw ToolError("\(path): not a Core Data or ObjectGraph store (it has no Z_METADATA row)")
                }
                let uuidColumn = try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") ?? ""
                var entities: [Entity] = []
                let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                var names: [Int: String] = [:]
                var parents: [Int: Int] = [:]
                for row in rows {
                    let number: Int = row["Z_ENT"]
                    names[number] = row["Z_NAME"] ?? ""
                    parents[number] = row["Z_SUPER"] ?? 0
                }
                for row in rows {
                    let number: Int = row["Z_ENT"]
                    var root = number
                    while let parent = parents[root], parent != 0 { root = parent }
                    // Core Data's own entities (persistent history, numbered from 16001) live
                    // in A-prefixed tables.
                    let table = (number > 16000 ? "A" : "Z") + (names[root] ?? "").uppercased()
                    let count =
                        try db.tableExists(table)
                        ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", arguments: [number]) : nil
                    entities.append(Entity(number: number, name: names[number] ?? "", parent: parents[number] ?? 0, rows: count))
                }
                if plist.starts(with: Array("bplist".utf8)) || plist.starts(with: Array("<?xml".utf8)) {
                    let decoded = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
                    guard let dictionary = decoded else { throw ToolError("\(path): its Core Data metadata is damaged") }
                    let hashes = (dictionary["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
                    return (
                        "Core Data", "Core Data", dictionary["NSStoreType"] as? String ?? "?",
                        dictionary["NSStoreUUID"] as? String ?? uuidColumn,
                        (dictionary["NSStoreModelVersionIdentifiers"] as? [Any])?.map { "\($0)" } ?? [], hashes,
                        dictionary.keys.sorted(), entities
                    )
                }
                let json = (try? JSONSerialization.jsonObject(with: plist)) as? [String: Any]
                guard let json else { throw ToolError("\(path): its metadata is neither Core Data's nor ObjectGraph's") }
                let layout = (json["layout"] as? String) == "coreData" ? "Core Data" : "ObjectGraph 1 (before Core Data's layout)"
                return (
                    "ObjectGraph", layout, "SQLite", json["storeUUID"] as? String ?? uuidColumn, [], [:], json.keys.sorted(), entities
                )
            }
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError("\(path): could not be read (\(error))")
        }
    }
}

/// A failure the tool reports on one line, naming the file or option at fault.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
