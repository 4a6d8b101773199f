import Foundation
import GRDB

extension SQLiteStore {
    /// After SQLite refused a save for a UNIQUE constraint (its transaction rolled back): throws
    /// ``UniquenessConflictFailure`` naming the conflicting objects, or returns when none is
    /// found (the caller reports SQLite's error).
    func findUniquenessConflicts(_ changes: SaveChanges) throws {
        do {
            try writer.read { db in try checkUniqueness(changes, in: db) }
        } catch let failure as UniquenessConflictFailure {
            throw failure
        } catch {
            return  // the caller throws the constraint error SQLite reported
        }
    }

    /// Finds the uniqueness conflicts of `changes` in `db`, as the store is without them: the
    /// engine's probes (``SQLStoreLayout/uniquenessProbes(_:model:)``) run on the connection,
    /// and the engine reads their answers.
    ///
    /// - Throws: ``UniquenessConflictFailure`` listing every conflict.
    func checkUniqueness(_ changes: SaveChanges, in db: Database) throws {
        let probes = layout.uniquenessProbes(changes, model: managedObjectModel)
        guard !probes.isEmpty else { return }
        let stored = try probes.map { probe in
            try Row.fetchAll(db.cachedStatement(sql: probe.sql), arguments: StatementArguments(probe.arguments.databaseValues)).map { row in
                (primaryKey: row[0] as Int64, entityCode: row[1] as Int64)
            }
        }
        if let failure = layout.uniquenessFailure(probes, stored: stored, ids: ids) { throw failure }
    }
}
