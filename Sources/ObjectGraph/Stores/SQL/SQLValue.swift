package import Foundation

/// A statement argument in a column's storage form, as the SQL compiler binds it: what crosses
/// the store boundary inside a ``FetchPlan`` instead of a database library's own value type.
///
/// The storage forms are Core Data's, for every store: booleans as integers, dates as seconds
/// since 2001-01-01, UUIDs and data as bytes, URLs as text, objects as their primary key. Each
/// store binds these cases with its own client (the SQLite store through the C API).
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// An exact decimal: text in SQLite (ordered by its decimal collation), `NUMERIC` in
    /// PostgreSQL.
    case decimal(Decimal)
}

extension Value {
    /// The storage form of the value, as a statement argument (see ``SQLValue``); a NaN double
    /// and an array have none (`.null`).
    package var sqlValue: SQLValue {
        switch self {
        case .null: .null
        case .bool(let bool): .integer(bool ? 1 : 0)
        case .int(let int): .integer(int)
        case .double(let double): double.isNaN ? .null : .real(double)
        case .decimal(let decimal): .decimal(decimal)
        case .string(let string): .text(string)
        case .date(let date): .real(date.timeIntervalSinceReferenceDate)
        case .data(let data): .blob(data)
        case .uuid(let uuid): .blob(Data(uuid.bytes))
        case .url(let url): .text(url.absoluteString)
        case .objectID(let id): .integer(id.primaryKey)
        case .array: .null
        }
    }
}
