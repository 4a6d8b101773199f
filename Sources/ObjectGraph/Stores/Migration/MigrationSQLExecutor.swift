import Foundation
import GRDB

/// Where a migration's statements run: the SQLite store's connection, or another SQL store's
/// (the PostgreSQL store's, inside its one transaction).
///
/// ``MigrationMapping`` writes every statement in its ``SQLDialect``; the executor only runs
/// them, so both stores migrate with one inference and one copy of the data.
package protocol MigrationSQLExecutor {
    /// Runs a statement that returns no rows.
    func execute(_ sql: String) throws

    /// The first column of the first row `sql` returns, as an integer; `nil` for no row or NULL.
    func integer(_ sql: String) throws -> Int64?

    /// Whether the table `name` (as the store names it, unquoted) exists.
    func tableExists(_ name: String) throws -> Bool
}

/// A migration's statements on an SQLite connection, in the caller's transaction.
struct GRDBMigrationExecutor: MigrationSQLExecutor {
    let db: Database

    func execute(_ sql: String) throws { try db.execute(sql: sql) }

    func integer(_ sql: String) throws -> Int64? { try Int64.fetchOne(db, sql: sql) }

    func tableExists(_ name: String) throws -> Bool { try db.tableExists(name) }
}
