import Foundation
package import ObjectGraph

extension PostgreSQLDialect {
    /// `LIKE` with an escaped pattern, `strpos`, and `~` anchored to the whole string for
    /// `MATCHES` patterns PostgreSQL reads as ICU does.
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` for `MATCHES` it cannot write as ICU reads it,
    ///   `MATCHES[c]`, `MATCHES[d]`, LIKE with a key-path pattern, `[d]` without the diacritic
    ///   folding function.
    package func stringOperator(
        _ op: ComparisonOperator,
        _ left: SQLStringOperand,
        _ right: SQLStringOperand,
        _ options: ComparisonOptions,
        bind: (SQLValue) -> String
    ) throws -> String {
        // A number, date or data is never a string: the operator is false (og_string's answer).
        for case .expression(_, let type?) in [left, right] where type != .string && type != .uri {
            return falseLiteral
        }
        func folded(_ operand: SQLStringOperand) -> String {
            let sql = operand.sql(bind: bind)
            return options.isEmpty ? sql : fold(sql, options)
        }
        if op == .matches {
            // PostgreSQL's regular expressions are not ICU's: only a pattern written in the
            // syntax both read alike, matched case-sensitively, runs on the server.
            guard !options.contains(.diacriticInsensitive) else {
                throw NeedsInMemoryEvaluation(reason: "MATCHES[d] has no PostgreSQL form")
            }
            guard !options.contains(.caseInsensitive) else {
                throw NeedsInMemoryEvaluation(reason: "MATCHES[c] folds case as ICU does, not as PostgreSQL does")
            }
            guard case .constant(let regex) = right else {
                throw NeedsInMemoryEvaluation(reason: "MATCHES with a key-path pattern may use ICU-only syntax")
            }
            guard let translated = Self.regularExpression(regex) else {
                throw NeedsInMemoryEvaluation(reason: "the MATCHES pattern uses syntax PostgreSQL reads differently from ICU")
            }
            // MATCHES is the whole string; `~` searches, so the pattern is anchored.
            return "\(left.sql(bind: bind)) ~ \(bind(.text("^(?:" + translated + ")$")))"
        }
        try requireFolding(options)
        let subject = folded(left)
        guard case .constant(let text) = right else {
            let needle = folded(right)
            // An empty needle never matches, as in memory.
            switch op {
            case .beginsWith: return "(\(needle) <> '' AND strpos(\(subject), \(needle)) = 1)"
            case .endsWith: return "(\(needle) <> '' AND right(\(subject), length(\(needle))) = \(needle))"
            case .contains: return "(\(needle) <> '' AND strpos(\(subject), \(needle)) > 0)"
            default: throw NeedsInMemoryEvaluation(reason: "LIKE with a key-path pattern has no PostgreSQL form")
            }
        }
        let pattern: String
        switch op {
        case .like:
            pattern = Self.likePattern(text)
        default:
            if StringComparison.fold(text, options).isEmpty { return falseLiteral }
            let literal = Self.escapedForLike(text)
            pattern = op == .beginsWith ? literal + "%" : op == .endsWith ? "%" + literal : "%" + literal + "%"
        }
        let bound = bind(.text(pattern))
        return "\(subject) LIKE \(options.isEmpty ? bound : fold(bound, options))"
    }

    /// An ICU regular expression (a `MATCHES` pattern) as a PostgreSQL regular expression that
    /// matches exactly the same strings, or `nil` when it uses syntax the two read
    /// differently, or may.
    ///
    /// Accepted: literal characters, `\` before ASCII punctuation, `.` (written as ICU reads
    /// it: any character but a line terminator), groups `( )` without `?`, `|`, the
    /// quantifiers `*`, `+`, `?` (not doubled: ICU's `*+` is possessive, `*?` lazy), and
    /// bracket expressions of literal characters and ranges, possibly negated. Everything
    /// else — `\p{…}`, `\w`, `\d`, `(?i)`, `^`, `$` (ICU's `$` also matches before a final
    /// line break), `{n,m}`, nested or POSIX sets — is matched in memory by ICU.
    package static func regularExpression(_ pattern: String) -> String? {
        // ICU's line terminators, which its `.` does not match without DOTALL.
        let notLineTerminator = "[^\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029}]"
        let scalars = Array(pattern.unicodeScalars)
        var result = ""
        var index = 0
        /// Whether the previous element can take a quantifier.
        var quantifiable = false
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\\":
                guard index < scalars.count, scalars[index].isASCII, scalars[index].properties.isPatternSyntax else { return nil }
                result += "\\" + String(scalars[index])
                index += 1
                quantifiable = true
            case ".":
                result += notLineTerminator
                quantifiable = true
            case "*", "+", "?":
                guard quantifiable else { return nil }
                result.unicodeScalars.append(scalar)
                quantifiable = false
            case "(":
                if index < scalars.count, scalars[index] == "?" || scalars[index] == "*" { return nil }
                result += "("
                quantifiable = false
            case ")":
                result += ")"
                quantifiable = true
            case "|":
                result += "|"
                quantifiable = false
            case "[":
                var set = "["
                if index < scalars.count, scalars[index] == "^" {
                    set += "^"
                    index += 1
                }
                var members = 0
                var closed = false
                while index < scalars.count {
                    let member = scalars[index]
                    index += 1
                    if member == "]" {
                        closed = members > 0
                        break
                    }
                    // Only plain characters and `a-z` ranges between them.
                    if "[\\&^:=.-".unicodeScalars.contains(member) { return nil }
                    set.unicodeScalars.append(member)
                    members += 1
                    if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                        let upper = scalars[index + 1]
                        if "[\\&^:=.-".unicodeScalars.contains(upper) || upper.value < member.value { return nil }
                        set += "-"
                        set.unicodeScalars.append(upper)
                        index += 2
                    }
                }
                guard closed else { return nil }
                result += set + "]"
                quantifiable = true
            case "^", "$", "{", "}", "]":
                return nil
            default:
                result.unicodeScalars.append(scalar)
                quantifiable = true
            }
        }
        return result
    }

    /// `text` as a literal inside a SQL LIKE pattern (backslash escapes).
    package static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }

    /// An NSPredicate LIKE pattern as a SQL LIKE pattern: `*` is `%`, `?` is `_`, `\` makes
    /// the next character literal (a trailing `\` is itself literal), `%` and `_` are literal.
    package static func likePattern(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                result += escapedForLike(String(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                result += "%"
            } else if scalar == "?" {
                result += "_"
            } else {
                result += escapedForLike(String(scalar))
            }
        }
        if escaped { result += "\\\\" }
        return result
    }
}
