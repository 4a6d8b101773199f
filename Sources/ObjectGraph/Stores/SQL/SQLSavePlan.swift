import Foundation

/// One save's writes, in the order every SQL store runs them, planned once by the engine from
/// a context's ``SaveChanges`` (``SQLStoreLayout/savePlan(_:model:store:file:encodingExternal:)``).
///
/// A store runs the plan in its write transaction, in three phases:
/// 1. ``rowSteps``: deletes (with their join rows), then updates of the changed columns with
///    `Z_OPT = Z_OPT + 1`. A statement with a ``Statement/versionCheck`` must change its row;
///    when one does not, the store stops before phase 2, reads the rows' versions now
///    (``SQLStoreLayout/versionRead(_:)``) and throws ``OptimisticLockingFailure``, its transaction rolled back.
/// 2. ``inserts``: runs of new objects of one entity, which each store writes its bulk way
///    straight from the rows (SQLite: one prepared statement bound directly; PostgreSQL: COPY
///    or multi-row INSERTs) — as ``SQLStoreLayout/Entity/insertFields`` lists their columns.
/// 3. ``relationshipStatements``: join rows removed and added from the owning side, then the
///    orders of ordered relationships (members before orders: an order is written on join
///    rows that must exist).
///
/// What differs between stores is not here: how a statement runs, how a version check is
/// proven (SQLite's changes count, PostgreSQL's `RETURNING` row), how a uniqueness error is
/// recognised, and the connection's transaction.
package struct SQLSavePlan: Sendable {
    /// One statement of a save, in the store's dialect.
    package struct Statement: Sendable {
        package let sql: String
        package let arguments: [SQLValue]
        /// Set for an UPDATE or DELETE that must find its row at the context's version: a
        /// statement that changes no row is a conflict.
        package var versionCheck: SaveChanges.VersionCheck?

        package init(sql: String, arguments: [SQLValue], versionCheck: SaveChanges.VersionCheck? = nil) {
            self.sql = sql
            self.arguments = arguments
            self.versionCheck = versionCheck
        }
    }

    /// A write of phase 1.
    package enum RowStep: Sendable {
        case statement(Statement)
        /// Before the statements after it replace or delete a row's large binary values kept
        /// in files (Core Data's external storage, SQLite's Core Data layout only): `Statement`
        /// reads the columns holding their references, and the store notes those files as
        /// obsolete, removed once the save commits.
        case obsoleteFiles(Statement)
    }

    /// A run of a save's new objects of one entity, in save order.
    package struct InsertRun: Sendable {
        package let entity: SQLStoreLayout.Entity
        package let rows: ArraySlice<SaveChanges.RowWrite>
    }

    /// Phase 1: deletes, then updates.
    package var rowSteps: [RowStep] = []
    /// Phase 2: new rows.
    package var inserts: [InsertRun] = []
    /// Phase 3: join rows, then orders.
    package var relationshipStatements: [Statement] = []
    /// The ``OptimisticLockingFailure`` of the `missed` checks, given each row's version in
    /// the store now (read with ``SQLStoreLayout/versionRead(_:)`` in the save's transaction; `nil`: gone).
    package func conflicts(_ missed: [SaveChanges.VersionCheck], versions: [Int64?]) -> OptimisticLockingFailure {
        var storeVersions: [ManagedObjectID: Int64?] = [:]
        for (check, version) in zip(missed, versions) { storeVersions[check.id] = .some(version) }
        return OptimisticLockingFailure(storeVersions: storeVersions)
    }
}

extension SQLStoreLayout {
    /// The statement reading the version in the store now of a row whose check `missed`
    /// (`SELECT Z_OPT FROM table WHERE Z_PK = key`; no row: the row is gone), or `nil` for an
    /// entity the store does not have.
    package func versionRead(_ missed: SaveChanges.VersionCheck) -> SQLSavePlan.Statement? {
        guard let entity = entity(code: missed.entity) else { return nil }
        let q = dialect.quoted
        return SQLSavePlan.Statement(
            sql: "SELECT \(q("Z_OPT")) FROM \(entity.table) WHERE \(q("Z_PK")) = \(dialect.placeholder(1))",
            arguments: [.integer(missed.id.primaryKey)]
        )
    }

    /// The writes of `changes` (see ``SQLSavePlan``).
    ///
    /// - Parameters:
    ///   - store: The store as errors name it (its file, its server).
    ///   - file: The store's file, for ``ObjectGraphError``'s `file`.
    ///   - encodingExternal: Turns a large binary value an update writes into what its column
    ///     holds (a file's reference), for the slots in ``Entity/externalSlots``.
    /// - Throws: ``ObjectGraphError`` ("…; nothing was saved") for a row of an entity the store
    ///   does not have, or a relationship change it keeps no members or order for.
    package func savePlan(
        _ changes: SaveChanges,
        model: ManagedObjectModel,
        store: String,
        file: String?,
        encodingExternal: (Value) throws -> Value = { $0 }
    ) throws -> SQLSavePlan {
        var plan = SQLSavePlan()
        var expected: [ManagedObjectID: Int64] = [:]
        for check in changes.versionChecks { expected[check.id] = check.version }
        let q = dialect.quoted
        let p = dialect.placeholder
        let pk = q("Z_PK")
        let opt = q("Z_OPT")
        func entity(_ code: Int, of id: ManagedObjectID) throws -> Entity {
            guard let entity = self.entity(code: code) else {
                throw ObjectGraphError(
                    .entityNotFound,
                    "the store at \(store) has no entity '\(id.entityName)' (code \(code)); nothing was saved",
                    file: file
                )
            }
            return entity
        }
        func check(_ id: ManagedObjectID, _ code: Int) -> SaveChanges.VersionCheck? {
            guard let version = expected[id] else { return nil }
            return SaveChanges.VersionCheck(id: id, entity: code, version: version)
        }
        func noteFiles(of id: ManagedObjectID, entity: Entity, slots: [Int]) {
            let columns = slots.compactMap { $0 < entity.updateColumns.count ? entity.updateColumns[$0]?.column : nil }
            guard !columns.isEmpty else { return }
            let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE \(pk) = \(p(1))"
            plan.rowSteps.append(.obsoleteFiles(SQLSavePlan.Statement(sql: sql, arguments: [.integer(id.primaryKey)])))
        }

        for delete in changes.deletes {
            let entity = try entity(delete.entity, of: delete.id)
            if !entity.externalSlots.isEmpty { noteFiles(of: delete.id, entity: entity, slots: entity.externalSlots) }
            let key = SQLValue.integer(delete.id.primaryKey)
            if let check = check(delete.id, delete.entity) {
                plan.rowSteps.append(
                    .statement(
                        SQLSavePlan.Statement(
                            sql: "DELETE FROM \(entity.table) WHERE \(pk) = \(p(1)) AND \(opt) = \(p(2))",
                            arguments: [key, .integer(check.version)],
                            versionCheck: check
                        )
                    )
                )
            } else {
                plan.rowSteps.append(.statement(SQLSavePlan.Statement(sql: "DELETE FROM \(entity.table) WHERE \(pk) = \(p(1))", arguments: [key])))
            }
            for (table, column) in entity.joinRows {
                plan.rowSteps.append(.statement(SQLSavePlan.Statement(sql: "DELETE FROM \(table) WHERE \(column) = \(p(1))", arguments: [key])))
            }
        }

        // Every saved change of an object is a new version — a change of only to-many slots
        // too (as Core Data's `Z_OPT`), which is what optimistic locking compares.
        for write in changes.updates {
            let entity = try entity(write.entity, of: write.id)
            let changed = write.changedSlots ?? []
            let replaced = entity.externalSlots.isEmpty ? [] : changed.filter { entity.externalSlots.contains($0) }
            if !replaced.isEmpty { noteFiles(of: write.id, entity: entity, slots: replaced) }
            var assignments: [String] = []
            var arguments: [SQLValue] = []
            for slot in changed {
                guard slot < entity.updateColumns.count, let columns = entity.updateColumns[slot] else { continue }
                var value = write.values[slot]
                if replaced.contains(slot) { value = try encodingExternal(value) }
                arguments.append(value.sqlValue)
                assignments.append("\(columns.column) = \(p(arguments.count))")
                if let entityColumn = columns.entityColumn {
                    arguments.append(entityCode(of: value))
                    assignments.append("\(entityColumn) = \(p(arguments.count))")
                }
            }
            assignments.append("\(opt) = \(opt) + 1")
            arguments.append(.integer(write.id.primaryKey))
            var sql = "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE \(pk) = \(p(arguments.count))"
            let check = check(write.id, write.entity)
            if let check {
                arguments.append(.integer(check.version))
                sql += " AND \(opt) = \(p(arguments.count))"
            }
            plan.rowSteps.append(.statement(SQLSavePlan.Statement(sql: sql, arguments: arguments, versionCheck: check)))
        }

        let inserts = changes.inserts
        var index = inserts.startIndex
        while index < inserts.endIndex {
            let code = inserts[index].entity
            var end = index + 1
            while end < inserts.endIndex, inserts[end].entity == code { end += 1 }
            plan.inserts.append(SQLSavePlan.InsertRun(entity: try entity(code, of: inserts[index].id), rows: inserts[index..<end]))
            index = end
        }

        plan.relationshipStatements = try relationshipStatements(changes, model: model, store: store, file: file)
        return plan
    }

    /// The join rows and orders of a save's changed to-many relationships (phase 3 of
    /// ``SQLSavePlan``). Core Data's layout keeps positions 1024 apart (1024, 2048, …);
    /// ObjectGraph's numbers them from 0.
    private func relationshipStatements(
        _ changes: SaveChanges,
        model: ManagedObjectModel,
        store: String,
        file: String?
    ) throws -> [SQLSavePlan.Statement] {
        let p = dialect.placeholder
        func storage(of change: SaveChanges.RelationshipChange) throws -> ToMany {
            guard let storage = toMany(change.relationship) else {
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "the store at \(store) stores no members for \(relationshipName(change.relationship, model: model)); nothing was saved",
                    file: file
                )
            }
            return storage
        }
        var statements: [SQLSavePlan.Statement] = []
        let (insert, ignoring) = dialect.insertIgnoringConflicts
        for change in changes.relationshipChanges {
            // From the owning side only: the inverse side's change mirrors it. A relationship
            // stored as the destination's foreign key was written with the destinations' rows.
            guard case .joinTable(let table, let mine, let theirs, _, _, isOwner: true) = try storage(of: change) else { continue }
            let source = SQLValue.integer(change.source.primaryKey)
            if !change.removed.isEmpty {
                let sql = "DELETE FROM \(table) WHERE \(mine) = \(p(1)) AND \(theirs) = \(p(2))"
                for member in change.removed { statements.append(SQLSavePlan.Statement(sql: sql, arguments: [source, .integer(member.primaryKey)])) }
            }
            if !change.added.isEmpty {
                let sql = "\(insert) INTO \(table) (\(mine), \(theirs)) VALUES (\(p(1)), \(p(2)))\(ignoring)"
                for member in change.added { statements.append(SQLSavePlan.Statement(sql: sql, arguments: [source, .integer(member.primaryKey)])) }
            }
        }
        let (first, step): (Int64, Int64) = schema.layout == .coreData ? (1024, 1024) : (0, 1)
        for change in changes.relationshipChanges {
            guard let order = change.order else { continue }
            switch try storage(of: change) {
            case .foreignKey(let table, _, let orderColumn?):
                let sql = "UPDATE \(table) SET \(orderColumn) = \(p(1)) WHERE \(dialect.quoted("Z_PK")) = \(p(2))"
                for (index, member) in order.enumerated() {
                    statements.append(
                        SQLSavePlan.Statement(sql: sql, arguments: [.integer(first + Int64(index) * step), .integer(member.primaryKey)])
                    )
                }
            case .joinTable(let table, let mine, let theirs, let orderColumn?, _, _):
                let sql = "UPDATE \(table) SET \(orderColumn) = \(p(1)) WHERE \(mine) = \(p(2)) AND \(theirs) = \(p(3))"
                for (index, member) in order.enumerated() {
                    statements.append(
                        SQLSavePlan.Statement(
                            sql: sql,
                            arguments: [.integer(first + Int64(index) * step), .integer(change.source.primaryKey), .integer(member.primaryKey)]
                        )
                    )
                }
            case .foreignKey, .joinTable:
                throw ObjectGraphError(
                    .persistentStoreOperation,
                    "the store at \(store) keeps no order for \(relationshipName(change.relationship, model: model)); nothing was saved",
                    file: file
                )
            }
        }
        return statements
    }
}
