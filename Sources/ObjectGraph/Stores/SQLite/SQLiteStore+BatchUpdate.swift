import Foundation
import GRDB

// A batch update in SQL: the matching rows' IDs, then one UPDATE per few hundred of them that
// sets the new values and bumps each row's version — one transaction.
extension SQLiteStore {
    /// Sets `values` (attribute names to caller values) on every row of `entityName` matching
    /// `predicate`, giving each a new version, in one transaction.
    func batchUpdate(entityName: String, predicate: PredicateNode?, includesSubentities: Bool, values: [String: Any]) throws -> BatchChanges {
        let (entity, entityPlan) = try batchEntity(entityName, for: "batch update of")
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        var slots: [Int] = []
        for (key, input) in values.sorted(by: { $0.key < $1.key }) {
            let attribute = try batchAttribute(key, of: entity, where: "the batch update of \(entity.name)")
            let value = try batchValue(input, for: attribute, where: "the batch update of \(entity.name)")
            guard let column = entityPlan.updateColumns[attribute.slot] else { continue }
            assignments.append("\(column) = ?")
            let external = entityPlan.externalSlots.contains(attribute.slot)
            arguments.append((external ? ExternalBinaryStorage.inline(value) : value).databaseValue)
            slots.append(attribute.slot)
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        let descriptor = FetchDescriptor(
            entity: entity.name,
            predicate: predicate,
            sortDescriptors: [],
            fetchLimit: 0,
            fetchOffset: 0,
            includesSubentities: includesSubentities
        )
        let select = try matchingSQL(descriptor, refusing: "batch update")
        let update = "UPDATE \(entityPlan.mapping.table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN "
        return try performBatchWrite("batch update \(entity.name) objects") { db -> (BatchChanges, Void) in
            let ids = try matchingIDs(select, in: db)
            for start in stride(from: 0, to: ids.count, by: Self.rowsByIDChunk) {
                let chunk = ids[start..<min(start + Self.rowsByIDChunk, ids.count)]
                // Bound directly: GRDB's arguments would cut a string at a NUL character.
                let statement = try db.cachedStatement(sql: update + "(\(Self.placeholders(chunk.count)))")
                statement.prepareForDirectBinding()
                try (arguments + chunk.map(\.primaryKey.databaseValue)).withUnsafeBufferPointer { try statement.executeBinding($0) }
            }
            return (BatchChanges(updated: ids, updatedSlots: slots), ())
        }.0
    }
}
