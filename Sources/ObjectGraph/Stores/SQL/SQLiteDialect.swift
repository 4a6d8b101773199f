package import Foundation

/// SQLite's ``SQLDialect``, with ObjectGraph's functions and collations registered on the
/// connection (``SQLiteFunctions``): the evaluator's semantics are Swift code SQLite calls.
///
/// | | SQLite |
/// | --- | --- |
/// | identifiers | as they are (`t0.ZTITLE`) |
/// | placeholders | `?` |
/// | truth, `NOT` | `1`/`0`, `NOT IFNULL(p, 0)` |
/// | null-safe `==`/`!=` | `IS`, `IS NOT` |
/// | `[c]`, `[d]` | `og_fold` (the evaluator's folding) |
/// | BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES | `og_string` (MATCHES with ICU) |
/// | string order | binary (= Unicode scalars) |
/// | `caseInsensitiveCompare:`, localized sorts | collations calling the evaluator, Foundation |
/// | integer against double | SQLite's own exact comparison |
/// | sort nulls | first ascending (SQLite's own) |
/// | decimals | text with `OG_DECIMAL` collation, `og_numcmp` |
/// | `@sum`, `@avg` | `og_sum`, `og_avg` |
/// | no limit | `LIMIT -1` |
package struct SQLiteDialect: SQLDialect {
    package init() {}

    package var databaseName: String { "SQLite" }

    /// SQLite's names are the store's own (`Z_PK`, `ZPHOTO`): never quoted.
    package func quoted(_ identifier: String) -> String { identifier }

    package func placeholder(_ index: Int) -> String { "?" }

    /// One placeholder per key (`IN (?, ?, …)`, in chunks the store chooses).
    package func keyMembership(count: Int) -> String {
        "IN (" + (count > 0 ? String(repeating: "?, ", count: count - 1) + "?" : "") + ")"
    }

    package var trueLiteral: String { "1" }
    package var falseLiteral: String { "0" }
    package func not(_ condition: String) -> String { "NOT IFNULL((\(condition)), 0)" }
    package func ifNull(_ value: String, _ otherwise: String) -> String { "IFNULL(\(value), \(otherwise))" }
    package var isOperator: String { "IS" }
    package var isNotOperator: String { "IS NOT" }
    package func direction(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }

    /// `LIMIT -1` stands for no limit when there is an offset.
    package func limitClause(limit: Int, offset: Int, firstPlaceholder: Int) -> (sql: String, arguments: [SQLValue]) {
        guard limit > 0 || offset > 0 else { return ("", []) }
        return (" LIMIT ? OFFSET ?", [.integer(limit > 0 ? Int64(limit) : -1), .integer(Int64(offset))])
    }

    /// `og_string`, the evaluator's own string operators.
    package func stringOperator(
        _ op: ComparisonOperator, _ left: SQLStringOperand, _ right: SQLStringOperand, _ options: ComparisonOptions, bind: (SQLValue) -> String
    ) throws -> String {
        let lhs = left.sql(bind: bind)
        let rhs = right.sql(bind: bind)
        return "\(SQLiteFunctions.stringOperator)('\(op.rawValue)', \(lhs), \(rhs), \(options.rawValue))"
    }

    /// `og_fold`, the evaluator's folding.
    package func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        "\(SQLiteFunctions.fold)(\(sql), \(options.rawValue))"
    }

    package var foldsConstantsBeforeBinding: Bool { true }

    /// Decimals are text, ordered by the `OG_DECIMAL` collation.
    package func decimalOrdered(_ sql: String) -> String { "\(sql) COLLATE \(SQLiteFunctions.decimalCollation)" }

    /// SQLite's binary order is Unicode scalar order already.
    package func textOrdered(_ sql: String) -> String { sql }

    /// `og_numcmp`, the evaluator's comparison.
    package func numericCompare(_ left: String, _ symbol: String, _ right: String) -> String {
        "\(SQLiteFunctions.numericCompare)(\(left), \(right)) \(symbol) 0"
    }

    package func mixedDecimalComparison(_ left: String, _ op: ComparisonOperator, _ right: String) -> String {
        let compared = "\(SQLiteFunctions.numericCompare)(\(left), \(right))"
        switch op {
        case .equal: return "IFNULL(\(compared) = 0, \(left) IS NULL AND \(right) IS NULL)"
        case .notEqual: return "NOT IFNULL(\(compared) = 0, \(left) IS NULL AND \(right) IS NULL)"
        default: return "\(compared) \(symbol(op)) 0"
        }
    }

    /// The registered collations (see ``SQLiteFunctions/collation(for:)``).
    package func sortKey(_ sql: String, _ selector: FetchSortDescriptor.Selector) -> String {
        guard let collation = SQLiteFunctions.collation(for: selector) else { return sql }
        return "\(sql) COLLATE \(collation)"
    }

    /// Every selector has a collation calling the evaluator or Foundation.
    package func sortsInMemory(_ selector: FetchSortDescriptor.Selector) -> Bool { false }

    /// `og_sum`: exact integers, a double on overflow; of a decimal column, decimal text, even
    /// 0, the sum of nothing.
    package func sum(_ value: String, decimal: Bool) -> String {
        decimal ? "CAST(\(SQLiteFunctions.sum)(\(value)) AS TEXT)" : "\(SQLiteFunctions.sum)(\(value))"
    }

    package func average(_ value: String) -> String { "\(SQLiteFunctions.average)(\(value))" }

    /// SQLite's integer arithmetic goes on in floating point where it overflows, as the
    /// evaluator's does.
    package func arithmetic(_ left: String, _ op: ArithmeticOperator, _ right: String, integers: Bool) -> String {
        op == .divide ? "(CAST(\(left) AS REAL) / NULLIF(\(right), 0))" : "(\(left) \(op.rawValue) \(right))"
    }

    /// The Julian day of the reference date is 2451910.5.
    package var now: String { "((julianday('now') - 2451910.5) * 86400.0)" }

    /// SQLite compares any storage classes, as the evaluator's answers expect.
    package var comparesTypedValuesOnly: Bool { false }

    /// `json_object` without its NULL members (SQLite's JSON functions).
    package func jsonObjectText(_ pairs: [(name: String, value: String)]) -> String {
        let members = pairs.map { "'\($0.name.replacingOccurrences(of: "'", with: "''"))', \($0.value)" }.joined(separator: ", ")
        return "(SELECT json_group_object(key, value) FROM json_each(json_object(\(members))) WHERE type <> 'null')"
    }

    /// SQLite's `json_object` refuses blobs: a tombstone keeps none this way.
    package func bytes(inJSONText text: String) -> Data? { nil }

    /// The column types of ObjectGraph's own SQLite layout (decimals as text in numeric order).
    package func columnType(_ type: AttributeType) -> String {
        StoreSchema.columnDefinition(type, layout: .objectGraph)
    }

    package var insertIgnoringConflicts: (insert: String, ignoring: String) { ("INSERT OR IGNORE", "") }
}
