import Foundation

// Arithmetic in SQL, as the evaluator computes it (PredicateEvaluator+Arithmetic.swift): on
// numbers and dates (seconds since the reference date, as both stores keep them), booleans as
// 0 and 1; integers exact, going on in floating point where they overflow; a division always in
// floating point, `nil` for a divisor of zero; `nil` in, `nil` out. What SQL would compute
// otherwise — decimals (kept as text), strings, `**` (no portable power) — is evaluated in memory.
extension SQLCompiler {
    /// What an arithmetic operand holds, as far as the result's kind goes.
    private enum NumberKind {
        case integer, real, date
    }

    /// `lhs op rhs` as an SQL scalar, when both sides are numbers or dates of a known type.
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` for anything else.
    mutating func arithmetic(_ op: ArithmeticOperator, _ lhs: Operand, _ rhs: Operand) throws -> Operand {
        if op == .power { throw NeedsInMemoryEvaluation(reason: "'**' (SQL has no power function in every store)") }
        if case .constant(.null) = lhs { return .constant(.null) }
        if case .constant(.null) = rhs { return .constant(.null) }
        let (left, leftKind) = try arithmeticSide(lhs, op)
        let (right, rightKind) = try arithmeticSide(rhs, op)
        let result: NumberKind
        switch (leftKind, rightKind) {
        case (.date, .date): result = .real
        case (.date, _) where op == .add || op == .subtract: result = .date
        case (_, .date) where op == .add: result = .date
        case (.integer, .integer) where op != .divide: result = .integer
        default: result = .real
        }
        let sql = dialect.arithmetic(left, op, right, integers: result == .integer)
        switch result {
        case .integer: return .scalar(sql, .integer64)
        case .real: return .scalar(sql, .double)
        case .date: return .scalar(sql, .date)
        }
    }

    /// One side of an arithmetic operator: its SQL and what it holds.
    private mutating func arithmeticSide(_ operand: Operand, _ op: ArithmeticOperator) throws -> (String, NumberKind) {
        switch operand {
        case .scalar(let sql, let type?):
            switch type {
            case .integer16, .integer32, .integer64, .boolean: return (sql, .integer)
            case .double, .float: return (sql, .real)
            case .date: return (sql, .date)
            default: break
            }
        // Constants are literals, not bound: a comparison may write its operand twice
        // (`x IN (…) OR x IS NULL`) or drop it, and a placeholder is bound once, in order.
        case .constant(.int(let int)): return (Self.integerLiteral(int), .integer)
        case .constant(.bool(let flag)): return (flag ? "1" : "0", .integer)
        case .constant(.double(let double)) where double.isFinite: return (Self.realLiteral(double), .real)
        case .constant(.date(let date)) where date.timeIntervalSinceReferenceDate.isFinite:
            return (Self.realLiteral(date.timeIntervalSinceReferenceDate), .date)
        default: break
        }
        throw NeedsInMemoryEvaluation(reason: "'\(op.rawValue)' on something other than integers, doubles and dates")
    }

    /// An integer's literal (the least one, whose magnitude is no integer, as a difference).
    private static func integerLiteral(_ int: Int64) -> String {
        int == .min ? "(-9223372036854775807 - 1)" : "\(int)"
    }

    /// A finite double's literal: the shortest digits that read back as the same double, and a
    /// decimal point or exponent, so that SQL reads a floating-point number, not an integer.
    private static func realLiteral(_ double: Double) -> String {
        let digits = "\(double)"
        let literal = digits.contains(where: { $0 == "." || $0 == "e" }) ? digits : digits + ".0"
        return double < 0 ? "(\(literal))" : literal
    }
}
