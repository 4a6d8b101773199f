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
            _ = try deleteTransactions(.deleteHistory(before: Date(timeIntervalSinceNow: -age)), in: db)
        }
        if let count = retention.maximumCount, last - Int64(count) + 1 > 1 {
            let oldestKept = PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: last - Int64(count) + 1)
            _ = try deleteTransactions(.deleteHistory(before: oldestKept), in: db)
        }
    }
}
