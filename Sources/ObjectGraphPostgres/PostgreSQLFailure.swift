import ObjectGraph
import PostgresNIO

/// A postgres-nio error as a ``StoreFailure``: the server's SQLSTATE, message and statement,
/// or what the client says went wrong (a connection refused or dropped).
///
/// postgres-nio keeps its errors' details out of their descriptions, so no value leaks into a
/// log; this reads the fields a reader needs and leaves the statement's arguments out.
struct PostgreSQLFailure: Error, StoreFailureConvertible, CustomStringConvertible {
    let sqlState: String?
    let message: String
    let sql: String?

    init(_ error: any Error) {
        if let error = error as? PSQLError {
            sqlState = error.serverInfo?[.sqlState]
            let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
            if let message = error.serverInfo?[.message] {
                self.message = message + detail
            } else if let underlying = error.underlying {
                self.message = "\(error.code): \(underlying)"
            } else {
                self.message = "\(error.code)"
            }
            sql = error.query?.sql
        } else if let failure = error as? PostgreSQLFailure {
            self = failure
        } else {
            sqlState = nil
            message = String(describing: error)
            sql = nil
        }
    }

    func storeFailure(file: String?) -> StoreFailure {
        StoreFailure(extendedResultCode: nil, message: message, sql: sql, file: file, sqlState: sqlState)
    }

    var description: String {
        (sqlState.map { "SQLSTATE \($0): " } ?? "") + message
    }
}
