import Foundation

/// Integers against doubles, exactly, in PostgreSQL.
///
/// The evaluator compares an integer with a double exactly (``Value/compare(_:_:options:)``:
/// `2^53 + 1` exceeds the double `2^53`, `Int64.max` is below `9.223372036854775807e18`), as
/// SQLite does. PostgreSQL compares `bigint` with `float8` as `float8`, so neighbouring
/// integers beyond 2^53 become equal; and its `float8 → numeric` cast keeps 15 digits. So the
/// PostgreSQL dialect never lets the server mix the two: a double constant against an
/// integer column is rewritten as integer bounds (or as always/never), an integer constant
/// a double cannot hold against a double column as the doubles on either side of it, and an integer expression
/// against a double expression compares their integer and fractional parts separately.
/// NaN constants compare with nothing (PostgreSQL orders NaN above every number).
extension SQLCompiler {
    /// The attribute types PostgreSQL stores as integers.
    static let integerTypes: Set<AttributeType> = [.boolean, .integer16, .integer32, .integer64]
    /// The attribute types PostgreSQL stores as doubles.
    static let floatingPointTypes: Set<AttributeType> = [.double, .float]

    /// What a number constant means against a column of the other binary kind, in the
    /// column's own kind.
    enum ExactConstant {
        /// The same number, representable in the column's kind.
        case exact(SQLValue)
        /// Not representable: it lies strictly between `below` and `above` (either may be
        /// missing: beyond every value of the column's kind). `nil` bounds are infinite.
        case between(below: SQLValue?, above: SQLValue?)
        /// NaN: equal to nothing and unordered.
        case unordered
    }

    /// `value` against a PostgreSQL column of `type`, when the server would compare the two
    /// inexactly; `nil` when binding it as it is gives the evaluator's answer.
    func exactConstant(_ value: Value, against type: AttributeType?) -> ExactConstant? {
        guard dialect.database == .postgreSQL, let type else { return nil }
        switch value {
        case .double(let double) where Self.integerTypes.contains(type):
            if double.isNaN { return .unordered }
            if double >= 9_223_372_036_854_775_808.0 { return .between(below: .integer(.max), above: nil) }
            if double < -9_223_372_036_854_775_808.0 { return .between(below: nil, above: .integer(.min)) }
            // In range: an integer, or a fraction of magnitude below 2^52 (floor, ceil exact).
            if double == double.rounded(.towardZero) { return .exact(.integer(Int64(double))) }
            return .between(below: .integer(Int64(double.rounded(.down))), above: .integer(Int64(double.rounded(.up))))
        case .double(let double) where Self.floatingPointTypes.contains(type):
            return double.isNaN ? .unordered : nil
        case .int(let integer) where Self.floatingPointTypes.contains(type):
            let nearest = Double(integer)
            switch Value.compare(integer, nearest) {
            case .orderedSame?: return nil  // the server's conversion to float8 is exact
            case .orderedAscending?: return .between(below: .real(nearest.nextDown), above: .real(nearest))
            default: return .between(below: .real(nearest), above: .real(nearest.nextUp))
            }
        default:
            return nil
        }
    }

    /// `sql op constant` for a constant ``exactConstant(_:against:)`` rewrote, with
    /// NSPredicate's nil semantics (`!=` holds for NULL, orderings do not).
    mutating func exactComparison(_ sql: String, _ op: ComparisonOperator, _ constant: ExactConstant) -> String {
        switch constant {
        case .exact(let value):
            return "\(sql) \(dialect.symbol(op)) \(bind(value))"
        case .unordered:
            return op == .notEqual ? dialect.trueLiteral : dialect.falseLiteral
        case .between(let below, let above):
            switch op {
            case .equal: return dialect.falseLiteral
            case .notEqual: return dialect.trueLiteral
            case .lessThan, .lessThanOrEqual:
                guard let below else { return dialect.falseLiteral }
                return "\(sql) <= \(bind(below))"
            case .greaterThan, .greaterThanOrEqual:
                guard let above else { return dialect.falseLiteral }
                return "\(sql) >= \(bind(above))"
            default:
                return dialect.falseLiteral
            }
        }
    }

    /// `left op right` between an integer and a double expression in PostgreSQL, exactly (the
    /// evaluator's order); `nil` for any other pair of types or dialect.
    func exactMixedComparison(
        _ left: String,
        _ leftType: AttributeType?,
        _ op: ComparisonOperator,
        _ right: String,
        _ rightType: AttributeType?
    ) -> String? {
        guard dialect.database == .postgreSQL, let leftType, let rightType else { return nil }
        let integer: String
        let double: String
        let integerOp: ComparisonOperator
        if Self.integerTypes.contains(leftType), Self.floatingPointTypes.contains(rightType) {
            (integer, double, integerOp) = (left, right, op)
        } else if Self.floatingPointTypes.contains(leftType), Self.integerTypes.contains(rightType), let flipped = op.flipped {
            (integer, double, integerOp) = (right, left, flipped)
        } else {
            return nil
        }
        // The order of the integer against the double: -1, 0, 1, or NULL (NULL or NaN).
        let whole = "trunc(\(double))::bigint"
        let order = """
            (CASE WHEN \(integer) IS NULL OR \(double) IS NULL OR \(double) = 'NaN'::float8 THEN NULL \
            WHEN \(double) >= '9223372036854775808'::float8 THEN -1 WHEN \(double) < '-9223372036854775808'::float8 THEN 1 \
            WHEN \(integer) < \(whole) THEN -1 WHEN \(integer) > \(whole) THEN 1 \
            WHEN \(double) > trunc(\(double)) THEN -1 WHEN \(double) < trunc(\(double)) THEN 1 ELSE 0 END)
            """
        let bothNull = "(\(integer) IS NULL AND \(double) IS NULL)"
        switch integerOp {
        case .equal: return "COALESCE(\(order) = 0, \(bothNull))"
        case .notEqual: return "NOT COALESCE(\(order) = 0, \(bothNull))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: return "\(order) \(integerOp.rawValue) 0"
        default: return nil
        }
    }
}
