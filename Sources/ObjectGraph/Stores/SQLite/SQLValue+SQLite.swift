import Foundation
import GRDB

extension SQLValue {
    /// The value as GRDB binds it: a decimal as its exact text (ordered by `OG_DECIMAL`), a NaN
    /// double as NULL, as ``Value/databaseValue`` writes them.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let int): int.databaseValue
        case .real(let double): double.isNaN ? .null : double.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        case .decimal(let decimal): decimal.description.databaseValue
        }
    }
}

extension DatabaseValue {
    /// The value as a store-neutral ``SQLValue``, exactly: its storage class and content.
    var sqlValue: SQLValue {
        switch storage {
        case .null: .null
        case .int64(let int): .integer(int)
        case .double(let double): .real(double)
        case .string(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}

extension Array where Element == SQLValue {
    /// The values as GRDB binds them, once per statement.
    var databaseValues: [DatabaseValue] { map(\.databaseValue) }
}
