import Foundation
import Testing

@testable import ObjectGraph
import ObjectGraphPostgres

/// The dialects the compiler tests run in.
enum DialectCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL
    /// PostgreSQL without its diacritic folding function: `[d]` falls back to memory.
    case postgreSQLWithoutDiacriticFolding

    var dialect: any SQLDialect {
        switch self {
        case .sqlite: SQLiteDialect()
        case .postgreSQL: PostgreSQLDialect()
        case .postgreSQLWithoutDiacriticFolding: PostgreSQLDialect(diacriticFolding: false)
        }
    }

    var testDescription: String { rawValue }
}

/// A predicate (and sort) compiled in one dialect, without a database to run it.
enum CompiledQuery: Equatable, CustomStringConvertible {
    /// The SQL of a fetch's WHERE and ORDER BY.
    struct SQL: Equatable {
        /// The to-one joins of the WHERE clause and the sort.
        var joins: [String] = []
        /// ` WHERE …`, or empty.
        var whereClause: String
        /// The ORDER BY terms, before the primary-key tie-breaker.
        var order: [String] = []
        /// The arguments of the WHERE clause and the sort.
        var arguments: [SQLValue] = []
        /// The sort keys the store selects to sort in memory (`order` is then empty).
        var inMemorySortKeys: [String] = []

        /// Joins, WHERE, ORDER BY and sort keys as one text, for the dialect checks.
        var text: String { (joins + [whereClause] + order + inMemorySortKeys).joined(separator: " ") }
    }

    case sql(SQL)
    case inMemory(reason: String)

    var description: String {
        switch self {
        case .sql(let sql): "\(sql.text) — \(sql.arguments)"
        case .inMemory(let reason): "in memory: \(reason)"
        }
    }
}

extension SQLiteStore {
    /// `predicate` and `sorts` over `entity` compiled in `dialect` against this store's layout.
    func compile(
        _ predicate: FetchPredicate?,
        entity: String = "Photo",
        sorts: [FetchSortDescriptor] = [],
        dialect: any SQLDialect
    ) throws -> CompiledQuery {
        let descriptor = FetchDescriptor(
            entity: entity,
            predicate: predicate?.node,
            sortDescriptors: sorts,
            fetchLimit: 0,
            fetchOffset: 0,
            includesSubentities: true
        )
        let plan = try FetchPlan(compiling: descriptor, schema: schema, model: managedObjectModel, dialect: dialect, storeIdentifier: identifier)
        switch plan.filtered {
        case .sql(let clauses):
            let order = try clauses.order.get()
            return .sql(
                CompiledQuery.SQL(
                    joins: order.joins,
                    whereClause: clauses.whereClause,
                    order: order.terms,
                    arguments: order.arguments,
                    inMemorySortKeys: order.inMemory?.keys ?? []
                )
            )
        case .inMemory(let reason):
            return .inMemory(reason: reason)
        case .failed(let error):
            throw error
        }
    }
}

enum DialectCheck {
    /// What is wrong with `sql` (WHERE and ORDER BY) for `dialect`, given `count` arguments:
    /// placeholders of the other database, unquoted PostgreSQL names, SQLite's functions
    /// and null-safe `IS` on PostgreSQL, placeholders not numbered 1…count in order.
    static func problems(_ sql: String, arguments count: Int, dialect: any SQLDialect) -> [String] {
        // String literals the compiler writes ('^(?:', '') are not SQL to check.
        let code = sql.replacing(/'[^']*'/, with: "''")
        var problems: [String] = []
        if dialect is SQLiteDialect {
            if code.contains("$") { problems.append("a PostgreSQL placeholder") }
            if code.contains("\"") { problems.append("a quoted identifier") }
            let placeholders = code.filter { $0 == "?" }.count
            if placeholders != count { problems.append("\(placeholders) placeholders for \(count) arguments") }
        } else {
            if code.contains("?") { problems.append("a SQLite placeholder") }
            for forbidden in ["og_", "OG_", "IFNULL", "COLLATE OG"] where code.contains(forbidden) {
                problems.append("SQLite's \(forbidden)")
            }
            if code.contains(#/ IS (?!NULL|NOT NULL|NOT DISTINCT FROM|DISTINCT FROM)/#) { problems.append("SQLite's null-safe IS") }
            if code.contains(/\b[tj]\d+\.(?!")/) { problems.append("an unquoted column") }
            let tables = code.replacing("DISTINCT FROM", with: "DISTINCT_FROM")
            if tables.contains(/\b(FROM|JOIN) (?!")(?!\()/) { problems.append("an unquoted table") }
            let numbers = code.matches(of: /\$(\d+)/).compactMap { Int($0.output.1) }
            var seen = 0
            for number in numbers {
                if number > seen + 1 { problems.append("$\(number) before $\(seen + 1)") }
                seen = max(seen, number)
            }
            if seen != count { problems.append("placeholders up to $\(seen) for \(count) arguments") }
        }
        return problems
    }
}
