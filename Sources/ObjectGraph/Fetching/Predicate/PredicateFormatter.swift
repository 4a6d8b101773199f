import Foundation

/// Prints a predicate tree back as a format string that parses to the same tree.
///
/// Keywords print in upper case, operators in their canonical spelling (`==`, `!=`, `>=`),
/// strings double-quoted, nested compound predicates parenthesized. Values without a literal
/// print as `CAST(…)`, as NSPredicate prints dates: `CAST(721692000.0, "NSDate")`.
package enum PredicateFormatter {
    /// The format string of `node`.
    package static func format(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): return "NOT " + grouped(inner)
        case .and(let parts): return compound(parts, "AND", empty: "TRUEPREDICATE")
        case .or(let parts): return compound(parts, "OR", empty: "FALSEPREDICATE")
        case .comparison(let comparison): return format(comparison)
        case .unsupported(let text): return text
        }
    }

    private static func compound(_ parts: [PredicateNode], _ keyword: String, empty: String) -> String {
        switch parts.count {
        case 0: return empty
        case 1: return format(parts[0])
        default: return parts.map(grouped).joined(separator: " \(keyword) ")
        }
    }

    private static func grouped(_ node: PredicateNode) -> String {
        switch node {
        case .and(let parts) where parts.count > 1, .or(let parts) where parts.count > 1:
            return "(\(format(node)))"
        default: return format(node)
        }
    }

    /// The format string of one comparison.
    package static func format(_ comparison: ComparisonNode) -> String {
        let prefix = comparison.modifier == .direct ? "" : comparison.modifier.rawValue.uppercased() + " "
        let op = comparison.op.rawValue + format(comparison.options)
        return "\(prefix)\(format(comparison.lhs)) \(op) \(format(comparison.rhs))"
    }

    /// `[cdn]`, or `""` for no options.
    package static func format(_ options: ComparisonOptions) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }

    /// The format string of an expression.
    package static func format(_ expression: ExpressionNode) -> String {
        switch expression {
        case .constant(let value): return format(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(.evaluatedObject, let key): return formatKey(key)
        case .keyPath(let base, let key): return postfixBase(base) + "." + formatKey(key)
        case .aggregate(.keyPath(let collection, let key), let function)
        where function != .count && collection != .evaluatedObject:
            return postfixBase(collection) + "." + function.rawValue + "." + formatKey(key)
        case .aggregate(let base, let function): return postfixBase(base) + "." + function.rawValue
        case .array(let items): return "{" + items.map(format).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        case .index(let base, let selector):
            let index: String
            switch selector {
            case .first: index = "FIRST"
            case .last: index = "LAST"
            case .size: index = "SIZE"
            case .at(let position): index = format(position)
            }
            return "\(postfixBase(base))[\(index)]"
        case .arithmetic(_, _, let operand) where expression.isUnaryMinus:
            return "-" + arithmeticOperand(operand, below: nil)
        case .arithmetic(let op, let lhs, let rhs):
            return "\(arithmeticOperand(lhs, below: op)) \(op.rawValue) \(arithmeticOperand(rhs, below: op, onTheRight: true))"
        case .function(let function, let arguments):
            return function.rawValue + "(" + arguments.map(format).joined(separator: ", ") + ")"
        case .unsupported(let text): return text
        }
    }

    /// An operand of `op` (of a unary minus for `nil`), parenthesized where the parser would
    /// otherwise group it differently: a looser operator, or an equal one on the right (the
    /// operators are left-associative).
    private static func arithmeticOperand(_ operand: ExpressionNode, below op: ArithmeticOperator?, onTheRight: Bool = false) -> String {
        guard case .arithmetic(let inner, _, _) = operand, !operand.isUnaryMinus else { return format(operand) }
        guard let op else { return "(\(format(operand)))" }
        let looser = inner.precedence < op.precedence || (onTheRight && inner.precedence == op.precedence)
        return looser ? "(\(format(operand)))" : format(operand)
    }

    /// `expression` printed so that a `.key`, `.@count` or `[index]` can follow it.
    package static func postfixBase(_ expression: ExpressionNode) -> String {
        switch expression {
        case .unsupported(let text): return "(\(text))"
        case .arithmetic: return "(\(format(expression)))"
        case .constant(.int(let i)) where i < 0: return "(\(i))"
        case .constant(.double(let d)) where d.sign == .minus: return "(\(format(.double(d))))"
        default: return format(expression)
        }
    }

    /// A key, `#`-escaped when it is a reserved word or does not start like a key.
    package static func formatKey(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, PredicateLexer.isIdentifierStart(first),
            PredicateKeyword.named(key) == nil
        else { return "#" + key }
        return key
    }

    /// The literal for a value.
    package static func format(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let b): return b ? "YES" : "NO"
        case .int(let i): return String(i)
        case .double(let d):
            if d.isNaN { return cast(quoted("nan"), "NSNumber") }
            if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
            return d.description
        case .decimal(let d): return cast(quoted(d.description), "NSDecimalNumber")
        case .string(let s): return quoted(s)
        case .date(let date): return cast(format(.double(date.timeIntervalSinceReferenceDate)), "NSDate")
        case .data(let data): return cast(quoted(data.map { String(format: "%02x", $0) }.joined()), "NSData")
        case .uuid(let uuid): return cast(quoted(uuid.uuidString), "NSUUID")
        case .url(let url): return cast(quoted(url.absoluteString), "NSURL")
        case .objectID(let id): return cast(quoted(id.uriRepresentation().absoluteString), "NSManagedObjectID")
        case .array(let values): return "{" + values.map(format).joined(separator: ", ") + "}"
        }
    }

    private static func cast(_ literal: String, _ type: String) -> String {
        "CAST(\(literal), \"\(type)\")"
    }

    /// `s` in double quotes, with `"`, `\` and control characters escaped.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension ExpressionNode {
    /// Whether this is `-operand` as the parser makes it (`0 - operand`, for an operand that
    /// is not a literal: a literal's minus is folded into it).
    fileprivate var isUnaryMinus: Bool {
        guard case .arithmetic(.subtract, .constant(.int(0)), let operand) = self else { return false }
        if case .constant = operand { return false }
        return true
    }
}
