import Foundation
import GRDB

extension SQLiteStore {
    func save(_ changes: SaveChanges) throws {
        do {
            if let injected = failureInjection.withLock({ $0 })?(.write) { throw injected }
            try writer.write { db in
                for id in changes.deletes { try delete(id, in: db) }
                for write in changes.updates { try update(write, in: db) }
                var targets = InsertTargets()
                for write in changes.inserts { try insert(write, in: db, targets: &targets) }
                for membership in changes.removedMembers {
                    let table = try joinTable(of: membership)
                    try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE Z_SOURCE = ? AND Z_DESTINATION = ?")
                        .execute(arguments: [membership.source.primaryKey, membership.destination.primaryKey])
                }
                for membership in changes.addedMembers {
                    let table = try joinTable(of: membership)
                    try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table.name) (Z_SOURCE, Z_DESTINATION) VALUES (?, ?)")
                        .execute(arguments: [membership.source.primaryKey, membership.destination.primaryKey])
                }
                for ordering in changes.orderings { try write(ordering, in: db) }
            }
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            throw ObjectGraphError(
                .constraintConflict,
                "the save breaks a uniqueness constraint: \(describeConstraint(error.message ?? ""))",
                underlying: error,
                file: path
            )
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the save could not be written to the store at \(path ?? ":memory:"); nothing was saved",
                underlying: error,
                file: path
            )
        }
    }

    /// What inserting rows of one entity needs, looked up once per save.
    struct InsertTarget {
        let entity: EntityDescription
        let mapping: StoreSchema.EntityMapping
        /// The column counts of the entity's stored slots (see `insertColumnCounts`).
        let plan: (slots: [Int], counts: [UInt8])?
        /// The INSERT of every stored column, and its column count.
        let sql: (sql: String, columnCount: Int)?
        /// The prepared INSERT, once used.
        var statement: Statement?
    }

    /// The insert targets of one save, by entity name; consecutive rows of one entity (the
    /// usual case: a save writes in entity order) skip the lookup.
    struct InsertTargets {
        var byName: [String: InsertTarget] = [:]
        var lastName: String?
        var last: InsertTarget?
    }

    /// Inserts one row. Inserts of one entity write the same columns: their SQL is built once
    /// per entity and their statement prepared once per save.
    private func insert(_ write: SaveChanges.RowWrite, in db: Database, targets: inout InsertTargets) throws {
        let name = write.id.entityName
        if targets.lastName != name {
            if targets.byName[name] == nil {
                guard let entity = managedObjectModel.entity(named: name) else { throw unknownEntity(name) }
                let mapping = try self.mapping(of: name)
                targets.byName[name] = InsertTarget(
                    entity: entity,
                    mapping: mapping,
                    plan: insertColumnCounts[entity.name],
                    sql: insertSQL[entity.name],
                    statement: nil
                )
            }
            targets.lastName = name
            targets.last = targets.byName[name]
        }
        guard let target = targets.last else { throw unknownEntity(name) }
        let entity = target.entity
        var arguments: [DatabaseValue] = [write.id.primaryKey.databaseValue, entity.entityCode.databaseValue, 1.databaseValue]
        arguments.reserveCapacity(3 + write.slots.count)
        if let plan = target.plan, plan.slots == write.slots {
            for (count, value) in zip(plan.counts, write.values) where count > 0 {
                arguments.append(value.databaseValue)
                if count == 2 { arguments.append(entityCode(of: value)) }
            }
        } else {
            var noColumns: [String]?
            try appendColumns(write, entity: entity, mapping: target.mapping, columns: &noColumns, arguments: &arguments)
        }
        let statement: Statement
        if let cached = target.sql, cached.columnCount == arguments.count {
            if let reused = target.statement {
                statement = reused
            } else {
                statement = try db.cachedStatement(sql: cached.sql)
                statement.prepareForDirectBinding()
                targets.byName[name]?.statement = statement
                targets.last?.statement = statement
            }
        } else {
            var columns: [String]? = ["Z_PK", "Z_ENT", "Z_OPT"]
            var ignored: [DatabaseValue] = []
            try appendColumns(write, entity: entity, mapping: target.mapping, columns: &columns, arguments: &ignored)
            let names = columns ?? []
            statement = try db.cachedStatement(
                sql:
                    "INSERT INTO \(target.mapping.table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
            )
            statement.prepareForDirectBinding()
        }
        try arguments.withUnsafeBufferPointer { try statement.executeBinding($0) }
    }

    private func update(_ write: SaveChanges.RowWrite, in db: Database) throws {
        guard let entity = managedObjectModel.entity(named: write.id.entityName) else { throw unknownEntity(write.id.entityName) }
        let mapping = try self.mapping(of: entity.name)
        var names: [String]? = []
        var arguments: [DatabaseValue] = []
        try appendColumns(write, entity: entity, mapping: mapping, columns: &names, arguments: &arguments)
        let assignments = (names ?? []).map { "\($0) = ?" } + ["Z_OPT = Z_OPT + 1"]
        let statement = try db.cachedStatement(sql: "UPDATE \(mapping.table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?")
        arguments.append(write.id.primaryKey.databaseValue)
        statement.prepareForDirectBinding()
        try arguments.withUnsafeBufferPointer { try statement.executeBinding($0) }
    }

    /// Appends the columns (when `columns` is not `nil`) and the values of `write`'s stored slots.
    private func appendColumns(
        _ write: SaveChanges.RowWrite,
        entity: EntityDescription,
        mapping: StoreSchema.EntityMapping,
        columns: inout [String]?,
        arguments: inout [DatabaseValue]
    ) throws {
        for (slot, value) in zip(write.slots, write.values) {
            guard let column = mapping.columns[slot] else {
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "the store at \(path ?? ":memory:") has no column for \(entity.name).\(entity.allProperties[slot].name); nothing was saved"
                )
            }
            columns?.append(column)
            arguments.append(value.databaseValue)
            if let entityColumn = mapping.entityColumns[slot] {
                columns?.append(entityColumn)
                arguments.append(entityCode(of: value))
            }
        }
    }

    /// The entity code column's value for a to-one value: the destination's `Z_ENT`, or NULL.
    private func entityCode(of value: Value) -> DatabaseValue {
        if case .objectID(let id) = value, let target = managedObjectModel.entity(named: id.entityName) {
            return target.entityCode.databaseValue
        }
        return .null
    }

    private func delete(_ id: ManagedObjectID, in db: Database) throws {
        guard let entity = managedObjectModel.entity(named: id.entityName) else { throw unknownEntity(id.entityName) }
        let mapping = try self.mapping(of: entity.name)
        try db.cachedStatement(sql: "DELETE FROM \(mapping.table) WHERE Z_PK = ?").execute(arguments: [id.primaryKey])
        // Join rows of a deleted object go with it, whichever side it is on.
        for other in managedObjectModel.entities {
            for case let relationship as RelationshipDescription in other.properties {
                guard let (table, isOwner) = schema.joinTable(for: relationship), isOwner, let destination = relationship.destinationEntity else {
                    continue
                }
                if entity.rootEntity === other.rootEntity {
                    try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE Z_SOURCE = ?").execute(arguments: [id.primaryKey])
                }
                if entity.rootEntity === destination.rootEntity {
                    try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE Z_DESTINATION = ?").execute(arguments: [id.primaryKey])
                }
            }
        }
    }

    private func joinTable(of membership: SaveChanges.Membership) throws -> StoreSchema.JoinTable {
        guard let table = schema.joinTables["\(membership.entity).\(membership.relationship)"] else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(path ?? ":memory:") has no join table for \(membership.entity).\(membership.relationship); nothing was saved"
            )
        }
        return table
    }

    /// The error for a row of an entity the store's model does not have: the save must not
    /// succeed without writing it.
    private func unknownEntity(_ name: String) -> ObjectGraphError {
        ObjectGraphError(.entityNotFound, "the store at \(path ?? ":memory:") has no entity '\(name)'; nothing was saved")
    }

    private func write(_ ordering: SaveChanges.Ordering, in db: Database) throws {
        guard let entity = managedObjectModel.entity(named: ordering.entity),
            let relationship = entity.relationshipsByName[ordering.relationship],
            let destination = relationship.destinationEntity
        else { throw unknownEntity("\(ordering.entity).\(ordering.relationship)") }
        if let column = schema.orderColumns["\(ordering.entity).\(ordering.relationship)"] {
            let table = try mapping(of: destination.name).table
            let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?")
            for (index, member) in ordering.members.enumerated() {
                try statement.execute(arguments: [index, member.primaryKey])
            }
        } else if let (table, isOwner) = schema.joinTable(for: relationship) {
            let (mine, theirs, order) = isOwner ? ("Z_SOURCE", "Z_DESTINATION", "Z_FOK_SOURCE") : ("Z_DESTINATION", "Z_SOURCE", "Z_FOK_DESTINATION")
            guard isOwner ? table.sourceOrdered : table.destinationOrdered else { return }
            let statement = try db.cachedStatement(sql: "UPDATE \(table.name) SET \(order) = ? WHERE \(mine) = ? AND \(theirs) = ?")
            for (index, member) in ordering.members.enumerated() {
                try statement.execute(arguments: [index, ordering.source.primaryKey, member.primaryKey])
            }
        } else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store at \(path ?? ":memory:") keeps no order for \(ordering.entity).\(ordering.relationship); nothing was saved"
            )
        }
    }

    /// Turns SQLite's "UNIQUE constraint failed: ZTAG.ZNAME" into entity and property names.
    private func describeConstraint(_ message: String) -> String {
        var text = message
        for entity in managedObjectModel.entities {
            guard let mapping = schema.mappings[entity.name] else { continue }
            for (slot, column) in mapping.columns {
                text = text.replacingOccurrences(
                    of: "\(mapping.table).\(column)",
                    with: "\(entity.rootEntity.name).\(entity.allProperties[slot].name)"
                )
            }
        }
        return text
    }
}
