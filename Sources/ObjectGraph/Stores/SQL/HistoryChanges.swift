import Foundation

/// One write's changes as persistent history records them — a context's save or a batch
/// request — built once by the engine (``SQLStoreLayout/historyChanges(_:model:runs:)``,
/// ``SQLStoreLayout/historyChanges(of:writer:model:runs:)``) and written by each store into its
/// own history tables, in this order: inserted, updated (with the changed properties), deleted.
///
/// A store's part is only how the rows are stored: SQLite writes one change row per object and
/// its tombstones in a table of their own; PostgreSQL numbers the transaction under a lock,
/// writes a run of new objects with consecutive keys as one row, and keeps tombstones as JSON.
package struct HistoryChanges: Sendable {
    /// One changed object, or (with `runs`) new objects of one entity with consecutive keys.
    package struct Row: Sendable {
        /// The object's entity code (`Z_ENT`).
        package let entity: Int
        package let key: Int64
        package let type: PersistentHistoryChangeType
        /// An update's changed properties, comma-separated (see
        /// ``SQLStoreLayout/changedPropertyNames(entityCode:slots:model:)``); `nil` for none.
        package var columns: String? = nil
        /// The last key of a run of inserted objects `key...lastKey`; `nil` for one object.
        package var lastKey: Int64? = nil

        /// How many objects the row stands for.
        package var objectCount: Int64 { (lastKey ?? key) - key + 1 }
    }

    package var rows: [Row]
    package let author: String?
    package let contextName: String?

    package var isEmpty: Bool { rows.isEmpty }
}

/// A row by entity code and primary key (keys are unique per inheritance tree only): how a
/// store keys the tombstones it read before deleting rows.
package struct TombstoneKey: Hashable, Sendable {
    package let entity: Int
    package let key: Int64

    package init(entity: Int, key: Int64) {
        self.entity = entity
        self.key = key
    }
}

extension SQLStoreLayout {
    /// The history of a context's save. Objects whose to-many relationships alone changed are
    /// updated too.
    ///
    /// - Parameter runs: Whether new objects of one entity with consecutive keys (an import's,
    ///   whose keys were reserved in one range) share one row, for a store whose history keeps
    ///   runs.
    package func historyChanges(_ changes: SaveChanges, model: ManagedObjectModel, runs: Bool) -> HistoryChanges {
        var rows: [HistoryChanges.Row] = []
        rows.reserveCapacity(changes.inserts.count + changes.updates.count + changes.deletes.count)
        for write in changes.inserts { rows.appendInsert(entity: write.entity, key: write.id.primaryKey, runs: runs) }
        for write in changes.updates {
            let columns = changedPropertyNames(entityCode: write.entity, slots: write.changedSlots ?? [], model: model)
            rows.append(.init(entity: write.entity, key: write.id.primaryKey, type: .update, columns: columns))
        }
        for delete in changes.deletes { rows.append(.init(entity: delete.entity, key: delete.id.primaryKey, type: .delete)) }
        if !changes.relationshipChanges.isEmpty {
            var written = Set(changes.inserts.map(\.id))
            written.formUnion(changes.updates.map(\.id))
            written.formUnion(changes.deletes.map(\.id))
            for change in changes.relationshipChanges where written.insert(change.source).inserted {
                if let entity = entity(named: change.source.entityName) {
                    rows.append(.init(entity: entity.code, key: change.source.primaryKey, type: .update))
                }
            }
        }
        return HistoryChanges(rows: rows, author: changes.transactionAuthor, contextName: changes.contextName)
    }

    /// The history of a batch request's changes, written by `writer`: a batch update's rows
    /// changed the properties it set; nullified rows record none. `runs` as for a save.
    package func historyChanges(of changes: BatchChanges, writer: HistoryWriter, model: ManagedObjectModel, runs: Bool) -> HistoryChanges {
        var rows: [HistoryChanges.Row] = []
        for (ids, type) in [(changes.inserted, PersistentHistoryChangeType.insert), (changes.updated, .update), (changes.deleted, .delete)] {
            for id in ids {
                guard let entity = entity(named: id.entityName) else { continue }
                if type == .insert {
                    rows.appendInsert(entity: entity.code, key: id.primaryKey, runs: runs)
                    continue
                }
                let columns = type == .update ? changedPropertyNames(entityCode: entity.code, slots: changes.updatedSlots, model: model) : nil
                rows.append(.init(entity: entity.code, key: id.primaryKey, type: type, columns: columns))
            }
        }
        return HistoryChanges(rows: rows, author: writer.author, contextName: writer.contextName)
    }
}

extension [HistoryChanges.Row] {
    /// Appends the insert of one object; with `runs`, by extending the last row when it holds
    /// the object of the same entity with the key just before.
    fileprivate mutating func appendInsert(entity: Int, key: Int64, runs: Bool) {
        if runs, let last, last.type == .insert, last.entity == entity, (last.lastKey ?? last.key) &+ 1 == key {
            self[count - 1].lastKey = key
        } else {
            append(.init(entity: entity, key: key, type: .insert))
        }
    }
}
