import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// The temporary directory the benchmarks keep their SQLite files in, and the data sets they
/// share (built once per process, outside any measurement).
final class Workspace {
    let directory: URL
    let sizes: Sizes
    private var itemStores: [Int: URL] = [:]
    private var photoStore: PhotoStore?
    private var counter = 0

    /// A photo store: its file, and the names of its photo–tag join table and of that table's
    /// columns (Core Data's: `Z_<entity code><inverse name>`, so they depend on entity codes).
    struct PhotoStore {
        let url: URL
        let joinTable: String
        /// The join table's column holding the photo's key.
        let photoColumn: String
        /// The join table's column holding the tag's key.
        let tagColumn: String
    }

    init(sizes: Sizes) throws {
        self.sizes = sizes
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spot-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Removes the directory and every file in it.
    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new file name in the workspace (the file does not exist yet).
    func freshURL(_ prefix: String) -> URL {
        counter += 1
        return directory.appendingPathComponent("\(prefix)-\(counter).sqlite")
    }

    /// Deletes an SQLite file with its WAL and shared-memory files.
    func removeDatabase(at url: URL) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// The statements that create ObjectGraph's Item table and its index, read from a store
    /// ObjectGraph created, so GRDB and raw SQLite write exactly the same table shape.
    lazy var itemSchemaSQL: [String] = {
        let url = freshURL("schema")
        defer { removeDatabase(at: url) }
        do {
            _ = try Models.container(Models.item(), at: url)
            let connection = try RawConnection(path: url.path)
            return try connection.strings("SELECT sql FROM sqlite_master WHERE tbl_name = 'ZITEM' AND sql IS NOT NULL ORDER BY type DESC")
        } catch {
            fatalError("spot-bench: cannot read ObjectGraph's Item schema: \(error)")
        }
    }()

    /// An ObjectGraph store file holding `rows` Items (values from ``Models/value(row:column:of:)``),
    /// written with the C API into the tables ObjectGraph created.
    func itemStore(rows: Int) throws -> URL {
        if let url = itemStores[rows] { return url }
        let url = freshURL("items-\(rows)")
        _ = try Models.container(Models.item(), at: url)
        let connection = try RawConnection(path: url.path)
        let code = try connection.int("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
        try connection.execute("BEGIN")
        let statement = try connection.prepare(
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        defer { sqlite3_finalize(statement) }
        let n = Int64(rows)
        for row in 1...n {
            sqlite3_bind_int64(statement, 1, row)
            sqlite3_bind_int64(statement, 2, code)
            for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 3), Models.value(row: row, column: column, of: n)) }
            try connection.stepDone(statement)
            sqlite3_reset(statement)
        }
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(code)")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        itemStores[rows] = url
        return url
    }

    /// The photo store: `sizes.photos` photos, each with `sizes.tagsPerPhoto` of `sizes.tags`
    /// tags, written through ObjectGraph.
    func photos() throws -> PhotoStore {
        if let photoStore { return photoStore }
        let url = freshURL("photos")
        let container = try Models.container(Models.photos(), at: url)
        try Models.savePhotos(sizes: sizes, in: container)
        let connection = try RawConnection(path: url.path)
        let joins = try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*TAGS'")
        guard let joinTable = joins.first else { throw RawConnection.Failure(description: "no photo-tag join table") }
        let columns = try connection.strings("SELECT name FROM pragma_table_info('\(joinTable)')")
        guard let photoColumn = columns.first(where: { $0.hasSuffix("PHOTOS") }), let tagColumn = columns.first(where: { $0.hasSuffix("TAGS") })
        else {
            throw RawConnection.Failure(description: "the join table \(joinTable) has no photo and tag columns: \(columns)")
        }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let store = PhotoStore(url: url, joinTable: joinTable, photoColumn: photoColumn, tagColumn: tagColumn)
        photoStore = store
        return store
    }

    /// A GRDB `DatabasePool` on `url`, with GRDB's defaults (WAL, synchronous NORMAL).
    func pool(at url: URL) throws -> DatabasePool {
        try DatabasePool(path: url.path)
    }
}
