import Foundation
import GRDBSQLite

/// A thin wrapper over the SQLite C API for the baseline contenders: one connection, prepared
/// statements stepped by hand, no Swift value boxing.
final class RawConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var handle: OpaquePointer?

    /// Opens `path` with the same settings GRDB's `DatabasePool` uses: WAL, synchronous NORMAL.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path)")
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements that return no rows of interest.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw Failure(description: "\(text) in \(sql)")
        }
    }

    /// Prepares `sql`; finalize the statement with `sqlite3_finalize`.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        return statement
    }

    /// The first column of the first row of `sql`, as an integer.
    func int(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        return sqlite3_column_int64(statement, 0)
    }

    /// The first column of every row of `sql`, as text.
    func strings(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            if let text = sqlite3_column_text(statement, 0) { result.append(String(cString: text)) }
        }
        return result
    }

    /// Steps `statement` once, throwing unless it is done.
    func stepDone(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw Failure(description: "step returned \(code): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    static var version: String { String(cString: sqlite3_libversion()) }
}
