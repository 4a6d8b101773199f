import Foundation
import GRDB

// A batch update in SQL: the matching rows' IDs, then one UPDATE per few hundred of them that
// sets the new values and bumps each row's version — one transaction. Binary values kept in
// external storage: the files of the values replaced go once it commits, and a value too
// large for the row gets a file per row (each row owns its file, as after a save).
extension SQLiteStore {
    /// Sets `values` (attribute names to caller values) on every row of `entityName` matching
    /// `predicate`, giving each a new version, in one transaction.
    func batchUpdate(entityName: String, predicate: PredicateNode?, includesSubentities: Bool, values: [String: Any]) throws -> BatchChanges {
        // The rules (keys, values, matched rows) are the engine's; SQLite keeps large binary
        // values in files and binds keys in chunks.
        let (entity, descriptor, planned) = try layout.batchUpdateAssignments(
            entityName: entityName,
            predicate: predicate,
            includesSubentities: includesSubentities,
            values: values,
            model: managedObjectModel
        )
        let (_, entityPlan) = try batchEntity(entity.name, for: "batch update of")
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        let slots = planned.map(\.slot)
        let storage = externalStorage
        // Values each row keeps in a file of its own, written row by row.
        var fileValues: [(column: String, value: Value)] = []
        for assignment in planned {
            let external = entityPlan.externalSlots.contains(assignment.slot)
            if external, storage.keepsInFile(assignment.value) {
                fileValues.append((assignment.column, assignment.value))
                continue
            }
            assignments.append("\(assignment.column) = ?")
            arguments.append((external ? ExternalBinaryStorage.inline(assignment.value) : assignment.value).databaseValue)
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        let select = try matchingSQL(descriptor, refusing: "batch update")
        let update = "UPDATE \(entityPlan.mapping.table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN "
        let replacesFiles = slots.contains { entityPlan.externalSlots.contains($0) }
        return try withExternalFiles { files in
            try performBatchWrite("batch update \(entity.name) objects") { db -> (BatchChanges, Void) in
                let ids = try matchingIDs(select, in: db)
                let fileStatements = try fileValues.map { column, _ in
                    try db.cachedStatement(sql: "UPDATE \(entityPlan.mapping.table) SET \(column) = ? WHERE Z_PK = ?")
                }
                for start in stride(from: 0, to: ids.count, by: Self.rowsByIDChunk) {
                    let chunk = ids[start..<min(start + Self.rowsByIDChunk, ids.count)]
                    if replacesFiles { try noteExternalFiles(ofRows: chunk, entity: entityPlan, slots: slots, in: db, files: &files) }
                    for (statement, (_, value)) in zip(fileStatements, fileValues) {
                        for id in chunk {
                            try statement.execute(arguments: [try storage.encode(value, files: &files).databaseValue, id.primaryKey])
                        }
                    }
                    // Bound directly: GRDB's arguments would cut a string at a NUL character.
                    let statement = try db.cachedStatement(sql: update + "(\(Self.placeholders(chunk.count)))")
                    statement.prepareForDirectBinding()
                    try (arguments + chunk.map(\.primaryKey.databaseValue)).withUnsafeBufferPointer { try statement.executeBinding($0) }
                }
                return (BatchChanges(updated: ids, updatedSlots: slots), ())
            }.0
        }
    }
}
