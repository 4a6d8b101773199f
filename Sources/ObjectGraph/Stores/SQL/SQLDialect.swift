import Foundation

/// The SQL a store's database speaks, as far as the predicate compiler needs to know: quoting,
/// placeholders, truth values, null-safe comparison, limits, and how NSPredicate's string,
/// decimal and aggregate semantics are written.
///
/// Both SQL stores compile with one ``SQLCompiler``; only what this type decides differs.
///
/// | | SQLite | PostgreSQL |
/// | --- | --- | --- |
/// | identifiers | as they are (`t0.ZTITLE`) | quoted (`t0."ZTITLE"`) |
/// | placeholders | `?` | `$1`, `$2`, … |
/// | truth, `NOT` | `1`/`0`, `NOT IFNULL(p, 0)` | `TRUE`/`FALSE`, `NOT COALESCE(p, FALSE)` |
/// | null-safe `==`/`!=` | `IS`, `IS NOT` | `IS NOT DISTINCT FROM`, `IS DISTINCT FROM` |
/// | `[c]`, `[d]` | `og_fold` (Swift, registered on the connection) | `objectgraph_fold_case()`, `objectgraph_fold_diacritics()` (Foundation's folding, created in the schema) |
/// | BEGINSWITH, ENDSWITH, CONTAINS, LIKE | `og_string` | `LIKE` with an escaped pattern, `strpos` |
/// | MATCHES | `og_string` (ICU) | `~` anchored to the whole string, for patterns PostgreSQL reads as ICU does |
/// | string order | binary (= Unicode scalars) | `COLLATE "C"` (= Unicode scalars in UTF-8) |
/// | `caseInsensitiveCompare:` | a collation calling the evaluator | `objectgraph_fold_case()` in `"C"` order |
/// | localized sorts | collations calling Foundation | in memory, by the store |
/// | integer against double | SQLite's exact comparison | integer bounds, or integer and fraction compared apart |
/// | sort nulls | first ascending (SQLite's own) | `NULLS FIRST` / `NULLS LAST` said |
/// | decimals | text with `OG_DECIMAL` collation, `og_numcmp` | `NUMERIC` |
/// | `@sum`, `@avg` | `og_sum`, `og_avg` | `COALESCE(SUM(x), 0)`, `AVG(x)` |
/// | no limit | `LIMIT -1` | no `LIMIT` |
///
/// Where PostgreSQL cannot say what the evaluator means, the compiler throws
/// ``NeedsInMemoryEvaluation`` and the fetch evaluates the predicate in memory: a `[d]`
/// comparison without the diacritic folding function, `MATCHES[c]`, `MATCHES[d]`, `MATCHES` with a
/// key-path pattern or with ICU syntax PostgreSQL reads otherwise (`\p{L}`, `\w`, `(?i)`,
/// `$`, …), `LIKE` with a key-path pattern. Sorts by the localized selectors are applied by
/// the PostgreSQL store in memory (``FetchPlan/InMemorySort``): Foundation's collation is
/// not the server's.
///
/// Known difference on PostgreSQL: in a run of several combining marks after a non-Latin
/// letter Foundation's `[d]` keeps some marks, the store's function none (see
/// ObjectGraphPostgres's `PostgreSQLFolding`).
package struct SQLDialect: Sendable, Hashable {
    /// The ICU collation a PostgreSQL store creates in its schema for `localizedStandardCompare:`
    /// sorts: digits compare as numbers.
    package static let postgreSQLNumericCollation = "objectgraph_numeric"
    /// The case folding function a PostgreSQL store creates in its schema for `[c]`
    /// (ObjectGraphPostgres's `PostgreSQLFolding` defines it).
    package static let postgreSQLCaseFoldingFunction = "objectgraph_fold_case"
    /// The diacritic folding function a PostgreSQL store creates in its schema for `[d]`
    /// (ObjectGraphPostgres's `PostgreSQLFolding` defines it).
    package static let postgreSQLDiacriticFoldingFunction = "objectgraph_fold_diacritics"

    /// The database a dialect is for.
    package enum Database: Sendable, Hashable {
        case sqlite
        case postgreSQL
    }

    /// The database this dialect is for.
    package let database: Database
    /// Whether the store's diacritic folding function (``postgreSQLDiacriticFoldingFunction``)
    /// is there for `[d]`; without it `[d]` comparisons are evaluated in memory. SQLite folds
    /// diacritics itself.
    package let foldsDiacritics: Bool

    /// SQLite, with ObjectGraph's functions and collations registered on the connection.
    package static let sqlite = SQLDialect(database: .sqlite, foldsDiacritics: false)

    /// PostgreSQL; `diacriticFolding` says whether `[d]` can use the store's diacritic folding
    /// function (the PostgreSQL store creates it with its schema).
    package static func postgreSQL(diacriticFolding: Bool = true) -> SQLDialect {
        SQLDialect(database: .postgreSQL, foldsDiacritics: diacriticFolding)
    }

    /// `identifier` as the database reads it unchanged: PostgreSQL folds unquoted names to
    /// lower case, so its names are quoted; SQLite's are the store's own (`Z_PK`, `ZPHOTO`).
    package func quoted(_ identifier: String) -> String {
        switch database {
        case .sqlite: identifier
        case .postgreSQL: "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// The database's name, as a refusal names what cannot express a predicate.
    package var databaseName: String {
        switch database {
        case .sqlite: "SQLite"
        case .postgreSQL: "PostgreSQL"
        }
    }

    /// `alias.column`, the column quoted.
    package func column(_ alias: String, _ name: String) -> String {
        alias + "." + quoted(name)
    }

    /// The placeholder of the `index`th argument (1-based).
    package func placeholder(_ index: Int) -> String {
        switch database {
        case .sqlite: "?"
        case .postgreSQL: "$\(index)"
        }
    }

    /// The test that a column is one of `count` keys bound from the first placeholder:
    /// PostgreSQL binds them as one `bigint[]` (`= ANY($1)`), SQLite one placeholder each
    /// (`IN (?, ?, …)`, in chunks the store chooses).
    package func keyMembership(count: Int) -> String {
        switch database {
        case .sqlite: "IN (" + (count > 0 ? String(repeating: "?, ", count: count - 1) + "?" : "") + ")"
        case .postgreSQL: "= ANY(\(placeholder(1)))"
        }
    }

    /// A condition that always holds.
    var trueLiteral: String { database == .sqlite ? "1" : "TRUE" }
    /// A condition that never holds.
    var falseLiteral: String { database == .sqlite ? "0" : "FALSE" }

    /// `NOT condition`, where an unknown (NULL) condition counts as false, as in NSPredicate.
    func not(_ condition: String) -> String {
        switch database {
        case .sqlite: "NOT IFNULL((\(condition)), 0)"
        case .postgreSQL: "NOT COALESCE((\(condition)), FALSE)"
        }
    }

    /// `IFNULL(value, otherwise)`.
    func ifNull(_ value: String, _ otherwise: String) -> String {
        switch database {
        case .sqlite: "IFNULL(\(value), \(otherwise))"
        case .postgreSQL: "COALESCE(\(value), \(otherwise))"
        }
    }

    /// The null-safe equality operator (NULL equals NULL, never a value).
    var isOperator: String { database == .sqlite ? "IS" : "IS NOT DISTINCT FROM" }
    /// The null-safe inequality operator (NULL differs from every value).
    var isNotOperator: String { database == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }

    /// The SQL operator of an ordering or equality comparison; `!=` is null-safe.
    func symbol(_ op: ComparisonOperator) -> String {
        switch op {
        case .equal: "="
        case .notEqual: isNotOperator
        default: op.rawValue
        }
    }

    /// ` ASC` or ` DESC`, and where NULLs go: first when ascending, as in SQLite and in memory.
    func direction(ascending: Bool) -> String {
        switch database {
        case .sqlite: ascending ? "ASC" : "DESC"
        case .postgreSQL: ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
        }
    }

    /// ` LIMIT … OFFSET …` for a fetch's limit (`0`: none) and offset, with its arguments,
    /// numbered from `firstPlaceholder`; empty when there is neither.
    func limitClause(limit: Int, offset: Int, firstPlaceholder: Int) -> (sql: String, arguments: [SQLValue]) {
        guard limit > 0 || offset > 0 else { return ("", []) }
        switch database {
        case .sqlite:
            let first = placeholder(firstPlaceholder)
            let second = placeholder(firstPlaceholder + 1)
            return (" LIMIT \(first) OFFSET \(second)", [.integer(limit > 0 ? Int64(limit) : -1), .integer(Int64(offset))])
        case .postgreSQL:
            if limit == 0 { return (" OFFSET \(placeholder(firstPlaceholder))", [.integer(Int64(offset))]) }
            return (
                " LIMIT \(placeholder(firstPlaceholder)) OFFSET \(placeholder(firstPlaceholder + 1))",
                [.integer(Int64(limit)), .integer(Int64(offset))]
            )
        }
    }
}
