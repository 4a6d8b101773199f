import Dispatch
package import ObjectGraph
import PostgresNIO
import Synchronization

extension PostgreSQLStore {
    /// A session-level advisory lock (`pg_try_advisory_lock`) on a pool connection held for as
    /// long as the lease: one holder among every instance on the database. A holder whose
    /// process dies or whose connection drops gives it up with its session.
    package func tryExclusiveLease(named name: String) throws -> StoreLease? {
        let key = "ObjectGraph.\(schemaName).\(name)"
        let client = client
        let logger = logger
        let (released, release) = AsyncStream<Void>.makeStream()
        let answered = DispatchSemaphore(value: 0)
        let answer = Mutex<Result<Bool, any Error>?>(nil)
        let unlocked = DispatchSemaphore(value: 0)
        let holder = bridge.start {
            do {
                try await client.withConnection { connection in
                    var taken = false
                    for try await value in try await connection.query("SELECT pg_try_advisory_lock(hashtext(\(key)))", logger: logger).decode(
                        Bool.self
                    ) {
                        taken = value
                    }
                    answer.withLock { $0 = .success(taken) }
                    answered.signal()
                    guard taken else { return }
                    for await _ in released {}
                    _ = try? await connection.query("SELECT pg_advisory_unlock(hashtext(\(key)))", logger: logger)
                    unlocked.signal()
                }
            } catch {
                let first = answer.withLock { answer -> Bool in
                    guard answer == nil else { return false }
                    answer = .failure(error)
                    return true
                }
                if first { answered.signal() }
            }
        }
        // The pool waits for a connection rather than failing on a refused one: a lease not
        // answered at once asks the server on a connection of its own, so a stopped server
        // fails the lease now (a database monitor's probe takes leases) and a busy one is
        // waited for.
        let firstLook = min(operationTimeout, Self.leaseFirstLook)
        var waited = answered.wait(timeout: .now() + firstLook.dispatchInterval)
        if waited == .timedOut {
            if case .stuck(let reason) = liveness() {
                holder.cancel()
                release.finish()
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "could not take the lease \"\(name)\" in the PostgreSQL store at \(serverDescription): \(reason ?? "no answer")"
                )
            }
            waited = answered.wait(timeout: .now() + (operationTimeout - firstLook).dispatchInterval)
        }
        if waited == .timedOut {
            holder.cancel()
            release.finish()
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not take the lease \"\(name)\" in the PostgreSQL store at \(serverDescription): no answer within \(operationTimeout)"
            )
        }
        switch answer.withLock({ $0 })! {
        case .success(true):
            // Given back when release returns: the next taker, here or elsewhere, gets it. A
            // server gone meanwhile ends the session, and the lock with it.
            let timeout = operationTimeout.dispatchInterval
            return StoreLease {
                release.finish()
                _ = unlocked.wait(timeout: .now() + timeout)
            }
        case .success(false):
            return nil
        case .failure(let error):
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not take the lease \"\(name)\" in the PostgreSQL store at \(serverDescription)",
                underlying: PostgreSQLFailure(error),
                file: serverDescription
            )
        }
    }

    /// How long a lease waits for the pool before asking the server whether it answers.
    static let leaseFirstLook: Duration = .milliseconds(250)
}
