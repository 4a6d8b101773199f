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
    /// `og_lowercase(text)`, `og_uppercase(text)`: NSExpression's `lowercase:` and `uppercase:`
    /// (Unicode, not SQLite's ASCII `lower`), for derived attributes' triggers.
    static let lowercase = "og_lowercase"
    static let uppercase = "og_uppercase"
    /// `og_sum(value)`: `@sum` as the evaluator computes it (exact integers, a double when
    /// the sum overflows or a double is present — never SQLite's "integer overflow" error).
    static let sum = "og_sum"
    /// `og_avg(value)`: `@avg` as the evaluator computes it.
    static let average = "og_avg"
    /// `og_numcmp(number, other)`: -1, 0 or 1 as `Value.compare` orders two numbers (text is
    /// a decimal), NULL when either is NULL or they do not compare. For decimals against
    /// integer and floating-point columns, which SQLite cannot compare exactly.
    static let numericCompare = "og_numcmp"

    /// The functions Core Data's derived-attribute triggers call (table, entity, key, property,
    /// new value).
    static let derivedAttributeTriggerFunctions = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

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

    /// Registers everything on `db`; Core Data's derived-attribute triggers report to
    /// `derivedAttributes`.
    static func register(on db: Database, derivedAttributes: DerivedAttributeLog? = nil) {
        db.add(
            collation: DatabaseCollation(decimalCollation) { lhs, rhs in
                let a = Decimal(string: lhs, locale: Locale(identifier: "en_US_POSIX"))
                let b = Decimal(string: rhs, locale: Locale(identifier: "en_US_POSIX"))
                guard let a, let b else { return lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame }
                return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
            }
        )
        for selector in [
            FetchSortDescriptor.Selector.caseInsensitiveCompare, .localizedCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare,
        ] {
            db.add(
                collation: DatabaseCollation(collation(for: selector)!) { lhs, rhs in
                    FetchSortDescriptor.compareStrings(lhs, rhs, selector)
                }
            )
        }
        db.add(
            function: DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
                guard case .string(let text) = arguments[0].storage, case .int64(let options) = arguments[1].storage else {
                    return arguments[0]
                }
                return StringComparison.fold(text, ComparisonOptions(rawValue: UInt8(truncatingIfNeeded: options)))
            }
        )
        for (name, function) in [(lowercase, PredicateFunction.lowercase), (uppercase, .uppercase)] {
            db.add(
                function: DatabaseFunction(name, argumentCount: 1, pure: true) { arguments in
                    guard case .string(let text) = arguments[0].storage else { return arguments[0] }
                    return PredicateEvaluator.stringFunction(function, text)
                }
            )
        }
        db.add(
            function: DatabaseFunction(numericCompare, argumentCount: 2, pure: true) { arguments in
                let lhs = aggregateValue(arguments[0])
                let rhs = aggregateValue(arguments[1])
                switch Value.compare(lhs, rhs, options: []) {
                case .orderedAscending?: return -1
                case .orderedSame?: return 0
                case .orderedDescending?: return 1
                case nil: return nil
                }
            }
        )
        // Core Data keeps a derived attribute (`count:(pages)`) with triggers that, after
        // updating the column, call these to tell its context which object changed. A store
        // Core Data wrote keeps its triggers, so a write here runs them too: the columns are
        // kept up to date by the triggers themselves, and the calls go to `derivedAttributes`,
        // from which the saving context updates its objects.
        for trigger in derivedAttributeTriggerFunctions {
            db.add(
                function: DatabaseFunction(trigger, argumentCount: 5, pure: false) { arguments in
                    derivedAttributes?.record(arguments)
                    return nil
                }
            )
        }
        db.add(function: DatabaseFunction(sum, argumentCount: 1, pure: true, aggregate: SumAggregate.self))
        db.add(function: DatabaseFunction(average, argumentCount: 1, pure: true, aggregate: AverageAggregate.self))
        db.add(
            function: DatabaseFunction(stringOperator, argumentCount: 4, pure: true) { arguments in
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
            }
        )
    }
}

/// A number as `og_sum`, `og_avg` and `og_numcmp` see it, as a predicate value (decimals
/// are text).
private func aggregateValue(_ databaseValue: DatabaseValue) -> Value {
    switch databaseValue.storage {
    case .int64(let int): .int(int)
    case .double(let double): .double(double)
    case .string(let text): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal) ?? .null
    default: .null
    }
}

private struct SumAggregate: DatabaseAggregate {
    var values: [Value] = []
    mutating func step(_ dbValues: [DatabaseValue]) throws { values.append(aggregateValue(dbValues[0])) }
    func finalize() throws -> (any DatabaseValueConvertible)? { PredicateEvaluator.sum(values).databaseValue }
}

private struct AverageAggregate: DatabaseAggregate {
    var values: [Value] = []
    mutating func step(_ dbValues: [DatabaseValue]) throws { values.append(aggregateValue(dbValues[0])) }
    func finalize() throws -> (any DatabaseValueConvertible)? { PredicateEvaluator.average(values).databaseValue }
}
