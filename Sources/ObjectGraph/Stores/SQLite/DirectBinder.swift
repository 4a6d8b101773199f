import Foundation
import GRDB
import GRDBSQLite

extension Statement {
    /// Resets the statement and returns a binder for its parameters, in order; then call
    /// `execute()`. Call ``prepareForDirectBinding()`` once per statement first.
    func directBinder() -> DirectBinder {
        sqlite3_reset(sqliteStatement)
        return DirectBinder(statement: self)
    }
}

/// Binds a statement's parameters one after the other with the SQLite C API, from `Value`s
/// (see ``Statement/directBinder()``): what ``Value/databaseValue`` followed by
/// ``Statement/executeBinding(_:)`` binds, without building `DatabaseValue`s for the usual
/// cases.
struct DirectBinder {
    let statement: Statement
    private var index: CInt = 1

    init(statement: Statement) {
        self.statement = statement
    }

    /// Binds `value` to the next parameter.
    mutating func bind(_ value: Value) throws {
        let handle = statement.sqliteStatement
        let code: CInt
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int(let int): code = sqlite3_bind_int64(handle, index, int)
        case .bool(let bool): code = sqlite3_bind_int64(handle, index, bool ? 1 : 0)
        case .double(let double): code = double.isNaN ? sqlite3_bind_null(handle, index) : sqlite3_bind_double(handle, index, double)
        case .date(let date): code = sqlite3_bind_double(handle, index, date.timeIntervalSinceReferenceDate)
        case .string(let string): code = SQLiteBinding.bindText(handle, index, string)
        case .objectID(let id): code = sqlite3_bind_int64(handle, index, id.primaryKey)
        default:
            try bind(value.databaseValue)
            return
        }
        try check(code)
        index += 1
    }

    /// Binds `value` to the next parameter.
    mutating func bind(_ value: DatabaseValue) throws {
        try check(SQLiteBinding.bind(statement.sqliteStatement, index, value))
        index += 1
    }

    private func check(_ code: CInt) throws {
        guard code != SQLITE_OK else { return }
        let handle = statement.sqliteStatement
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
            sql: statement.sql
        )
    }
}

/// Binds values to a statement's parameters with the SQLite C API, keeping every byte.
///
/// Text is bound with its UTF-8 length, not as a C string: a string holding a NUL character
/// would otherwise be cut there and the rest silently lost. An empty `Data` is bound as an
/// empty blob, not as NULL (its buffer may have no address, which SQLite takes as NULL).
enum SQLiteBinding {
    /// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound text or blob.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `value` to parameter `index` (1-based); returns SQLite's result code.
    @inline(__always)
    static func bind(_ handle: SQLiteStatement, _ index: CInt, _ value: DatabaseValue) -> CInt {
        switch value.storage {
        case .null: sqlite3_bind_null(handle, index)
        case .int64(let int): sqlite3_bind_int64(handle, index, int)
        case .double(let double): sqlite3_bind_double(handle, index, double)
        case .string(let string): bindText(handle, index, string)
        case .blob(let data): bindBlob(handle, index, data)
        }
    }

    /// Binds the whole of `string`, NUL characters included, as text.
    @inline(__always)
    static func bindText(_ handle: SQLiteStatement, _ index: CInt, _ string: String) -> CInt {
        var string = string
        return string.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, transient) }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), CInt(bytes.count), transient)
        }
    }

    /// Binds `data` as a blob; an empty one as an empty blob.
    @inline(__always)
    static func bindBlob(_ handle: SQLiteStatement, _ index: CInt, _ data: Data) -> CInt {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, CInt(bytes.count), transient)
        }
    }
}
