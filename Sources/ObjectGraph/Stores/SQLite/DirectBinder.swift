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
        case .string(let string): code = sqlite3_bind_text(handle, index, string, -1, sqliteTransient)
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
        let handle = statement.sqliteStatement
        let code: CInt
        switch value.storage {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int64(let int): code = sqlite3_bind_int64(handle, index, int)
        case .double(let double): code = sqlite3_bind_double(handle, index, double)
        case .string(let string): code = sqlite3_bind_text(handle, index, string, -1, sqliteTransient)
        case .blob(let data):
            code = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, CInt($0.count), sqliteTransient) }
        }
        try check(code)
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

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound text or blob.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
