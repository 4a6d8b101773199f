import Foundation

/// What failed underneath a store error, as GRDB's `DatabaseError` and NIO's
/// `FileSystemError` keep it: SQLite's result code and message, the statement, the file.
///
/// Statement arguments are never kept, so values never reach a log.
///
/// ```swift
/// do {
///     try context.save()
/// } catch let error as ObjectGraphError where error.cause?.resultCode == 5 {  // SQLITE_BUSY
///     // another process holds the write lock: retry later; the context kept its changes
/// }
/// ```
public struct StoreFailure: Sendable, Hashable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_BUSY_SNAPSHOT` is 517, `SQLITE_CONSTRAINT_UNIQUE`
    /// 2067, …); `nil` when the failure did not come from SQLite (a file, a decoder).
    public let extendedResultCode: Int32?
    /// SQLite's primary result code: 5 `SQLITE_BUSY`, 8 `SQLITE_READONLY`, 10 `SQLITE_IOERR`,
    /// 11 `SQLITE_CORRUPT`, 13 `SQLITE_FULL`, 19 `SQLITE_CONSTRAINT`, 26 `SQLITE_NOTADB`, ….
    public var resultCode: Int32? { extendedResultCode.map { $0 & 0xFF } }
    /// SQLite's (or the file system's, or the decoder's) message.
    public let message: String
    /// The statement that failed, without its arguments.
    public let sql: String?
    /// The store's file, `nil` in memory; for a server's store, the server and database
    /// (`postgres://user@host:5432/db`, never the password).
    public let file: String?
    /// The server's code for the failure: PostgreSQL's five-character SQLSTATE (`23505`
    /// unique violation, `40001` serialization failure, `57P01` server shutting down, …);
    /// `nil` for SQLite and for failures that did not come from a server.
    public let sqlState: String?

    package init(extendedResultCode: Int32?, message: String, sql: String?, file: String?, sqlState: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.file = file
        self.sqlState = sqlState
    }

    /// The failure `error` describes, in the store at `file`: a database error describes
    /// itself (``StoreFailureConvertible``, which each store's errors adopt).
    init(_ error: any Error, file: String?) {
        switch error {
        case let error as any StoreFailureConvertible:
            self = error.storeFailure(file: file)
        case let error as ObjectGraphError:
            self = error.cause ?? StoreFailure(extendedResultCode: nil, message: error.message, sql: nil, file: file)
        default:
            self.init(extendedResultCode: nil, message: String(describing: error), sql: nil, file: file)
        }
    }

    /// A readable summary: code, message, statement, file.
    public var description: String {
        var text = extendedResultCode.map { "SQLite error \($0): " } ?? sqlState.map { "SQLSTATE \($0): " } ?? ""
        text += message
        if let sql { text += " — in `\(sql)`" }
        if let file { text += " — store \(file)" }
        return text
    }
}

/// An error of a store's database layer that says what failed as a ``StoreFailure`` (its
/// code, message and statement), so errors crossing the store boundary carry no database
/// library's type. The SQLite store's conformances are in `Stores/SQLite`.
package protocol StoreFailureConvertible: Error {
    /// The failure, in the store at `file`.
    func storeFailure(file: String?) -> StoreFailure
}
