import Foundation
import ObjectGraph

/// The doubles on either side of a decimal constant, as the predicate evaluator orders them.
///
/// `Value.compare` orders a double and a decimal as `Decimal(double)` against the decimal, and
/// Foundation's conversion is not the nearest decimal (`Decimal(1.0 / 3.0)` is
/// `0.333333333333333248`), while PostgreSQL casts a double to a numeric of 15 digits. A double
/// column compared with a fractional decimal is compared instead with the two doubles that
/// bracket the constant under the evaluator's order, so both agree on every row.
struct DecimalDoubleBounds {
    /// The least double whose decimal is not below the constant (`+infinity` when none).
    let lower: Double
    /// The least double whose decimal is above the constant (`+infinity` when none).
    let upper: Double

    /// The bounds of `constant`; `nil` for NaN, or if the conversion is too far from the
    /// nearest double to search (then the caller compares as numbers).
    init?(_ constant: Decimal) {
        guard !constant.isNaN else { return nil }
        let start = NSDecimalNumber(decimal: constant).doubleValue
        guard let lower = Self.least(from: start, where: { Decimal($0) >= constant }),
            let upper = Self.least(from: lower, where: { Decimal($0) > constant })
        else { return nil }
        (self.lower, self.upper) = (lower, upper)
    }

    /// `column op constant` as comparisons with the bounds, each bound bound by `bind`; `nil`
    /// when no double satisfies it (equality with a constant between two doubles' decimals).
    func comparison(_ column: String, _ op: ComparisonOperator, bind: (Double) -> String) -> String? {
        switch op {
        case .equal: lower == upper ? nil : "(\(column) >= \(bind(lower)) AND \(column) < \(bind(upper)))"
        // `!=` holds for NULL, as NSPredicate's does.
        case .notEqual: lower == upper ? "TRUE" : "(\(column) < \(bind(lower)) OR \(column) >= \(bind(upper)) OR \(column) IS NULL)"
        case .lessThan: "\(column) < \(bind(lower))"
        case .lessThanOrEqual: "\(column) < \(bind(upper))"
        case .greaterThan: "\(column) >= \(bind(upper))"
        case .greaterThanOrEqual: "\(column) >= \(bind(lower))"
        default: nil
        }
    }

    /// The least double from `start`'s neighbourhood for which `holds` (monotone) is true;
    /// `+infinity` when no finite double is; `nil` when it lies too far from `start`.
    private static func least(from start: Double, where holds: (Double) -> Bool) -> Double? {
        var value = start.isFinite ? start : (start > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
        for _ in 0..<4_096 {
            if holds(value) {
                guard value > -.greatestFiniteMagnitude, holds(value.nextDown) else { return value }
                value = value.nextDown
            } else {
                guard value < .greatestFiniteMagnitude else { return .infinity }
                value = value.nextUp
                if holds(value) { return value }
            }
        }
        return nil
    }
}
