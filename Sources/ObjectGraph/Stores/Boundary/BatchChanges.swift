import Foundation

/// What one batch request changed in the store, by object ID: what a context merges.
package struct BatchChanges: Sendable {
    /// New rows (batch inserts).
    package var inserted: [ManagedObjectID] = []
    /// Rows whose values or relationships changed (batch updates, upserts, nullified rows).
    package var updated: [ManagedObjectID] = []
    /// Deleted rows, cascaded deletes included.
    package var deleted: [ManagedObjectID] = []
    /// The slots a batch update set (for persistent history's `updatedProperties`); nullified
    /// rows of a batch delete record none.
    package var updatedSlots: [Int] = []
    /// The deleted rows' values kept in persistent history (read before the rows went).
    var tombstones: [ManagedObjectID: [(String, SQLValue)]] = [:]

    /// The changes keyed as Core Data's did-save user info, for
    /// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
    var userInfo: [AnyHashable: Any] {
        [InsertedObjectsKey: inserted, UpdatedObjectsKey: updated, DeletedObjectsKey: deleted]
    }

    /// No changes, for a store of another module to fill in.
    package static var none: BatchChanges { BatchChanges() }
}

/// Who writes a batch request's changes, for persistent history.
package struct HistoryWriter: Sendable {
    package let author: String?
    package let contextName: String?

    /// The writer of the batch request running now: the context executing it (see
    /// ``ManagedObjectContext/execute(_:)``), for every store type; no author outside one.
    @TaskLocal package static var current: HistoryWriter = HistoryWriter(author: nil, contextName: nil)
}
