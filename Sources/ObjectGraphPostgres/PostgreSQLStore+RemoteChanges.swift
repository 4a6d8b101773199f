import Foundation
import ObjectGraph
import PostgresNIO
import Synchronization

extension PostgreSQLStore {
    /// How many of this store's channel's notifications arrived: every commit of any instance
    /// on the schema (this one's included) moves it.
    package func remoteCommitMarker() throws -> Int64? {
        notificationsReceived.load(ordering: .acquiring)
    }

    /// Starts `LISTEN`ing on the store's channel on a connection of its own, calling `handler`
    /// for each notification, and once each time listening starts (for the commits made before
    /// it, or while the connection was down).
    package func observeRemoteCommits(_ handler: @escaping @Sendable () -> Void) -> Bool {
        let client = client
        let channel = notificationChannel
        let counter = ListenedStore(store: self)
        let ownHash = managedObjectModel.versionHash
        let task = bridge.start {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: channel) { notifications in
                            // Listening now: whatever committed before is in the history the
                            // monitor reads next, whatever commits later is announced.
                            counter.increment()
                            handler()
                            for try await notification in notifications {
                                if notification.payload.hasPrefix(Self.migratedNotice) {
                                    let hash = String(notification.payload.dropFirst(Self.migratedNotice.count))
                                    if hash != ownHash { counter.noteSuperseded(by: hash) }
                                }
                                counter.increment()
                                handler()
                            }
                        }
                    }
                } catch {
                    // The connection dropped or the server restarted: listen again shortly.
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
        let previous = listener.withLock { listener in
            defer { listener = task }
            return listener
        }
        previous?.cancel()  // outside the lock: cancelling runs the task's cancellation handlers
        return true
    }
}

/// The store, as the `LISTEN` task reaches it without holding it: the notification counter,
/// and another instance's migration.
private final class ListenedStore: Sendable {
    weak let store: PostgreSQLStore?

    init(store: PostgreSQLStore) {
        self.store = store
    }

    func increment() {
        store?.notificationsReceived.add(1, ordering: .releasing)
    }

    func noteSuperseded(by hash: String) {
        store?.supersedingModelHash.withLock { $0 = hash }
    }
}
