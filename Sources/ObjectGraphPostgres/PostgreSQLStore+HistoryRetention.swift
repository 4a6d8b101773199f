import Foundation
import Logging
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// Deletes the history the retention options no longer keep, in the save's transaction on
    /// `connection` that just recorded transaction `last` — every few transactions only, as the
    /// SQLite store does: older than the maximum age, and all but the maximum count.
    ///
    /// Readers behind what is deleted are told their token expired
    /// (``ObjectGraphError/Code/persistentHistoryTokenExpired``), and coordinators that
    /// follow remote changes fetch anew instead of missing a change.
    func pruneHistoryIfNeeded(after last: Int64, connection: PostgresConnection, logger: Logger) async throws {
        guard let retention = historyRetention, last % PersistentHistoryRetention.pruningInterval == 0 else { return }
        if let age = retention.maximumAge {
            // Never the transaction just recorded, however old it is by now: the current token
            // names it, and a reader at that token must not be told it expired.
            let oldest = Date(timeIntervalSinceNow: -age).timeIntervalSinceReferenceDate
            _ = try await deleteHistory(
                where: #""ZTIMESTAMP" < $1 AND "Z_PK" < $2"#,
                [.real(oldest), .integer(last)],
                connection: connection,
                logger: logger
            )
        }
        if let count = retention.maximumCount, last - Int64(count) + 1 > 1 {
            _ = try await deleteHistory(where: #""Z_PK" < $1"#, [.integer(last - Int64(count) + 1)], connection: connection, logger: logger)
        }
    }
}
