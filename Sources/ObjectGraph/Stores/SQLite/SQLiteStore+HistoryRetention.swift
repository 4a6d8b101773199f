import Foundation
import GRDB

extension SQLiteStore {
    /// Deletes the history the retention no longer keeps (``PersistentHistoryRetention/pruning(after:)``
    /// decides what), in the write transaction `db` that just recorded transaction `last`.
    func pruneHistoryIfNeeded(after last: Int64, in db: Database) throws {
        guard let pruning = historyRetention?.pruning(after: last) else { return }
        if var cutoff = pruning.olderThan {
            // Not the transaction just recorded: nothing at or after its own timestamp goes.
            let sql = "SELECT ZTIMESTAMP FROM \(HistoryTables.transactions) WHERE Z_PK = ?"
            if let recorded = try Double.fetchOne(db, sql: sql, arguments: [last]) {
                cutoff = min(cutoff, Date(timeIntervalSinceReferenceDate: recorded))
            }
            _ = try deleteTransactions(.deleteHistory(before: cutoff), in: db)
        }
        if let below = pruning.below {
            let oldestKept = PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: below)
            _ = try deleteTransactions(.deleteHistory(before: oldestKept), in: db)
        }
    }
}
