import Dispatch
import Foundation

/// Notices commits that another process or coordinator made to a store, reads their
/// persistent history and hands them to the coordinator.
///
/// A store that announces commits (PostgreSQL's `LISTEN`/`NOTIFY`) makes it check at once. It
/// also asks the store for its ``StoreBackend/remoteCommitMarker()`` — SQLite's writing
/// connection's `PRAGMA data_version` — on a timer (every
/// ``defaultPollingInterval`` unless ``PersistentStore/remoteChangePollingIntervalOption`` says): the number moves only when another connection committed, so an idle
/// store costs one cheap pragma per tick and no query touches the data. When it moves, the
/// history after the last token read is fetched, the store's own transactions are skipped, and
/// the rest is delivered. Measured by `spot-bench`'s `remote` workload (Benchmarks/RESULTS.md).
final class RemoteChangeMonitor: @unchecked Sendable {
    // @unchecked Sendable: `lastDataVersion`, `lastToken` and `timer` are touched only on `queue`.

    /// How often the store is asked whether another connection committed, by default.
    static let defaultPollingInterval: TimeInterval = 0.04

    /// How often this monitor asks.
    let pollingInterval: TimeInterval

    private let store: any StoreBackend
    private weak var coordinator: PersistentStoreCoordinator?
    private let queue: DispatchQueue
    private var timer: (any DispatchSourceTimer)?
    private var lastDataVersion: Int64?
    /// The merges the last delivery queued on contexts. While they run, ticks read nothing:
    /// a writer saving faster than the contexts merge makes them merge larger batches, not a
    /// queue that grows without end.
    private var merging: DispatchGroup?
    /// The last history transaction read; later ones are new.
    private var lastToken: PersistentHistoryToken

    /// Creates a monitor of `store` reporting to `coordinator`, starting from the store's
    /// current state: commits made before it are not reported.
    init(store: any StoreBackend, coordinator: PersistentStoreCoordinator, pollingInterval: TimeInterval) throws {
        self.store = store
        self.pollingInterval = pollingInterval
        self.coordinator = coordinator
        queue = DispatchQueue(label: "ObjectGraph.RemoteChangeMonitor", qos: .utility)
        lastDataVersion = try store.remoteCommitMarker()
        lastToken = try Self.currentToken(of: store)
    }

    deinit {
        timer?.cancel()
    }

    /// Starts polling; a store that announces other instances' commits (PostgreSQL's
    /// `NOTIFY`) also makes the monitor check at once when one arrives.
    func start() {
        _ = store.observeRemoteCommits { [weak self] in
            guard let self else { return }
            self.queue.async { self.poll() }
        }
        queue.sync {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = DispatchTimeInterval.microseconds(Int(pollingInterval * 1_000_000))
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
            timer.setEventHandler { [weak self] in self?.poll() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops polling; nothing is reported after it returns.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    /// Checks for other writers' commits now, on the monitor's queue, and returns once what it
    /// found was handed to the coordinator (tests and benchmarks call it to skip the wait).
    ///
    /// Waits for the merges of the previous delivery first: do not call it on the queue of a
    /// context that merges automatically.
    func pollNow() {
        queue.sync {
            merging?.wait()
            poll()
        }
    }

    /// One tick, on `queue`.
    private func poll() {
        guard let coordinator else {
            timer?.cancel()
            timer = nil
            return
        }
        if let merging, merging.wait(timeout: .now()) == .timedOut { return }
        merging = nil
        do {
            guard let version = try store.remoteCommitMarker() else { return }
            let changed = version != lastDataVersion
            // The store's own transactions are skipped by number; read past them now and then
            // even when nobody else writes, so their numbers are not kept for ever.
            guard changed || store.ownTransactionBacklog > 1_024 else { return }
            if let change = try readChanges(announcing: changed) {
                merging = coordinator.deliver(change.remoteChange, transactions: change.transactions)
            }
            lastDataVersion = version
        } catch {
            // The store is busy or unreadable for a moment: the next tick tries again from the
            // same point, so nothing is skipped.
        }
    }

    /// What happened since the last tick, or `nil` when only this store wrote.
    private func readChanges(
        announcing changed: Bool
    ) throws -> (remoteChange: PersistentStoreRemoteChange, transactions: [PersistentHistoryTransaction]?)? {
        guard store.tracksHistory else {
            // No history: something changed, nobody can say what.
            guard changed else { return nil }
            return (remoteChange(token: nil, lost: false), nil)
        }
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try store.historyTransactions(after: lastToken)
        } catch let error as ObjectGraphError where error.code == .persistentHistoryTokenExpired {
            // Another process pruned history this coordinator had not read: its contexts must
            // fetch anew rather than miss what was pruned.
            lastToken = try Self.currentToken(of: store)
            _ = store.takeOwnTransactions(among: [], through: lastToken.transactionNumber)
            return (remoteChange(token: lastToken, lost: true), nil)
        }
        guard let last = transactions.last else { return nil }
        lastToken = last.token
        let own = store.takeOwnTransactions(among: transactions.map(\.transactionNumber), through: last.transactionNumber)
        let remote = transactions.filter { !own.contains($0.transactionNumber) }
        guard !remote.isEmpty else { return nil }
        return (remoteChange(token: last.token, lost: false), remote)
    }

    /// The store's current history token; before any history, the token before the first
    /// transaction — never `nil`, which would read "all history" and so could not tell that
    /// history was pruned before it was read.
    private static func currentToken(of store: any StoreBackend) throws -> PersistentHistoryToken {
        try store.currentHistoryToken() ?? PersistentHistoryToken(storeIdentifier: store.identifier, transactionNumber: 0)
    }

    private func remoteChange(token: PersistentHistoryToken?, lost: Bool) -> PersistentStoreRemoteChange {
        PersistentStoreRemoteChange(
            storeIdentifier: store.identifier,
            storeURL: store.locationURL,
            historyToken: token,
            historyWasLost: lost
        )
    }
}
