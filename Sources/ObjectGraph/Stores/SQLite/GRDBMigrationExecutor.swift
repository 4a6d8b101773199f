import Foundation
import GRDB

/// A migration's statements on an SQLite connection, in the caller's transaction: the one
/// place a migration touches GRDB, so the mapping and its custom stages stay store-neutral.
struct GRDBMigrationExecutor: MigrationStatementRunner {
    let db: Database

    func execute(_ sql: String) throws { try db.execute(sql: sql) }

    func integer(_ sql: String) throws -> Int64? { try Int64.fetchOne(db, sql: sql) }

    func tableExists(_ name: String) throws -> Bool { try db.tableExists(name) }

    func execute(_ sql: String, arguments: [SQLValue]) throws {
        try db.execute(sql: sql, arguments: StatementArguments(arguments.databaseValues))
    }

    func fetchAll(_ sql: String, arguments: [SQLValue]) throws -> [[SQLValue]] {
        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.databaseValues)).map { row in
            row.databaseValues.map(\.sqlValue)
        }
    }
}
