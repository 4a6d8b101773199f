import Foundation

// Arithmetic in predicates (`price * quantity > 100`, `-balance < 0`), as NSExpression's
// `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:` and `raise:toPower:` compute it:
// on numbers (booleans count as 0 and 1), a division always in floating point (`5 / 2` is
// 2.5). Where NSExpression raises an Objective-C exception, which Swift cannot catch, the
// result is `nil` instead, as SQL has it: an operand that is `nil`, a division by zero.
extension PredicateEvaluator {
    /// The value of `lhs op rhs`.
    ///
    /// - Throws: ``FetchPredicateError/Kind/typeMismatch`` when an operand is not a number
    ///   (dates are numbers of seconds here, as Core Data stores them: `date + 3600` is a date
    ///   an hour later, `end - start` the seconds between).
    func arithmetic(_ op: ArithmeticOperator, _ lhs: PredicateOperand, _ rhs: PredicateOperand) throws -> Value {
        let left = try Self.arithmeticOperand(lhs, op)
        let right = try Self.arithmeticOperand(rhs, op)
        switch (left, right) {
        case (.null, _), (_, .null):
            return .null
        case (.date(let date), .date(let other)) where op == .subtract:
            return .double(date.timeIntervalSince(other))
        case (.date(let date), _) where op == .add || op == .subtract:
            guard let seconds = Self.double(right) else { break }
            return .date(date.addingTimeInterval(op == .add ? seconds : -seconds))
        case (_, .date(let date)) where op == .add:
            guard let seconds = Self.double(left) else { break }
            return .date(date.addingTimeInterval(seconds))
        case (.decimal, _), (_, .decimal):
            if let a = left.numericDecimal, let b = right.numericDecimal, a.isFinite, b.isFinite,
                let result = Self.decimalArithmetic(op, a, b)
            {
                return result
            }
        case (.int(let a), .int(let b)):
            if let result = Self.integerArithmetic(op, a, b) { return result }
        default:
            break
        }
        guard let a = Self.double(left), let b = Self.double(right) else {
            throw FetchPredicateError.typeMismatch(
                "cannot compute \(PredicateFormatter.format(left)) \(op.rawValue) \(PredicateFormatter.format(right)): arithmetic needs numbers"
            )
        }
        switch op {
        case .add: return .double(a + b)
        case .subtract: return .double(a - b)
        case .multiply: return .double(a * b)
        case .divide: return b == 0 ? .null : .double(a / b)
        case .power: return .double(pow(a, b))
        }
    }

    /// An operand as one value: a scalar, or `.null` for a missing object.
    private static func arithmeticOperand(_ operand: PredicateOperand, _ op: ArithmeticOperator) throws -> Value {
        switch operand {
        case .value(.bool(let flag)): return .int(flag ? 1 : 0)
        case .value(let value): return value
        case .object(let object) where object.isMissingObject: return .null
        case .object, .collection:
            throw FetchPredicateError.typeMismatch(
                "'\(op.rawValue)' needs numbers, not \(operand.isCollection ? "a collection" : "an object"); use @sum, @avg or @count for a collection"
            )
        }
    }

    /// `a op b` in 64-bit integers; `nil` when it overflows or divides (both go to doubles).
    private static func integerArithmetic(_ op: ArithmeticOperator, _ a: Int64, _ b: Int64) -> Value? {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = a.addingReportingOverflow(b)
        case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
        case .divide, .power: return nil
        }
        return overflow ? nil : .int(result)
    }

    /// `a op b` in decimals; `nil` for a power that is not a small whole number (done in doubles).
    private static func decimalArithmetic(_ op: ArithmeticOperator, _ a: Decimal, _ b: Decimal) -> Value? {
        switch op {
        case .add: return .decimal(a + b)
        case .subtract: return .decimal(a - b)
        case .multiply: return .decimal(a * b)
        case .divide: return b == 0 ? .null : .decimal(a / b)
        case .power:
            guard let exponent = Int(exactly: NSDecimalNumber(decimal: b).doubleValue), (0...64).contains(exponent) else { return nil }
            return .decimal(pow(a, exponent))
        }
    }

    /// A number, or a date as its seconds since the reference date (as Core Data stores it).
    private static func double(_ value: Value) -> Double? {
        if case .date(let date) = value { return date.timeIntervalSinceReferenceDate }
        return PredicateArgument.double(value)
    }
}

extension PredicateOperand {
    fileprivate var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }
}
