import Foundation
import GRDB
import GRDBSQLite

extension Statement {
    /// Binds `values` to the statement's parameters (1-based, in order) through the SQLite C
    /// API, then executes it once with GRDB (which keeps its transaction bookkeeping).
    ///
    /// Used for the rows of a save: GRDB's `StatementArguments`, built per row, cost more than
    /// the insert itself. Call ``prepareForDirectBinding()`` once per statement first.
    func executeBinding(_ values: UnsafeBufferPointer<DatabaseValue>) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = CInt(offset + 1)
            let code = SQLiteBinding.bind(handle, index, value)
            if code != SQLITE_OK {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                    sql: sql
                )
            }
        }
        try execute()
    }

    /// Marks the statement's (empty) arguments as bound, so `execute()` keeps the bindings
    /// ``executeBinding(_:)`` makes.
    func prepareForDirectBinding() {
        setUncheckedArguments(StatementArguments())
    }
}
