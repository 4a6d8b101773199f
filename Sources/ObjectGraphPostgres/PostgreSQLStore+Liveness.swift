import Foundation
import Logging
import ObjectGraph
import PostgresNIO

extension PostgreSQLStore {
    /// Whether an operation that made no progress for ``operationTimeout`` should wait on:
    /// asked on a connection of its own (not the pool's, whose connections may all be busy or
    /// gone), the server says what this store's sessions are doing.
    ///
    /// - ``BlockingBridge/Liveness/working`` when the server answers and none of the store's
    ///   sessions waits for a lock: it is executing a statement, or waits for this process
    ///   (a client slowed down, by a sanitizer say, is not a server fault).
    /// - ``BlockingBridge/Liveness/stuck(_:)`` when a session of the store waits for a lock
    ///   another session holds (naming the lock and its holders), or when the server does not
    ///   answer a new connection within ``operationTimeout`` (at most 10 s; the reason is the
    ///   connection's error): a stopped or unreachable server fails the operation then.
    ///
    /// A statement the server is still executing is waited for, however long it takes: bound
    /// such statements on the server (`statement_timeout`), not with the store's timeout.
    func liveness() -> BlockingBridge.Liveness {
        let limit = min(operationTimeout, .seconds(10))
        let configuration = {
            var configuration = location.connectionConfiguration
            configuration.options.connectTimeout = .milliseconds(
                Int64(limit.components.seconds) * 1_000 + limit.components.attoseconds / 1_000_000_000_000_000
            )
            return configuration
        }()
        let sessionName = sessionName
        let logger = logger
        do {
            let waits = try bridge.wait(timeout: limit) {
                let connection = try await PostgresConnection.connect(
                    on: PostgreSQLEventLoops.group.any(), configuration: configuration, id: 0, logger: logger
                )
                do {
                    let rows = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT coalesce("wait_event", 'lock'), array_to_string(pg_blocking_pids("pid"), ', ') FROM pg_stat_activity
                                WHERE "application_name" = $1 AND "wait_event_type" = 'Lock'
                                """,
                            binds: Self.binds([.text(sessionName)])
                        ),
                        logger: logger
                    ).collect()
                    try? await connection.close()
                    return try rows.map { try $0.decode((String, String).self) }
                } catch {
                    try? await connection.close()
                    throw error
                }
            }
            guard let (lock, holders) = waits.first else { return .working }
            return .stuck(
                "the server is waiting for a lock (\(lock)) that another session holds"
                    + (holders.isEmpty ? "" : " (server process \(holders))")
            )
        } catch {
            return .stuck("the server did not answer a new connection either: \(PostgreSQLFailure(error))")
        }
    }
}
