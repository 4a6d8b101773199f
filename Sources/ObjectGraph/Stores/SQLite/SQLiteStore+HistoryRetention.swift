import Foundation
import GRDB

extension SQLiteStore {
    /// Deletes the history the retention no longer keeps, in the write transaction `db` that
    /// just recorded transaction `last` — every few transactions only.
    func pruneHistoryIfNeeded(after last: Int64, in db: Database) throws {
        guard let retention = historyRetention, last % PersistentHistoryRetention.pruningInterval == 0 else { return }
        try pruneHistory(retention, last: last, in: db)
    }

    /// Deletes the transactions older than the retention's age and all but its count.
    func pruneHistory(_ retention: PersistentHistoryRetention, last: Int64, in db: Database) throws {
        if let age = retention.maximumAge {
            // Never the transaction just recorded, however old it is by now: the current
            // token names it, and a reader at that token must not be told it expired.
            var cutoff = Date(timeIntervalSinceNow: -age)
            let sql = "SELECT ZTIMESTAMP FROM \(HistoryTables.transactions) WHERE Z_PK = ?"
            if let recorded = try Double.fetchOne(db, sql: sql, arguments: [last]) {
                cutoff = min(cutoff, Date(timeIntervalSinceReferenceDate: recorded))
            }
            _ = try deleteTransactions(.deleteHistory(before: cutoff), in: db)
        }
        if let count = retention.maximumCount, last - Int64(count) + 1 > 1 {
            let oldestKept = PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: last - Int64(count) + 1)
            _ = try deleteTransactions(.deleteHistory(before: oldestKept), in: db)
        }
    }
}
