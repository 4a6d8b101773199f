import Foundation
import GRDB

/// The SQL functions and collations ObjectGraph registers on every connection, so SQL
/// reproduces NSPredicate's string semantics (Unicode case and diacritic folding, LIKE,
/// MATCHES) and numeric decimal order — by calling the same Swift code the in-memory
/// evaluator uses.
enum SQLiteFunctions {
    static let decimalCollation = "OG_DECIMAL"
    /// `og_fold(text, options)`: the text folded by `[c]`/`[d]` options (a bit set).
    static let fold = "og_fold"
    /// `og_string(operator, lhs, rhs, options)`: 1, 0, or NULL when either side is NULL.
    static let stringOperator = "og_string"

    /// The collation implementing a sort selector, or `nil` for plain binary order.
    static func collation(for selector: FetchSortDescriptor.Selector) -> String? {
        switch selector {
        case .caseInsensitiveCompare: "OG_CASE_INSENSITIVE"
        case .localizedCompare: "OG_LOCALIZED"
        case .localizedCaseInsensitiveCompare: "OG_LOCALIZED_CASE_INSENSITIVE"
        case .localizedStandardCompare: "OG_LOCALIZED_STANDARD"
        default: nil
        }
    }

    /// Registers everything on `db`.
    static func register(on db: Database) {
        db.add(collation: DatabaseCollation(decimalCollation) { lhs, rhs in
            let a = Decimal(string: lhs, locale: Locale(identifier: "en_US_POSIX"))
            let b = Decimal(string: rhs, locale: Locale(identifier: "en_US_POSIX"))
            guard let a, let b else { return lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame }
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        })
        for selector in [FetchSortDescriptor.Selector.caseInsensitiveCompare, .localizedCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare] {
            db.add(collation: DatabaseCollation(collation(for: selector)!) { lhs, rhs in
                FetchSortDescriptor.compareStrings(lhs, rhs, selector)
            })
        }
        db.add(function: DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
            guard case .string(let text) = arguments[0].storage, case .int64(let options) = arguments[1].storage else {
                return arguments[0]
            }
            return StringComparison.fold(text, ComparisonOptions(rawValue: UInt8(truncatingIfNeeded: options)))
        })
        db.add(function: DatabaseFunction(stringOperator, argumentCount: 4, pure: true) { arguments in
            guard case .string(let op) = arguments[0].storage, case .int64(let rawOptions) = arguments[3].storage else { return nil }
            let lhs = arguments[1].storage
            let rhs = arguments[2].storage
            if case .null = lhs { return nil }
            if case .null = rhs { return nil }
            guard case .string(let left) = lhs, case .string(let right) = rhs else { return false }
            let options = ComparisonOptions(rawValue: UInt8(truncatingIfNeeded: rawOptions))
            switch op {
            case "BEGINSWITH": return StringComparison.beginsWith(left, right, options)
            case "ENDSWITH": return StringComparison.endsWith(left, right, options)
            case "CONTAINS": return StringComparison.contains(left, right, options)
            case "LIKE": return StringComparison.like(left, pattern: right, options)
            case "MATCHES": return try StringComparison.matches(left, regex: right, options)
            default: return nil
            }
        })
    }
}
