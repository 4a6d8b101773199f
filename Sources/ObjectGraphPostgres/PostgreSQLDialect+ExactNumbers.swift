package import Foundation
package import ObjectGraph

/// Integers against doubles, exactly.
///
/// The evaluator compares an integer with a double exactly (`Value.compare`: `2^53 + 1`
/// exceeds the double `2^53`, `Int64.max` is below `9.223372036854775807e18`), as SQLite does.
/// PostgreSQL compares `bigint` with `float8` as `float8`, so neighbouring integers beyond 2^53
/// become equal; and its `float8 → numeric` cast keeps 15 digits. So the dialect never lets the
/// server mix the two: a double constant against an integer column is rewritten as integer
/// bounds (or as always/never), an integer constant a double cannot hold against a double
/// column as the doubles on either side of it, and an integer expression against a double
/// expression compares their integer and fractional parts separately. NaN constants compare
/// with nothing (PostgreSQL orders NaN above every number).
extension PostgreSQLDialect {
    /// The attribute types PostgreSQL stores as integers.
    static let integerTypes: Set<AttributeType> = [.boolean, .integer16, .integer32, .integer64]
    /// The attribute types PostgreSQL stores as doubles.
    static let floatingPointTypes: Set<AttributeType> = [.double, .float]

    package func exactConstant(_ value: Value, against type: AttributeType?) -> SQLExactConstant? {
        guard let type else { return nil }
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

    package func exactMixedComparison(
        _ left: String,
        _ leftType: AttributeType?,
        _ op: ComparisonOperator,
        _ right: String,
        _ rightType: AttributeType?
    ) -> String? {
        guard let leftType, let rightType else { return nil }
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

    /// PostgreSQL casts a double to a 15-digit numeric; the evaluator, to `Decimal(double)`:
    /// the constant becomes the doubles around it instead (``DecimalDoubleBounds``).
    package func decimalAgainstDouble(_ sql: String, _ op: ComparisonOperator, _ decimal: Decimal, bind: (Double) -> String) -> String? {
        guard let bounds = DecimalDoubleBounds(decimal) else { return nil }
        return bounds.comparison(sql, op, bind: bind) ?? falseLiteral
    }
}
