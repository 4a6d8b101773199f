import Foundation
import GRDBSQLite

/// What a store file holds, found without changing a byte of it or of its `-wal` and `-shm`.
///
/// Every decision that can end in a refusal (not SQLite, damaged, another app's database,
/// another model's store) is taken here, before GRDB opens its `DatabasePool`: opening a pool
/// switches the file to WAL mode, and creates and drops a table when the `-wal` is missing or
/// empty, so a refused file would no longer be the file its owner had.
///
/// The probe uses its own read-only connection (`SQLITE_OPEN_READONLY` with a `file:` URI),
/// chosen so that SQLite creates and writes no file:
/// - `-wal` absent or empty: `immutable=1` — the main file is the whole database, and SQLite
///   then opens neither `-wal` nor `-shm` (a plain read-only connection would create both);
/// - `-wal` with content and a `-shm`: `readonly_shm=1` — SQLite reads the WAL through a
///   private index instead of writing read marks into the `-shm` (when that fails twice,
///   another connection has the store open, and the probe reads as an ordinary reader);
/// - `-wal` with content and no `-shm` (after a crash): SQLite cannot read the WAL without
///   creating a `-shm`, so the probe reads a private copy of the two files in a temporary
///   directory and deletes it.
///
/// The raw C API is used because GRDB opens connections without `SQLITE_OPEN_URI`.
enum StoreFileProbe {
    /// What the file holds.
    enum Finding {
        /// Nothing yet: no file, an empty file, or an SQLite database without tables. A store
        /// can be created there.
        case noStore
        /// An ObjectGraph store, with the metadata it was written with.
        case store(StoreMetadata)
        /// A store Apple's Core Data wrote (its `Z_METADATA` is a Core Data property list).
        case coreDataStore(CoreDataStoreMetadata)
    }

    /// Reads what `url` holds; throws ``ObjectGraphError`` (``ObjectGraphError/Code/persistentStoreInvalidType``)
    /// for a file that is not an ObjectGraph store.
    static func inspect(_ url: URL) throws -> Finding {
        // Another connection may be closing the store this very moment (checkpointing, then
        // deleting its -wal and -shm), or writing to it: an SQLite error is then transient.
        // Look again, from the files' new state; the last attempt reads a -wal through the
        // shared index as any reader does (a live connection has the files open anyway).
        let attempts = 3
        for attempt in 1...attempts {
            do {
                return try inspectOnce(url, sharingIndex: attempt == attempts)
            } catch let error as ObjectGraphError where error.cause?.extendedResultCode != nil && attempt < attempts {
                Thread.sleep(forTimeInterval: 0.02 * Double(attempt))
                continue
            }
        }
        preconditionFailure("unreachable: the last attempt returns or throws")
    }

    private static func inspectOnce(_ url: URL, sharingIndex: Bool) throws -> Finding {
        let path = url.standardizedFileURL.path
        let walSize = try fileSize(path + "-wal")
        // No file: a new store (a stray -wal without its database holds nothing readable).
        guard let size = try fileSize(path) else { return .noStore }
        if size == 0 {
            // SQLite would delete the -wal of an empty file on opening it: refuse instead.
            if let walSize, walSize > 0 {
                throw ObjectGraphError(
                    .persistentStoreInvalidType,
                    "\(path) is empty but its -wal holds \(walSize) bytes; it may be a store whose first save was interrupted"
                )
            }
            return .noStore
        }
        try checkHeader(path)
        if let walSize, walSize > 0 {
            if try fileSize(path + "-shm") != nil {
                return try read(path: path, uriParameters: sharingIndex ? "mode=ro" : "mode=ro&readonly_shm=1", reportedPath: path)
            }
            return try readCopy(of: path)
        }
        return try read(path: path, uriParameters: "mode=ro&immutable=1", reportedPath: path)
    }

    /// The size of the file at `path`, `nil` when there is none; throws when it exists but
    /// cannot be examined (an unreadable -wal must not be taken for an absent one).
    private static func fileSize(_ path: String) throws -> Int64? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw ObjectGraphError(.persistentStoreOperation, "could not examine \(path)", underlying: error, file: path)
        }
    }

    /// Refuses a file whose first 16 bytes are not SQLite's, with a plainer message than
    /// SQLite's "file is not a database".
    private static func checkHeader(_ path: String) throws {
        let header: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }  // closing a read-only handle cannot lose data
            header = try handle.read(upToCount: 16) ?? Data()
        } catch {
            throw ObjectGraphError(.persistentStoreOperation, "could not read \(path)", underlying: error, file: path)
        }
        if header != Data("SQLite format 3\0".utf8) {
            throw ObjectGraphError(.persistentStoreInvalidType, "\(path) is not an SQLite database (its header is not \"SQLite format 3\")")
        }
    }

    /// Reads copies of the main file and its `-wal` in a private temporary directory.
    private static func readCopy(of path: String) throws -> Finding {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appendingPathComponent("objectgraph-probe-\(UUID().uuidString)")
        let copy = directory.appendingPathComponent("store.sqlite").path
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            try manager.copyItem(atPath: path, toPath: copy)
            try manager.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        } catch {
            try? manager.removeItem(at: directory)  // best effort: only our own temporary copy
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not copy \(path) and its -wal to read them without creating a -shm",
                underlying: error,
                file: path
            )
        }
        defer { try? manager.removeItem(at: directory) }  // best effort: only our own temporary copy
        return try read(path: copy, uriParameters: "mode=ro", reportedPath: path)
    }

    private static func read(path: String, uriParameters: String, reportedPath: String) throws -> Finding {
        let connection = try ReadOnlyConnection(uri: "file:" + uriEscaped(path) + "?" + uriParameters, reportedPath: reportedPath)
        defer { connection.close() }
        let tables = try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if tables.isEmpty { return .noStore }
        guard tables.contains("Z_METADATA") else {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(reportedPath) is an SQLite database but not an ObjectGraph store (it has tables \(tables.prefix(5).joined(separator: ", ")) and no Z_METADATA)"
            )
        }
        guard let plist = try connection.blob("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = \(SQLiteStore.formatVersion)") else {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(reportedPath) has no readable ObjectGraph metadata (format \(SQLiteStore.formatVersion))"
            )
        }
        if plist.first != UInt8(ascii: "{") {
            let rows = try connection.entityNumbers()
            let uuid = try connection.strings("SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = \(SQLiteStore.formatVersion) AND Z_UUID IS NOT NULL")
                .first
            if var metadata = try CoreDataStoreMetadata.decode(plist, uuid: uuid, entityNumbers: rows, path: reportedPath) {
                if tables.contains("Z_MODELCACHE") { metadata.modelCache = try connection.blob("SELECT Z_CONTENT FROM Z_MODELCACHE") }
                return .coreDataStore(metadata)
            }
        }
        return .store(try StoreMetadata.decode(plist, path: reportedPath))
    }

    /// `path` with the characters a URI gives meaning to percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

/// A store's metadata row (`Z_METADATA.Z_PLIST`): which model wrote it.
///
/// Stores written before migrations existed have no ``versionHashHistory``; they decode as
/// before, and their history starts with their ``modelVersionHash``.
struct StoreMetadata: Codable {
    var formatVersion: Int
    var storeUUID: String
    var modelVersionHash: String
    var model: ModelSnapshot
    /// Every model version hash the store has been written with, oldest first (the current
    /// one last); `nil` in stores written before migrations.
    var versionHashHistory: [String]?
    /// The layout of the store's tables; `nil` in stores written before ObjectGraph followed
    /// Core Data's layout (ObjectGraph's former layout).
    var layout: StoreLayout?
    /// The version hash Core Data computes for each entity of the model (``ModelSnapshot``'s
    /// hash is ObjectGraph's own), under Core Data's key `NSStoreModelVersionHashes`, so that
    /// the store says, as a Core Data store does, which Core Data model reads its rows as they
    /// are; `nil` in stores written before it was kept (until their next migration).
    var entityVersionHashes: [String: Data]?

    private enum CodingKeys: String, CodingKey {
        case formatVersion, storeUUID, modelVersionHash, model, versionHashHistory, layout
        case entityVersionHashes = "NSStoreModelVersionHashes"
    }

    /// The layout of the store's tables.
    var storeLayout: StoreLayout { layout ?? .objectGraph }

    /// The hashes the store has been written with, ``modelVersionHash`` last.
    var rememberedVersionHashes: [String] {
        let history = versionHashHistory ?? []
        return history.last == modelVersionHash ? history : history + [modelVersionHash]
    }

    static func decode(_ plist: Data, path: String) throws -> StoreMetadata {
        do {
            return try JSONDecoder().decode(StoreMetadata.self, from: plist)
        } catch {
            throw ObjectGraphError(.persistentStoreInvalidType, "\(path) has damaged ObjectGraph metadata", underlying: error, file: path)
        }
    }

    /// Refuses a store written with a model other than `snapshot`'s, listing the differences.
    func checkWritten(by snapshot: ModelSnapshot, path: String) throws {
        guard modelVersionHash != snapshot.versionHash else { return }
        let differences = snapshot.differences(from: model)
        throw ObjectGraphError(
            .persistentStoreIncompatibleVersionHash,
            "the store at \(path) was written with a different model (\(differences.count) difference\(differences.count == 1 ? "" : "s")); the file was not changed",
            differences: differences.isEmpty ? ["the model version hashes differ"] : differences
        )
    }
}

/// An SQLite result code with SQLite's message and the statement that failed.
struct SQLiteResultError: Error, CustomStringConvertible {
    let code: CInt
    let message: String
    let sql: String?

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " — while executing `\($0)`" } ?? "")
    }
}

/// A read-only SQLite connection opened from a `file:` URI, for ``StoreFileProbe``.
private final class ReadOnlyConnection {
    private let handle: OpaquePointer
    private let reportedPath: String

    init(uri: String, reportedPath: String) throws {
        self.reportedPath = reportedPath
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw Self.refusal(SQLiteResultError(code: code, message: message, sql: nil), reportedPath)
        }
        self.handle = handle
    }

    func close() { sqlite3_close_v2(handle) }

    func strings(_ sql: String) throws -> [String] {
        try query(sql) { statement in
            var values: [String] = []
            while try step(statement, sql) { values.append(String(cString: sqlite3_column_text(statement, 0))) }
            return values
        }
    }

    /// The `Z_PRIMARYKEY` rows, empty when the table is missing.
    func entityNumbers() throws -> [CoreDataStoreMetadata.EntityNumber] {
        guard try !strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_PRIMARYKEY'").isEmpty else { return [] }
        let sql = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        return try query(sql) { statement in
            var rows: [CoreDataStoreMetadata.EntityNumber] = []
            while try step(statement, sql) {
                let name = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
                rows.append(.init(number: Int(sqlite3_column_int64(statement, 0)), name: name, superNumber: Int(sqlite3_column_int64(statement, 2))))
            }
            return rows
        }
    }

    func blob(_ sql: String) throws -> Data? {
        try query(sql) { statement in
            guard try step(statement, sql), sqlite3_column_type(statement, 0) != SQLITE_NULL else { return nil }
            let count = Int(sqlite3_column_bytes(statement, 0))
            guard let bytes = sqlite3_column_blob(statement, 0) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }

    private func query<T>(_ sql: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        defer { sqlite3_finalize(statement) }
        return try body(statement)
    }

    private func step(_ statement: OpaquePointer, _ sql: String) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code, sql)
        }
    }

    private func failure(_ code: CInt, _ sql: String) -> ObjectGraphError {
        Self.refusal(
            SQLiteResultError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql),
            reportedPath,
            primary: code
        )
    }

    private static func refusal(_ error: SQLiteResultError, _ path: String, primary: CInt? = nil) -> ObjectGraphError {
        switch (primary ?? error.code) & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            ObjectGraphError(.persistentStoreInvalidType, "\(path) is not an SQLite database, or it is damaged", underlying: error, file: path)
        default:
            ObjectGraphError(.persistentStoreOperation, "could not read \(path) to check it is a store of this model", underlying: error, file: path)
        }
    }
}
