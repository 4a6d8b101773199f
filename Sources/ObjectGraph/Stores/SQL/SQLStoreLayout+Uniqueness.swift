import Foundation

extension SQLStoreLayout {
    /// One question a store asks after the database refused a save for a unique index: which
    /// stored rows have the values a group of the save's objects share.
    package struct UniquenessProbe: Sendable {
        let entityName: String
        let constraint: [String]
        /// `SELECT "Z_PK", "Z_ENT" FROM table WHERE columns = values`, with its arguments.
        package let sql: String
        package let arguments: [SQLValue]
        /// The save's objects with those values, in save order.
        let ids: [ManagedObjectID]
        /// Rows the save deletes or moves to other values: they do not count as stored.
        let leaving: Set<ManagedObjectID>
    }

    /// The probes of `changes`: per uniqueness constraint and group of the save's inserted or
    /// updated objects sharing its values (an update only when it changes them; values with a
    /// `nil` never conflict).
    package func uniquenessProbes(_ changes: SaveChanges, model: ManagedObjectModel) -> [UniquenessProbe] {
        let writes = changes.inserts + changes.updates
        var probes: [UniquenessProbe] = []
        for entity in model.entities where !entity.uniquenessConstraints.isEmpty {
            guard let mapping = schema.mappings[entity.name] else { continue }
            let codes = Set(entity.fetchableEntityCodes)
            let mine = writes.filter { codes.contains($0.entity) }
            guard !mine.isEmpty else { continue }
            for constraint in entity.uniquenessConstraints {
                let slots = constraint.compactMap { entity.slotByName[$0] }
                let columns = slots.compactMap { mapping.columns[$0] }
                guard slots.count == constraint.count, columns.count == slots.count else { continue }
                var groups: [[Value]: [ManagedObjectID]] = [:]
                var order: [[Value]] = []
                var leaving = Set(changes.deletes.map(\.id))
                for write in mine {
                    if let changed = write.changedSlots, !slots.contains(where: changed.contains) { continue }
                    if write.changedSlots != nil { leaving.insert(write.id) }
                    let key = slots.map { write.values[$0] }
                    if key.contains(where: \.isNull) { continue }
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: []].append(write.id)
                }
                let condition = columns.enumerated().map { "\(dialect.quoted($1)) = \(dialect.placeholder($0 + 1))" }.joined(separator: " AND ")
                let filter =
                    entity.superentity == nil
                    ? "" : " AND \(dialect.quoted("Z_ENT")) IN (\(entity.fetchableEntityCodes.map(String.init).joined(separator: ", ")))"
                let sql =
                    "SELECT \(dialect.quoted("Z_PK")), \(dialect.quoted("Z_ENT")) FROM \(dialect.quoted(mapping.table)) WHERE \(condition)\(filter)"
                for key in order {
                    probes.append(
                        UniquenessProbe(
                            entityName: entity.name,
                            constraint: constraint,
                            sql: sql,
                            arguments: key.map(\.sqlValue),
                            ids: groups[key] ?? [],
                            leaving: leaving
                        )
                    )
                }
            }
        }
        return probes
    }

    /// The ``UniquenessConflictFailure`` of the probes' answers (the stored rows' keys and
    /// entity codes, per probe), or `nil` when none conflicts.
    package func uniquenessFailure(
        _ probes: [UniquenessProbe],
        stored: [[(primaryKey: Int64, entityCode: Int64)]],
        ids: StoreObjectIDs
    ) -> UniquenessConflictFailure? {
        var conflicts: [UniquenessConflictFailure.Conflict] = []
        for (probe, rows) in zip(probes, stored) {
            let storedIDs = rows.compactMap { row -> ManagedObjectID? in
                guard let id = ids.objectID(code: Int(row.entityCode), primaryKey: row.primaryKey) else { return nil }
                return probe.leaving.contains(id) ? nil : id
            }
            guard probe.ids.count > 1 || !storedIDs.isEmpty else { continue }
            conflicts.append(
                UniquenessConflictFailure.Conflict(
                    entityName: probe.entityName,
                    constraint: probe.constraint,
                    databaseObjectID: storedIDs.first,
                    conflictingObjectIDs: probe.ids
                )
            )
        }
        return conflicts.isEmpty ? nil : UniquenessConflictFailure(conflicts: conflicts)
    }
}
