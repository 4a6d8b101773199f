import Dispatch
import Foundation
import Synchronization

extension PersistentStoreCoordinator {
    /// Every remote change of this coordinator's stores from now on, as an asynchronous
    /// sequence: the ``Foundation/Notification/Name/persistentStoreRemoteChange`` notifications'
    /// content, for `for await` loops.
    ///
    /// Each access starts a new sequence; it ends when the loop stops or the coordinator goes
    /// away. The contexts that merge automatically have the changes queued before an element
    /// arrives: a block performed on such a context after receiving one sees them.
    ///
    /// ```swift
    /// for await change in container.persistentStoreCoordinator.remoteChanges {
    ///     print("another process saved; history now at \(change.historyToken?.description ?? "?")")
    /// }
    /// ```
    public var remoteChanges: AsyncStream<PersistentStoreRemoteChange> {
        let (stream, continuation) = AsyncStream<PersistentStoreRemoteChange>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.remoteChangeSubscribers.removeValue(forKey: id) }
        }
        state.withLock { $0.remoteChangeSubscribers[id] = continuation }
        return stream
    }

    /// Checks every store added with ``PersistentStore/remoteChangeNotificationPostOption`` for
    /// other writers' commits now, and returns once what was found is delivered: merges queued
    /// on the contexts that merge automatically, notifications posted.
    ///
    /// The stores are checked on a timer anyway (every few dozen milliseconds); call this where
    /// waiting for the next tick is not wanted, e.g. right after another process said it saved.
    /// It waits for earlier remote merges to finish, so never call it on the queue of a context
    /// that merges automatically.
    public func checkForRemoteChanges() {
        for monitor in state.withLock({ $0.monitors }) { monitor.pollNow() }
    }

    /// Hands other writers' commits to the contexts that merge automatically, then posts the
    /// notification and feeds ``remoteChanges``; on the monitor's queue.
    ///
    /// - Parameter transactions: the other writers' history transactions in commit order;
    ///   `nil` when what changed is unknown (no history, or history pruned before it was read):
    ///   the contexts then fetch their objects anew.
    /// - Returns: A group that is done once every context merged.
    func deliver(_ change: PersistentStoreRemoteChange, transactions: [PersistentHistoryTransaction]?) -> DispatchGroup {
        let (contexts, subscribers) = state.withLock { state in
            (state.contexts.compactMap(\.context).filter(\.automaticallyMergesChangesFromParent), Array(state.remoteChangeSubscribers.values))
        }
        let saves = transactions?.map(\.contextDidSave)
        let merged = DispatchGroup()
        for context in contexts {
            merged.enter()
            context.perform {
                defer { merged.leave() }
                if let saves {
                    for saved in saves { context.mergeRemoteSave(saved) }
                } else {
                    context.refetchAfterUnknownChanges()
                }
            }
        }
        NotificationCenter.default.post(name: .persistentStoreRemoteChange, object: self, userInfo: change.userInfo)
        for subscriber in subscribers { subscriber.yield(change) }
        return merged
    }
}
