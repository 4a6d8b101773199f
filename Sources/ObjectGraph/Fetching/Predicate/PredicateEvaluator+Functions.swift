import Foundation

// NSExpression's built-in functions, as its documentation defines them. Where NSExpression
// raises an Objective-C exception on a value it cannot use (a string given to `sqrt:`), the
// evaluator throws a type mismatch naming the function; where the result is not a number
// (`sqrt:` of a negative number, `modulus:by:` by zero) it is `nil`, as SQL has it.
extension PredicateEvaluator {
    /// The value of `function` applied to `arguments` (as many as its name says; the parser
    /// checks).
    func call(_ function: PredicateFunction, _ arguments: [PredicateOperand]) throws -> PredicateOperand {
        switch function {
        case .sum: return .value(try aggregate(.sum, of: Self.collection(arguments[0])))
        case .count: return .value(try aggregate(.count, of: Self.collection(arguments[0])))
        case .min: return .value(try aggregate(.min, of: Self.collection(arguments[0])))
        case .max: return .value(try aggregate(.max, of: Self.collection(arguments[0])))
        case .average: return .value(try aggregate(.avg, of: Self.collection(arguments[0])))
        case .median: return .value(Self.median(try numbers(of: arguments[0], for: function)))
        case .mode: return .value(.array(Self.mode(try elements(of: Self.collection(arguments[0]), for: function.rawValue).map(Self.scalar))))
        case .modulus: return .value(try modulus(arguments[0], arguments[1]))
        case .sqrt, .log, .ln, .exp: return .value(try real(function, arguments[0]))
        case .ceiling, .floor, .trunc, .abs: return .value(try rounded(function, arguments[0]))
        case .random: return .value(.double(Double.random(in: 0..<1)))
        case .randomElement:
            return try elements(of: Self.collection(arguments[0]), for: function.rawValue).randomElement() ?? .value(.null)
        case .now: return .value(.date(Date()))
        case .lowercase, .uppercase, .canonical:
            switch Self.argument(arguments[0]) {
            case .null: return .value(.null)
            case .string(let text): return .value(.string(Self.stringFunction(function, text)))
            case let other: throw Self.mismatch(function, other, needs: "a string")
            }
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            return .value(try bitwise(function, arguments[0], arguments[1]))
        case .onesComplement:
            switch Self.argument(arguments[0]) {
            case .null: return .value(.null)
            case let value:
                guard value.isExactInteger, let i = PredicateArgument.integer(value) else { throw Self.mismatch(function, value, needs: "an integer") }
                return .value(.int(~i))
            }
        case .noIndex: return arguments[0]
        }
    }

    /// `lowercase:`, `uppercase:` or `canonical:` of `text`: the one definition the evaluator and
    /// the SQLite store's functions (derived attributes' triggers) share.
    package static func stringFunction(_ function: PredicateFunction, _ text: String) -> String {
        switch function {
        case .lowercase: text.lowercased()
        case .uppercase: text.uppercased()
        default: StringComparison.fold(text, [.caseInsensitive, .diacriticInsensitive])
        }
    }

    /// A statistics function's argument as a collection: a single value is a collection of one.
    private static func collection(_ operand: PredicateOperand) -> PredicateOperand {
        switch operand {
        case .collection, .value(.null): return operand
        case .value(.array(let items)): return .collection(items.map { .value($0) })
        default: return .collection([operand])
        }
    }

    /// One value of a function's argument; an object counts as its identity.
    private static func argument(_ operand: PredicateOperand) -> Value {
        if case .object(let object) = operand, object.isMissingObject { return .null }
        if case .value(.bool(let flag)) = operand { return .int(flag ? 1 : 0) }
        return scalar(operand)
    }

    private static func mismatch(_ function: PredicateFunction, _ value: Value, needs: String) -> FetchPredicateError {
        FetchPredicateError.typeMismatch("\(function.rawValue) needs \(needs), not \(PredicateFormatter.format(value))")
    }

    /// The numbers of a collection argument (other values skipped, as `sum:` skips them).
    private func numbers(of operand: PredicateOperand, for function: PredicateFunction) throws -> [Double] {
        try elements(of: Self.collection(operand), for: function.rawValue)
            .map(Self.scalar).filter(\.isNumber).compactMap(PredicateArgument.double)
    }

    /// The middle number, or the mean of the two middle ones; `nil` when there are none.
    private static func median(_ numbers: [Double]) -> Value {
        guard !numbers.isEmpty else { return .null }
        let sorted = numbers.sorted()
        let middle = sorted.count / 2
        return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
    }

    /// The most frequent non-nil values, in the order each first appears.
    private static func mode(_ values: [Value]) -> [Value] {
        var counts: [Value: Int] = [:]
        var order: [Value] = []
        for value in values where !value.isNull {
            if counts[value] == nil { order.append(value) }
            counts[value, default: 0] += 1
        }
        let most = counts.values.max() ?? 0
        return order.filter { counts[$0] == most }
    }

    /// `modulus:by:`: the remainder of dividing the first by the second, with the sign of the
    /// first (as C's `%` and `fmod`); exact for integers; `nil` for a divisor of zero.
    private func modulus(_ lhs: PredicateOperand, _ rhs: PredicateOperand) throws -> Value {
        let a = Self.argument(lhs)
        let b = Self.argument(rhs)
        if a.isNull || b.isNull { return .null }
        if a.isExactInteger, b.isExactInteger, let x = PredicateArgument.integer(a), let y = PredicateArgument.integer(b) {
            if y == 0 { return .null }
            return .int(y == -1 ? 0 : x % y)
        }
        guard let x = PredicateArgument.double(a) else { throw Self.mismatch(.modulus, a, needs: "numbers") }
        guard let y = PredicateArgument.double(b) else { throw Self.mismatch(.modulus, b, needs: "numbers") }
        return y == 0 ? .null : .double(fmod(x, y))
    }

    /// `sqrt:`, `log:` (base 10), `ln:`, `exp:` in floating point.
    private func real(_ function: PredicateFunction, _ operand: PredicateOperand) throws -> Value {
        let value = Self.argument(operand)
        if value.isNull { return .null }
        guard let x = PredicateArgument.double(value) else { throw Self.mismatch(function, value, needs: "a number") }
        let result: Double
        switch function {
        case .sqrt: result = x.squareRoot()
        case .log: result = Foundation.log10(x)
        case .ln: result = Foundation.log(x)
        default: result = Foundation.exp(x)
        }
        return result.isNaN ? .null : .double(result)
    }

    /// `ceiling:`, `floor:`, `trunc:` and `abs:`: an integer stays an integer (`abs:` of the
    /// least 64-bit integer, which has no positive counterpart, is a double), a decimal a
    /// decimal.
    private func rounded(_ function: PredicateFunction, _ operand: PredicateOperand) throws -> Value {
        let value = Self.argument(operand)
        switch value {
        case .null: return .null
        case .int(let i):
            guard function == .abs else { return value }
            return i == .min ? .double(-Double(i)) : .int(Swift.abs(i))
        case .decimal(let d):
            var source = d
            var result = Decimal()
            switch function {
            case .abs: return .decimal(d < 0 ? -d : d)
            case .ceiling: NSDecimalRound(&result, &source, 0, .up)
            case .floor: NSDecimalRound(&result, &source, 0, .down)
            default: NSDecimalRound(&result, &source, 0, d < 0 ? .up : .down)
            }
            return .decimal(result)
        default:
            guard let x = PredicateArgument.double(value) else { throw Self.mismatch(function, value, needs: "a number") }
            switch function {
            case .ceiling: return .double(x.rounded(.up))
            case .floor: return .double(x.rounded(.down))
            case .trunc: return .double(x.rounded(.towardZero))
            default: return .double(Swift.abs(x))
            }
        }
    }

    /// `bitwiseAnd:with:`, `bitwiseOr:with:`, `bitwiseXor:with:`, `leftshift:by:`,
    /// `rightshift:by:` on 64-bit integers (a shift past 63 bits gives 0, or -1 for a negative
    /// number shifted right).
    private func bitwise(_ function: PredicateFunction, _ lhs: PredicateOperand, _ rhs: PredicateOperand) throws -> Value {
        let a = Self.argument(lhs)
        let b = Self.argument(rhs)
        if a.isNull || b.isNull { return .null }
        guard a.isExactInteger, let x = PredicateArgument.integer(a) else { throw Self.mismatch(function, a, needs: "integers") }
        guard b.isExactInteger, let y = PredicateArgument.integer(b) else { throw Self.mismatch(function, b, needs: "integers") }
        switch function {
        case .bitwiseAnd: return .int(x & y)
        case .bitwiseOr: return .int(x | y)
        case .bitwiseXor: return .int(x ^ y)
        case .leftShift: return .int(x << y)
        default: return .int(x >> y)
        }
    }
}
