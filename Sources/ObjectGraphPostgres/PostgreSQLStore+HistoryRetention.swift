import Foundation
import Logging
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// Deletes the history the retention options no longer keep
    /// (``PersistentHistoryRetention/pruning(after:)`` decides what, as for the SQLite store),
    /// in the save's transaction on `connection` that just recorded transaction `last`.
    ///
    /// Readers behind what is deleted are told their token expired
    /// (``ObjectGraphError/Code/persistentHistoryTokenExpired``), and coordinators that
    /// follow remote changes fetch anew instead of missing a change.
    func pruneHistoryIfNeeded(after last: Int64, connection: PostgresConnection, logger: Logger) async throws {
        guard let pruning = historyRetention?.pruning(after: last) else { return }
        if let cutoff = pruning.olderThan {
            // Not the transaction just recorded.
            _ = try await deleteHistory(
                where: #""ZTIMESTAMP" < $1 AND "Z_PK" < $2"#,
                [.real(cutoff.timeIntervalSinceReferenceDate), .integer(last)],
                connection: connection,
                logger: logger
            )
        }
        if let below = pruning.below {
            _ = try await deleteHistory(where: #""Z_PK" < $1"#, [.integer(below)], connection: connection, logger: logger)
        }
    }
}
