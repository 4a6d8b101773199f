import Foundation

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

/// An executor that also binds arguments and returns rows: what a custom migration stage's
/// ``MigrationContext`` runs its handler's statements on. Only the SQLite store's executor is
/// one, which is why custom stages run on SQLite stores only.
protocol MigrationStatementRunner: MigrationSQLExecutor {
    /// Runs a statement that returns no rows, with `arguments` bound to its `?` placeholders.
    func execute(_ sql: String, arguments: [SQLValue]) throws

    /// The rows `sql` returns, each as its column values in their storage class.
    func fetchAll(_ sql: String, arguments: [SQLValue]) throws -> [[SQLValue]]
}
