import Foundation
import GRDB
import GRDBSQLite

extension Value {
    /// The SQLite form: dates as REAL seconds since 2001-01-01 (Core Data's own), decimals as
    /// exact text (ordered by a numeric collation; a Core Data layout's `DECIMAL` column turns
    /// the text into a number, as Core Data stores it), UUIDs as 16-byte BLOBs, data as BLOBs,
    /// URLs as text, object references as their primary key.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let bool): (bool ? 1 : 0 as Int64).databaseValue
        case .int(let int): int.databaseValue
        case .double(let double): double.isNaN ? .null : double.databaseValue
        case .decimal(let decimal): decimal.description.databaseValue
        case .string(let string): string.databaseValue
        case .date(let date): date.timeIntervalSinceReferenceDate.databaseValue
        case .data(let data): data.databaseValue
        case .uuid(let uuid): Data(uuid.bytes).databaseValue
        case .url(let url): url.absoluteString.databaseValue
        case .objectID(let id): id.primaryKey.databaseValue
        case .array: .null
        }
    }

    /// Reads a column of an attribute of `type`.
    init(_ databaseValue: DatabaseValue, type: AttributeType) {
        switch (type, databaseValue.storage) {
        case (_, .null): self = .null
        case (.string, .string(let string)): self = .string(string)
        case (.boolean, .int64(let int)): self = .bool(int != 0)
        case (.integer16, .int64(let int)), (.integer32, .int64(let int)), (.integer64, .int64(let int)): self = .int(int)
        case (.double, .double(let double)), (.float, .double(let double)): self = .double(double)
        case (.double, .int64(let int)), (.float, .int64(let int)): self = .double(Double(int))
        case (.decimal, .string(let text)): self = Decimal(string: text).map { .decimal($0) } ?? .null
        case (.decimal, .int64(let int)): self = .decimal(Decimal(int))
        // Core Data keeps decimals in a DECIMAL column, where SQLite stores them as REAL: read
        // the shortest decimal that prints as the double (10.11, not 10.1099999999999994).
        case (.decimal, .double(let double)): self = .decimal(Decimal(string: "\(double)") ?? Decimal(double))
        case (.date, .double(let seconds)): self = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.date, .int64(let seconds)): self = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.binaryData, .blob(let data)), (.transformable, .blob(let data)): self = .data(data)
        case (.uuid, .blob(let data)) where data.count == 16:
            self = .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.uri, .string(let text)): self = URL(string: text).map { .url($0) } ?? .null
        default: self = .null
        }
    }
}

extension Value {
    /// Reads column `index` of the current row of `statement` for an attribute of `type`, as
    /// ``init(_:type:)`` does, calling the SQLite C API directly for numbers, dates and text.
    ///
    /// The column is read through its `sqlite3_value`: one `sqlite3_column_value` call, then
    /// `sqlite3_value_type` and the typed read, which unlike the `sqlite3_column_*` functions
    /// take no connection mutex and make no error check (a third of a fetch's decoding before).
    /// Such an unprotected value is valid until the statement steps again, and these are the
    /// functions SQLite documents as safe on it.
    @inline(__always)
    init(sqliteStatement statement: SQLiteStatement, index: Int, type: AttributeType) {
        let value = sqlite3_column_value(statement, CInt(index))
        switch (type, sqlite3_value_type(value)) {
        case (_, SQLITE_NULL):
            self = .null
        case (.integer16, SQLITE_INTEGER), (.integer32, SQLITE_INTEGER), (.integer64, SQLITE_INTEGER):
            self = .int(sqlite3_value_int64(value))
        case (.boolean, SQLITE_INTEGER):
            self = .bool(sqlite3_value_int64(value) != 0)
        case (.double, SQLITE_FLOAT), (.float, SQLITE_FLOAT):
            self = .double(sqlite3_value_double(value))
        case (.double, SQLITE_INTEGER), (.float, SQLITE_INTEGER):
            self = .double(Double(sqlite3_value_int64(value)))
        case (.date, SQLITE_FLOAT):
            self = .date(Date(timeIntervalSinceReferenceDate: sqlite3_value_double(value)))
        case (.date, SQLITE_INTEGER):
            self = .date(Date(timeIntervalSinceReferenceDate: Double(sqlite3_value_int64(value))))
        case (.string, SQLITE_TEXT):
            // `sqlite3_value_text` before `sqlite3_value_bytes`, as SQLite asks: the length is
            // then the UTF-8 text's. All of it, NUL characters included.
            guard let text = sqlite3_value_text(value) else {
                self = .string("")
                return
            }
            let count = Int(sqlite3_value_bytes(value))
            self = .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            self.init(DatabaseValue(sqliteStatement: statement, index: CInt(index)), type: type)
        }
    }

    /// Column `index` of the current row of `statement` when it holds an integer.
    @inline(__always)
    static func integer(sqliteStatement statement: SQLiteStatement, index: Int) -> Int64? {
        let value = sqlite3_column_value(statement, CInt(index))
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }
}
