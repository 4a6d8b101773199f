import Foundation

/// Comparisons and aggregates: the semantics contract the SQL compiler reproduces.
extension PredicateEvaluator {
    /// Whether a comparison holds (two-valued: never unknown).
    ///
    /// - `ANY`/`SOME`: some element of the left collection satisfies the comparison; `ALL`:
    ///   every element does (true when empty); `NONE`: none does (true when empty). A `.null`
    ///   left side is an empty collection; any other non-collection is a type mismatch.
    /// - No modifier and a collection on the left: `CONTAINS` tests membership (an element
    ///   equals the right side); every other operator is treated as `ANY`, as Core Data's
    ///   SQL does (`tags.name == "x"` means `ANY tags.name == "x"`).
    /// - Otherwise the two sides compare as scalars (``test(_:_:_:options:)``).
    func compare(_ comparison: ComparisonNode, on object: PredicateOperand) throws -> Bool {
        let lhs = try value(of: comparison.lhs, on: object)
        let rhs = try value(of: comparison.rhs, on: object)
        let op = comparison.op
        let options = comparison.options
        switch comparison.modifier {
        case .any:
            return try elements(of: lhs, for: "ANY").contains { try test($0, op, rhs, options: options) }
        case .all:
            return try elements(of: lhs, for: "ALL").allSatisfy { try test($0, op, rhs, options: options) }
        case .none:
            return try !elements(of: lhs, for: "NONE").contains { try test($0, op, rhs, options: options) }
        case .direct:
            guard case .collection(let items) = lhs else { return try test(lhs, op, rhs, options: options) }
            if op == .contains { return items.contains { equal($0, rhs, options) } }
            return try items.contains { try test($0, op, rhs, options: options) }
        }
    }

    /// One scalar comparison `lhs op rhs`.
    ///
    /// - `==`: true iff both are null, or neither is and ``Value/compare(_:_:options:)`` says
    ///   `.orderedSame` (strings folded by `options`); `!=` is its negation (so `x != 5` holds
    ///   for a null `x`). Objects compare by `predicateIdentity`.
    /// - `<`, `<=`, `>`, `>=`: false when either side is null, the kinds do not compare, or
    ///   either is an object ID.
    /// - `IN`: with a collection on the right, the left equals some element; with a string on
    ///   the right, the left string is a substring of it; otherwise false.
    /// - `CONTAINS` (scalar left): the left string contains the right string.
    /// - `BETWEEN {low, high}`: `low <= lhs <= high`; false if anything is null.
    /// - `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`: false unless both sides are strings.
    func test(
        _ lhs: PredicateOperand,
        _ op: ComparisonOperator,
        _ rhs: PredicateOperand,
        options: ComparisonOptions
    )
        throws -> Bool
    {
        switch op {
        case .equal: return equal(lhs, rhs, options)
        case .notEqual: return !equal(lhs, rhs, options)
        case .lessThan: return order(lhs, rhs, options) == .orderedAscending
        case .lessThanOrEqual: return [.orderedAscending, .orderedSame].contains(order(lhs, rhs, options))
        case .greaterThan: return order(lhs, rhs, options) == .orderedDescending
        case .greaterThanOrEqual: return [.orderedDescending, .orderedSame].contains(order(lhs, rhs, options))
        case .in:
            switch rhs {
            case .collection(let items): return items.contains { equal(lhs, $0, options) }
            case .value(.string(let haystack)):
                guard case .value(.string(let needle)) = lhs else { return false }
                return StringComparison.contains(haystack, needle, options)
            default: return false
            }
        case .between:
            let bounds: [PredicateOperand]
            switch rhs {
            case .value(.null): return false
            case .collection(let items) where items.count == 2: bounds = items
            default: throw FetchPredicateError.typeMismatch("BETWEEN needs {low, high} on its right")
            }
            let low = order(bounds[0], lhs, options)
            let high = order(lhs, bounds[1], options)
            return (low == .orderedAscending || low == .orderedSame) && (high == .orderedAscending || high == .orderedSame)
        case .contains, .beginsWith, .endsWith, .like, .matches:
            guard case .value(.string(let s)) = lhs, case .value(.string(let t)) = rhs else { return false }
            switch op {
            case .contains: return StringComparison.contains(s, t, options)
            case .beginsWith: return StringComparison.beginsWith(s, t, options)
            case .endsWith: return StringComparison.endsWith(s, t, options)
            case .like: return StringComparison.like(s, pattern: t, options)
            default: return try StringComparison.matches(s, regex: t, options)
            }
        }
    }

    /// NSPredicate equality: null equals only null; an object is never null.
    func equal(_ lhs: PredicateOperand, _ rhs: PredicateOperand, _ options: ComparisonOptions) -> Bool {
        let lhsNull = Self.isNull(lhs)
        let rhsNull = Self.isNull(rhs)
        if lhsNull || rhsNull { return lhsNull && rhsNull }
        return Value.compare(Self.scalar(lhs), Self.scalar(rhs), options: options) == .orderedSame
    }

    /// The order of two operands, `nil` if they have none (object IDs never do).
    func order(_ lhs: PredicateOperand, _ rhs: PredicateOperand, _ options: ComparisonOptions) -> ComparisonResult? {
        let x = Self.scalar(lhs)
        let y = Self.scalar(rhs)
        if case .objectID = x { return nil }
        if case .objectID = y { return nil }
        return Value.compare(x, y, options: options)
    }

    /// Whether an operand is `nil`: the null value, or a missing to-one destination.
    static func isNull(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .value(.null): return true
        case .object(let object): return object.isMissingObject
        default: return false
        }
    }

    /// An operand as a value: objects by identity, collections as arrays.
    static func scalar(_ operand: PredicateOperand) -> Value {
        switch operand {
        case .value(let value): return value
        case .object(let object): return object.predicateIdentity
        case .collection(let items): return .array(items.map(scalar))
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` of a collection (`.null` is empty).
    ///
    /// `@count`: the number of elements. `@sum`: ``sum(_:)``. `@avg`: ``average(_:)``.
    /// `@min`/`@max`: the least/greatest non-null element by
    /// ``Value/compare(_:_:options:)`` (elements that do not compare with the best so far are
    /// skipped), `.null` when empty.
    func aggregate(_ function: AggregateFunction, of operand: PredicateOperand) throws -> Value {
        let items = try elements(of: operand, for: function.rawValue)
        switch function {
        case .count:
            return .int(Int64(items.count))
        case .sum: return Self.sum(items.map(Self.scalar))
        case .avg: return Self.average(items.map(Self.scalar))
        case .min, .max:
            let wanted: ComparisonResult = function == .min ? .orderedAscending : .orderedDescending
            var best: Value?
            for item in items {
                let value = Self.scalar(item)
                if value.isNull { continue }
                guard let current = best else {
                    best = value
                    continue
                }
                if Value.compare(value, current, options: []) == wanted { best = value }
            }
            return best ?? .null
        }
    }
}

extension PredicateEvaluator {
    /// `@sum` of values, shared with the SQL store's `og_sum` aggregate: the non-null numbers
    /// (other values are skipped) as an exact `.int` when all are ints or bools and the sum
    /// fits in 64 bits; as an exact `.decimal` when decimals are among them and no doubles;
    /// otherwise as a `.double`. `0` when there are none.
    ///
    /// Doubles are added smallest first, so the result does not depend on the order of the
    /// collection (SQL and memory enumerate members in different orders).
    package static func sum(_ values: [Value]) -> Value {
        let numbers = values.filter(\.isNumber)
        if let exact = exactSum(numbers) { return .int(exact) }
        if let decimal = decimalSum(numbers) { return .decimal(decimal) }
        return .double(doubleSum(numbers))
    }

    /// `@avg` of values, shared with the SQL store's `og_avg` aggregate: the mean of the
    /// non-null numbers, `.null` when there are none: the exact integer sum divided by the
    /// count as a `.double` when all are ints or bools and the sum fits; a `.decimal` when
    /// decimals are among them and no doubles; otherwise a `.double`.
    package static func average(_ values: [Value]) -> Value {
        let numbers = values.filter(\.isNumber)
        guard !numbers.isEmpty else { return .null }
        if let exact = exactSum(numbers) { return .double(Double(exact) / Double(numbers.count)) }
        if let decimal = decimalSum(numbers) { return .decimal(decimal / Decimal(numbers.count)) }
        return .double(doubleSum(numbers) / Double(numbers.count))
    }

    /// The exact sum of numbers among which are decimals and no doubles.
    private static func decimalSum(_ numbers: [Value]) -> Decimal? {
        guard numbers.contains(where: { if case .decimal = $0 { true } else { false } }) else { return nil }
        var sum = Decimal(0)
        for number in numbers {
            switch number {
            case .decimal(let decimal): sum += decimal
            case .int(let int): sum += Decimal(int)
            case .bool(let bool): sum += bool ? 1 : 0
            default: return nil
            }
        }
        return sum
    }

    /// The sum of ints and bools, `nil` if another kind is present or the sum overflows.
    private static func exactSum(_ numbers: [Value]) -> Int64? {
        var sum: Int64 = 0
        for number in numbers {
            guard number.isExactInteger, let i = PredicateArgument.integer(number) else { return nil }
            let (next, overflow) = sum.addingReportingOverflow(i)
            if overflow { return nil }
            sum = next
        }
        return sum
    }

    private static func doubleSum(_ numbers: [Value]) -> Double {
        numbers.compactMap(PredicateArgument.double).sorted().reduce(0, +)
    }
}

extension Value {
    /// Whether this is an `.int` or a `.bool` (what `@sum` keeps as an integer).
    var isExactInteger: Bool {
        switch self {
        case .int, .bool: return true
        default: return false
        }
    }
}
