import Logging
import PostgresNIO

extension PostgreSQLStore {
    /// Runs `body` in a transaction on a connection leased from `client`: committed when it
    /// returns (and its task was not cancelled meanwhile), rolled back when it throws — and its error rethrown as it was (postgres-nio's
    /// own `withTransaction` wraps it), so an ``OptimisticLockingFailure`` or the server's
    /// unique violation reaches the caller unchanged.
    static func inTransaction<T: Sendable>(
        _ client: PostgresClient,
        logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let value: T
            do {
                value = try await body(connection)
                // Given up on by its caller (``BlockingBridge``'s timeout), which reported it
                // failed: it must not commit after all.
                try Task.checkCancellation()
            } catch {
                // A dropped connection cannot roll back: the server does so when it notices.
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            try await connection.query("COMMIT", logger: logger)
            return value
        }
    }
}
