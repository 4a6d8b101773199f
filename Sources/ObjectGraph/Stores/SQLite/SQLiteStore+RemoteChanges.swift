import Foundation
import GRDB
import Synchronization

extension SQLiteStore {
    // MARK: Noticing other writers

    /// SQLite's `PRAGMA data_version` on this store's writing connection, or `nil` in memory
    /// (no other connection can write there).
    ///
    /// The number changes exactly when *another* connection committed since the last call —
    /// another process, or another coordinator of this process on the same file. This store's
    /// own saves, batch requests and key reservations all go through the writing connection and
    /// leave it alone, so a change never comes from here. Asking costs a few microseconds and no
    /// file access beyond the shared-memory index.
    func writerDataVersion() throws -> Int64? {
        guard path != nil else { return nil }
        // A cached statement: the pragma runs 25 times a second for as long as the store is open.
        return try writer.writeWithoutTransaction { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) }
    }

    // MARK: This store's own transactions

    /// Remembers that history transaction `number`, being written in `db`, is this store's:
    /// the remote-change monitor skips it (a coordinator's own saves reach its contexts through
    /// ``PersistentStoreCoordinator/contextDidSave(_:_:)``), so no context merges a save twice.
    ///
    /// Noted before the commit — a reader may see the transaction the moment it commits — and
    /// forgotten if the transaction rolls back, as its number is then handed out again.
    func noteOwnHistoryTransaction(_ number: Int64, in db: Database) {
        ownTransactions.note(number)
        db.afterNextTransaction(
            onCommit: { _ in },
            onRollback: { [weak self] _ in
                self?.ownTransactions.forget(number)
            }
        )
    }

    /// Removes and returns which of `numbers` this store wrote; forgets every number up to
    /// `through`, which the caller has read past.
    func takeOwnTransactions(among numbers: [Int64], through last: Int64) -> Set<Int64> {
        ownTransactions.take(among: numbers, through: last)
    }

    /// How many of this store's transactions the monitor has not read past yet.
    var ownTransactionBacklog: Int { ownTransactions.backlog }

    // MARK: Reading other writers' history

    /// The transactions recorded after `token` (all of them when `nil`), with their changes, in
    /// commit order — this store's own included; see ``takeOwnTransactions(among:through:)``.
    ///
    /// - Throws: ``ObjectGraphError/Code/persistentHistoryTokenExpired`` when history after
    ///   `token` was pruned: the caller missed changes and must fetch anew.
    func historyTransactions(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        let result = try execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
        return result.result as? [PersistentHistoryTransaction] ?? []
    }
}
