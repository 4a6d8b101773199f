package import Foundation
import GRDB

/// What an SQLite store file's own bookkeeping tables hold, read on a read-only connection for
/// tools that show a store as it is (`objectgraph inspect`): the raw `Z_METADATA` row and every
/// `Z_PRIMARYKEY` row with its entity's row count. Nothing is interpreted or created here, so a
/// tool needs no SQLite library of its own.
package struct SQLiteStoreFileTables {
    /// One `Z_PRIMARYKEY` row, with the rows of that entity (not its subentities') in its table.
    package struct Entity: Sendable {
        /// `Z_ENT`.
        package let number: Int
        /// `Z_NAME`.
        package let name: String
        /// `Z_SUPER` (0 for a root entity).
        package let parent: Int
        /// `nil` when the entity's table is missing.
        package let rows: Int?
    }

    /// Why the file could not be read, kept apart so a tool can say which step failed.
    package enum Failure: Error {
        /// The file did not open as an SQLite database.
        case cannotOpen(any Error)
        /// It opened, but a query failed.
        case cannotRead(any Error)
    }

    /// `Z_METADATA.Z_PLIST` (Core Data's property list, or ObjectGraph's JSON); `nil` when the
    /// file has no `Z_METADATA` table or row, in which case ``entities`` is empty.
    package let metadata: Data?
    /// `Z_METADATA.Z_UUID` (empty when NULL).
    package let uuidColumn: String
    /// The `Z_PRIMARYKEY` rows, by `Z_ENT`.
    package let entities: [Entity]

    /// Reads the tables of the SQLite file at `path`, on a read-only connection.
    ///
    /// - Throws: ``Failure``.
    package init(path: String) throws(Failure) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .cannotOpen(error)
        }
        do {
            (metadata, uuidColumn, entities) = try queue.read { db in try Self.read(db) }
            try queue.close()
        } catch {
            throw .cannotRead(error)
        }
    }

    private static func read(_ db: Database) throws -> (Data?, String, [Entity]) {
        guard try db.tableExists("Z_METADATA"), let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") else {
            return (nil, "", [])
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
            // Core Data's own entities (persistent history, numbered from 16001) live in
            // A-prefixed tables.
            let table = (number > 16000 ? "A" : "Z") + (names[root] ?? "").uppercased()
            let count =
                try db.tableExists(table)
                ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", arguments: [number]) : nil
            entities.append(Entity(number: number, name: names[number] ?? "", parent: parents[number] ?? 0, rows: count))
        }
        return (plist, uuidColumn, entities)
    }

    /// The names of the tables in the open database `db`.
    static func names(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
    }

    /// The columns of each join table (`Z_<n><REL>`, Core Data's and ObjectGraph's bookkeeping
    /// tables aside) in the open database `db`, by table.
    static func joinTableColumns(_ db: Database) throws -> [String: Set<String>] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.name AS tableName, c.name AS columnName FROM sqlite_master m JOIN pragma_table_info(m.name) c
                WHERE m.type = 'table' AND m.name GLOB 'Z_[0-9]*'
                """
        )
        return rows.reduce(into: [:]) { columns, row in columns[row["tableName"] as String, default: []].insert(row["columnName"]) }
    }
}
