package import Foundation
package import ObjectGraph

/// PostgreSQL's ``SQLDialect``: what the shared compiler and layout write differently for the
/// PostgreSQL store.
///
/// | | PostgreSQL |
/// | --- | --- |
/// | identifiers | quoted (`t0."ZTITLE"`) |
/// | placeholders | `$1`, `$2`, … |
/// | truth, `NOT` | `TRUE`/`FALSE`, `NOT COALESCE(p, FALSE)` |
/// | null-safe `==`/`!=` | `IS NOT DISTINCT FROM`, `IS DISTINCT FROM` |
/// | `[c]`, `[d]` | `objectgraph_fold_case()`, `objectgraph_fold_diacritics()` (Foundation's folding, created in the schema: ``PostgreSQLFolding``) |
/// | BEGINSWITH, ENDSWITH, CONTAINS, LIKE | `LIKE` with an escaped pattern, `strpos` |
/// | MATCHES | `~` anchored to the whole string, for patterns PostgreSQL reads as ICU does |
/// | string order | `COLLATE "C"` (= Unicode scalars in UTF-8) |
/// | `caseInsensitiveCompare:` | `objectgraph_fold_case()` in `"C"` order |
/// | localized sorts | in memory, by the store |
/// | integer against double | integer bounds, or integer and fraction compared apart |
/// | sort nulls | `NULLS FIRST` / `NULLS LAST` said |
/// | decimals | `NUMERIC` |
/// | `@sum`, `@avg` | `COALESCE(SUM(x), 0)`, `AVG(x)` |
/// | no limit | no `LIMIT` |
///
/// Evaluated in memory instead (``NeedsInMemoryEvaluation``): a `[d]` comparison without the
/// diacritic folding function, `MATCHES[c]`, `MATCHES[d]`, `MATCHES` with a key-path pattern or
/// with ICU syntax PostgreSQL reads otherwise (`\p{L}`, `\w`, `(?i)`, `$`, …), `LIKE` with a
/// key-path pattern. Sorts by the localized selectors are applied by the store in memory:
/// Foundation's collation is not the server's.
///
/// Known difference: in a run of several combining marks after a non-Latin letter
/// Foundation's `[d]` keeps some marks, the store's function none (see ``PostgreSQLFolding``).
package struct PostgreSQLDialect: SQLDialect {
    /// The ICU collation the store creates in its schema for `localizedStandardCompare:` sorts:
    /// digits compare as numbers.
    package static let numericCollation = "objectgraph_numeric"
    /// The case folding function the store creates in its schema for `[c]` (``PostgreSQLFolding``).
    package static let caseFoldingFunction = "objectgraph_fold_case"
    /// The diacritic folding function the store creates in its schema for `[d]` (``PostgreSQLFolding``).
    package static let diacriticFoldingFunction = "objectgraph_fold_diacritics"

    /// Whether the store's diacritic folding function (``diacriticFoldingFunction``) is there
    /// for `[d]`; without it `[d]` comparisons are evaluated in memory.
    package let foldsDiacritics: Bool

    /// PostgreSQL; `diacriticFolding` says whether `[d]` can use the store's diacritic folding
    /// function (the store creates it with its schema).
    package init(diacriticFolding: Bool = true) {
        foldsDiacritics = diacriticFolding
    }

    package var databaseName: String { "PostgreSQL" }

    /// PostgreSQL folds unquoted names to lower case: every name is quoted.
    package func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    package func placeholder(_ index: Int) -> String { "$\(index)" }

    /// The keys bound as one `bigint[]`.
    package func keyMembership(count: Int) -> String { "= ANY(\(placeholder(1)))" }

    package var trueLiteral: String { "TRUE" }
    package var falseLiteral: String { "FALSE" }
    package func not(_ condition: String) -> String { "NOT COALESCE((\(condition)), FALSE)" }
    package func ifNull(_ value: String, _ otherwise: String) -> String { "COALESCE(\(value), \(otherwise))" }
    package var isOperator: String { "IS NOT DISTINCT FROM" }
    package var isNotOperator: String { "IS DISTINCT FROM" }
    package func direction(ascending: Bool) -> String { ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST" }

    /// No `LIMIT` for no limit.
    package func limitClause(limit: Int, offset: Int, firstPlaceholder: Int) -> (sql: String, arguments: [SQLValue]) {
        guard limit > 0 || offset > 0 else { return ("", []) }
        if limit == 0 { return (" OFFSET \(placeholder(firstPlaceholder))", [.integer(Int64(offset))]) }
        return (
            " LIMIT \(placeholder(firstPlaceholder)) OFFSET \(placeholder(firstPlaceholder + 1))",
            [.integer(Int64(limit)), .integer(Int64(offset))]
        )
    }

    /// The store's diacritic and case folding functions, diacritics first, as Foundation folds.
    package func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        let unmarked = options.contains(.diacriticInsensitive) ? "\(Self.diacriticFoldingFunction)(\(sql))" : sql
        return options.contains(.caseInsensitive) ? "\(Self.caseFoldingFunction)(\(unmarked))" : unmarked
    }

    package func requireFolding(_ options: ComparisonOptions) throws {
        if options.contains(.diacriticInsensitive), !foldsDiacritics {
            throw NeedsInMemoryEvaluation(reason: "[d] needs the store's diacritic folding function")
        }
    }

    /// A constant's placeholder is folded in SQL, as the column.
    package var foldsConstantsBeforeBinding: Bool { false }

    /// Decimals are `NUMERIC` already.
    package func decimalOrdered(_ sql: String) -> String { sql }

    package func textOrdered(_ sql: String) -> String { "\(sql) COLLATE \"C\"" }

    package func numericCompare(_ left: String, _ symbol: String, _ right: String) -> String {
        "CAST(\(left) AS NUMERIC) \(symbol) CAST(\(right) AS NUMERIC)"
    }

    package func mixedDecimalComparison(_ left: String, _ op: ComparisonOperator, _ right: String) -> String {
        numericCompare(left, op == .equal ? isOperator : symbol(op), right)
    }

    /// The store's full case folding in Unicode scalar order for `caseInsensitiveCompare:`
    /// (the evaluator's order exactly), Unicode scalar order (`"C"`) for `compare:`. (The
    /// localized selectors are sorted in memory: see ``sortsInMemory(_:)``.)
    package func sortKey(_ sql: String, _ selector: FetchSortDescriptor.Selector) -> String {
        switch selector {
        case .caseInsensitiveCompare: "\(Self.caseFoldingFunction)(\(sql)) COLLATE \"C\""
        case .localizedCompare: "\(sql) COLLATE \"und-x-icu\""
        case .localizedCaseInsensitiveCompare: "lower(\(sql)) COLLATE \"und-x-icu\""
        case .localizedStandardCompare: "lower(\(sql)) COLLATE \"\(Self.numericCollation)\""
        default: "\(sql) COLLATE \"C\""
        }
    }

    /// `localizedCompare:`, `localizedCaseInsensitiveCompare:` and `localizedStandardCompare:`:
    /// Foundation compares with its own ICU and the current locale, and no collation of the
    /// server (ICU's root, another ICU version, the database's libc locale) is known to give
    /// the same order for every pair of strings, so the store reads the keys and orders with
    /// ``FetchSortDescriptor``'s comparison itself.
    package func sortsInMemory(_ selector: FetchSortDescriptor.Selector) -> Bool {
        selector == .localizedCompare || selector == .localizedCaseInsensitiveCompare || selector == .localizedStandardCompare
    }

    /// `SUM`, exact for integers and decimals, 0 for nothing.
    package func sum(_ value: String, decimal: Bool) -> String { "COALESCE(SUM(\(value)), 0)" }

    package func average(_ value: String) -> String { "AVG(\(value))" }

    /// Integers in `numeric`, where PostgreSQL's `bigint` would raise an error on overflow.
    package func arithmetic(_ left: String, _ op: ArithmeticOperator, _ right: String, integers: Bool) -> String {
        if op == .divide {
            return "(CAST(\(left) AS DOUBLE PRECISION) / NULLIF(CAST(\(right) AS DOUBLE PRECISION), 0))"
        }
        return integers
            ? "(CAST(\(left) AS NUMERIC) \(op.rawValue) CAST(\(right) AS NUMERIC))"
            : "(CAST(\(left) AS DOUBLE PRECISION) \(op.rawValue) CAST(\(right) AS DOUBLE PRECISION))"
    }

    /// The statement's start, in seconds since 2001-01-01 UTC (978307200 after 1970's).
    package var now: String { "(date_part('epoch', statement_timestamp()) - 978307200)" }

    /// PostgreSQL refuses to compare text with a number (SQLite answers).
    package var comparesTypedValuesOnly: Bool { true }

    /// `jsonb_build_object` without its NULL members, as text.
    package func jsonObjectText(_ pairs: [(name: String, value: String)]) -> String {
        let members = pairs.map { "'\($0.name.replacingOccurrences(of: "'", with: "''"))', \($0.value)" }.joined(separator: ", ")
        return "jsonb_strip_nulls(jsonb_build_object(\(members)))::text"
    }

    /// The bytes of `bytea`'s text form, `\x0a1b…`.
    package func bytes(inJSONText hex: String) -> Data? {
        guard hex.hasPrefix("\\x") else { return nil }
        let digits = Array(hex.utf8.dropFirst(2))
        guard digits.count % 2 == 0 else { return nil }
        var data = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            data.append(byte)
            index += 2
        }
        return data
    }

    /// The type for an attribute type's storage form.
    package func columnType(_ type: AttributeType) -> String {
        switch type {
        case .string, .uri: "TEXT"
        case .boolean, .integer16, .integer32, .integer64: "BIGINT"
        case .double, .float, .date: "DOUBLE PRECISION"
        case .decimal: "NUMERIC"
        case .binaryData, .uuid, .transformable: "BYTEA"
        }
    }

    package var insertIgnoringConflicts: (insert: String, ignoring: String) { ("INSERT", " ON CONFLICT DO NOTHING") }

    /// Bytes as `bytea` and infinities by name (PostgreSQL's `9e999` is a numeric overflow,
    /// `X'…'` a bit string).
    package func literal(_ value: Value) -> String? {
        switch value.sqlValue {
        case .real(let double) where !double.isFinite: double > 0 ? "'Infinity'::float8" : "'-Infinity'::float8"
        case .blob(let data): "'\\x" + data.map { String(format: "%02X", $0) }.joined() + "'::bytea"
        default: nil
        }
    }
}
