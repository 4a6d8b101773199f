package import Foundation

/// The SQL a store's database speaks, as far as the engine needs to know: quoting,
/// placeholders, truth values, null-safe comparison, limits, how NSPredicate's string, decimal
/// and aggregate semantics are written, column types and migration literals.
///
/// The engine (``SQLCompiler``, ``SQLStoreLayout``, ``MigrationMapping``) writes every
/// statement through a dialect and never asks which database it is for; each store brings its
/// own. ObjectGraph defines SQLite's (``SQLiteDialect``); a store in another module defines
/// its own (ObjectGraphPostgres's `PostgreSQLDialect`, with the folding functions it creates
/// on the server).
///
/// Where a dialect cannot say what the evaluator means it throws ``NeedsInMemoryEvaluation``
/// and the fetch evaluates the predicate in memory; a sort it cannot write as the evaluator
/// orders is marked by ``sortsInMemory(_:)`` and applied by the store (``FetchPlan/InMemorySort``).
package protocol SQLDialect: Sendable {
    /// The database's name, as a refusal names what cannot express a predicate.
    var databaseName: String { get }

    /// `identifier` as the database reads it unchanged.
    func quoted(_ identifier: String) -> String
    /// The placeholder of the `index`th argument (1-based).
    func placeholder(_ index: Int) -> String
    /// The test that a column is one of `count` keys bound from the first placeholder.
    func keyMembership(count: Int) -> String

    /// A condition that always holds.
    var trueLiteral: String { get }
    /// A condition that never holds.
    var falseLiteral: String { get }
    /// `NOT condition`, where an unknown (NULL) condition counts as false, as in NSPredicate.
    func not(_ condition: String) -> String
    /// `value`, or `otherwise` when it is NULL.
    func ifNull(_ value: String, _ otherwise: String) -> String
    /// The null-safe equality operator (NULL equals NULL, never a value).
    var isOperator: String { get }
    /// The null-safe inequality operator (NULL differs from every value).
    var isNotOperator: String { get }
    /// `ASC` or `DESC`, and where NULLs go: first when ascending, as in memory.
    func direction(ascending: Bool) -> String
    /// ` LIMIT … OFFSET …` for a fetch's limit (`0`: none) and offset, with its arguments,
    /// numbered from `firstPlaceholder`; empty when there is neither.
    func limitClause(limit: Int, offset: Int, firstPlaceholder: Int) -> (sql: String, arguments: [SQLValue])

    /// `left op right` for BEGINSWITH, ENDSWITH, CONTAINS (and IN on strings), LIKE and
    /// MATCHES with `[c]`/`[d]` `options` (without `[n]`): true, false, or NULL when a side is
    /// NULL. `bind` binds a value and returns its placeholder.
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` where the dialect cannot say it.
    func stringOperator(
        _ op: ComparisonOperator,
        _ left: SQLStringOperand,
        _ right: SQLStringOperand,
        _ options: ComparisonOptions,
        bind: (SQLValue) -> String
    ) throws -> String
    /// `sql` folded by `[c]`/`[d]` `options` (not empty, without `[n]`) as the evaluator folds.
    func fold(_ sql: String, _ options: ComparisonOptions) -> String
    /// - Throws: ``NeedsInMemoryEvaluation`` when the dialect cannot fold as `options` ask.
    func requireFolding(_ options: ComparisonOptions) throws
    /// Whether a text constant compared with `[c]`/`[d]` is folded once in Swift before it is
    /// bound (`true`), or its placeholder folded in SQL as the column is (`false`).
    var foldsConstantsBeforeBinding: Bool { get }
    /// A decimal expression in numeric order.
    func decimalOrdered(_ sql: String) -> String
    /// A text expression in Unicode scalar order, whatever the database's collation.
    func textOrdered(_ sql: String) -> String
    /// `left symbol right` between numbers as the evaluator compares them (exactly, decimals
    /// included).
    func numericCompare(_ left: String, _ symbol: String, _ right: String) -> String
    /// `left op right` (an equality or ordering, `!=` null-safe) between a decimal expression
    /// and another number expression of another type, as the evaluator compares them.
    func mixedDecimalComparison(_ left: String, _ op: ComparisonOperator, _ right: String) -> String
    /// A string sort key for `selector`.
    func sortKey(_ sql: String, _ selector: FetchSortDescriptor.Selector) -> String
    /// Whether a string sort by `selector` is applied in memory by the store: no order the
    /// database writes is known to be the evaluator's.
    func sortsInMemory(_ selector: FetchSortDescriptor.Selector) -> Bool
    /// `@sum` of `value` as the evaluator computes it (`decimal`: of a decimal column).
    func sum(_ value: String, decimal: Bool) -> String
    /// `@avg` of `value` (NULL for nothing, as in memory).
    func average(_ value: String) -> String
    /// `left op right` for `+`, `-`, `*` and `/`, as the evaluator computes it: `integers`
    /// exact, going on in floating point where the result overflows; a division in floating
    /// point, NULL for a divisor of zero.
    func arithmetic(_ left: String, _ op: ArithmeticOperator, _ right: String, integers: Bool) -> String
    /// The current time as the stores keep dates (seconds since 2001-01-01 UTC), read by the
    /// database when the statement runs (a cached plan stays current).
    var now: String { get }

    /// Whether the database compares values of the same kind only: then a constant gets its
    /// value's type, and a comparison between expressions of different storage classes is
    /// written as the evaluator answers it (never equal, never ordered).
    var comparesTypedValuesOnly: Bool { get }
    /// `value` against a column of `type`, when the database would compare the two
    /// inexactly; `nil` when binding it as it is gives the evaluator's answer.
    func exactConstant(_ value: Value, against type: AttributeType?) -> SQLExactConstant?
    /// `left op right` between expressions of `leftType` and `rightType`, exactly (the
    /// evaluator's order), where the database would compare them inexactly; `nil` otherwise.
    func exactMixedComparison(
        _ left: String,
        _ leftType: AttributeType?,
        _ op: ComparisonOperator,
        _ right: String,
        _ rightType: AttributeType?
    ) -> String?
    /// `sql op decimal` for a column of floating-point `type` and a decimal that is not an
    /// integer, where the database's conversion would order them otherwise than the evaluator
    /// does; `nil` to compare with ``numericCompare(_:_:_:)``. `bind` binds a double.
    func decimalAgainstDouble(_ sql: String, _ op: ComparisonOperator, _ decimal: Decimal, bind: (Double) -> String) -> String?

    /// A JSON object of `pairs` (a name, and the SQL of its value), its NULL values left out,
    /// as text: how a store records the values a delete tombstone keeps.
    func jsonObjectText(_ pairs: [(name: String, value: String)]) -> String
    /// The bytes a JSON value of ``jsonObjectText(_:)`` holds as `text`, or `nil`.
    func bytes(inJSONText text: String) -> Data?

    /// The column type of an attribute type's storage form, for the tables a store creates.
    func columnType(_ type: AttributeType) -> String
    /// The `INSERT` keyword and the clause after the statement that make an insert skip rows
    /// that conflict with a key.
    var insertIgnoringConflicts: (insert: String, ignoring: String) { get }
    /// `value` as a literal, where the dialect spells it otherwise than standard SQL (`nil`:
    /// the standard literal).
    func literal(_ value: Value) -> String?
}

/// One side of a string operator: SQL (with its attribute type, when known), or a constant not
/// bound yet (a dialect may rewrite it into a pattern before binding it).
package enum SQLStringOperand {
    case expression(String, AttributeType?)
    case constant(String)

    /// The operand as SQL: its expression, or the placeholder `bind` gives its constant.
    package func sql(bind: (SQLValue) -> String) -> String {
        switch self {
        case .expression(let sql, _): sql
        case .constant(let text): bind(.text(text))
        }
    }
}

/// What a number constant means against a column of the other binary kind, in the column's
/// own kind (see ``SQLDialect/exactConstant(_:against:)``).
package enum SQLExactConstant {
    /// The same number, representable in the column's kind.
    case exact(SQLValue)
    /// Not representable: it lies strictly between `below` and `above` (either may be
    /// missing: beyond every value of the column's kind). `nil` bounds are infinite.
    case between(below: SQLValue?, above: SQLValue?)
    /// NaN: equal to nothing and unordered.
    case unordered
}

// What a dialect whose database folds, compares numbers and writes literals as the evaluator
// does (SQLite's, with ObjectGraph's functions) needs no code for.
extension SQLDialect {
    /// Folds whatever the evaluator folds.
    package func requireFolding(_ options: ComparisonOptions) throws {}

    /// Compares integers with doubles exactly.
    package func exactConstant(_ value: Value, against type: AttributeType?) -> SQLExactConstant? { nil }

    /// Compares integer and double expressions exactly.
    package func exactMixedComparison(_ l: String, _ lType: AttributeType?, _ op: ComparisonOperator, _ r: String, _ rType: AttributeType?) -> String? {
        nil
    }

    /// Compares a double with a decimal as the evaluator does.
    package func decimalAgainstDouble(_ sql: String, _ op: ComparisonOperator, _ decimal: Decimal, bind: (Double) -> String) -> String? {
        nil
    }

    /// Reads standard SQL literals.
    package func literal(_ value: Value) -> String? { nil }
}

extension SQLDialect {
    /// `alias.column`, the column quoted.
    package func column(_ alias: String, _ name: String) -> String {
        alias + "." + quoted(name)
    }

    /// The SQL operator of an ordering or equality comparison; `!=` is null-safe.
    package func symbol(_ op: ComparisonOperator) -> String {
        switch op {
        case .equal: "="
        case .notEqual: isNotOperator
        default: op.rawValue
        }
    }
}
