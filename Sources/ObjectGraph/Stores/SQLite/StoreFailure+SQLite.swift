import Foundation
import GRDB

extension DatabaseError: StoreFailureConvertible {
    /// SQLite's extended result code, message and statement (without its arguments).
    func storeFailure(file: String?) -> StoreFailure {
        StoreFailure(extendedResultCode: extendedResultCode.rawValue, message: message ?? "\(resultCode)", sql: sql, file: file)
    }
}

extension SQLiteResultError: StoreFailureConvertible {
    /// The result code, message and statement of a call made on the SQLite C API directly.
    func storeFailure(file: String?) -> StoreFailure {
        StoreFailure(extendedResultCode: code, message: message, sql: sql, file: file)
    }
}
