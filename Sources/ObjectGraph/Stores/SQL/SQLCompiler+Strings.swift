import Foundation

extension SQLCompiler {
    /// One side of a string operator: SQL (with its attribute type, when known), or a constant
    /// not bound yet (PostgreSQL rewrites some constants into patterns before binding them).
    enum StringOperand {
        case expression(String, AttributeType?)
        case constant(String)
    }

    /// `left op right` for BEGINSWITH, ENDSWITH, CONTAINS (and IN on strings), LIKE and MATCHES,
    /// with `[c]`/`[d]`: true, false, or NULL when a side is NULL.
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` where the dialect cannot say it (PostgreSQL:
    ///   `MATCHES` it cannot write as ICU reads it, LIKE with a key-path pattern, `[d]` without
    ///   the diacritic folding function).
    mutating func stringOperator(
        _ op: ComparisonOperator,
        _ left: StringOperand,
        _ right: StringOperand,
        _ options: ComparisonOptions
    ) throws -> String {
        let foldOptions = options.subtracting(.normalized)
        switch dialect.database {
        case .sqlite:
            let lhs = sqliteOperand(left)
            let rhs = sqliteOperand(right)
            return "\(SQLiteFunctions.stringOperator)('\(op.rawValue)', \(lhs), \(rhs), \(foldOptions.rawValue))"
        case .postgreSQL:
            return try postgreSQLStringOperator(op, left, right, foldOptions)
        }
    }

    private mutating func sqliteOperand(_ operand: StringOperand) -> String {
        switch operand {
        case .expression(let sql, _): sql
        case .constant(let text): bind(.text(text))
        }
    }

    private mutating func postgreSQLStringOperator(
        _ op: ComparisonOperator,
        _ left: StringOperand,
        _ right: StringOperand,
        _ options: ComparisonOptions
    ) throws -> String {
        // A number, date or data is never a string: the operator is false (og_string's answer).
        for case .expression(_, let type?) in [left, right] where type != .string && type != .uri {
            return dialect.falseLiteral
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
            guard let translated = Self.postgreSQLRegularExpression(regex) else {
                throw NeedsInMemoryEvaluation(reason: "the MATCHES pattern uses syntax PostgreSQL reads differently from ICU")
            }
            // MATCHES is the whole string; `~` searches, so the pattern is anchored.
            return "\(plain(left)) ~ \(bind(.text("^(?:" + translated + ")$")))"
        }
        try requireFolding(options)
        let subject = folded(left, options)
        guard case .constant(let text) = right else {
            let needle = folded(right, options)
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
            if StringComparison.fold(text, options).isEmpty { return dialect.falseLiteral }
            let literal = Self.escapedForLike(text)
            pattern = op == .beginsWith ? literal + "%" : op == .endsWith ? "%" + literal : "%" + literal + "%"
        }
        return "\(subject) LIKE \(fold(bind(.text(pattern)), options))"
    }

    private mutating func plain(_ operand: StringOperand) -> String {
        switch operand {
        case .expression(let sql, _): sql
        case .constant(let text): bind(.text(text))
        }
    }

    private mutating func folded(_ operand: StringOperand, _ options: ComparisonOptions) -> String {
        fold(plain(operand), options)
    }

    /// `sql` folded by `[c]`/`[d]` `options`: `og_fold` in SQLite (the evaluator's folding),
    /// the store's diacritic and case folding functions (ObjectGraphPostgres's
    /// `PostgreSQLFolding`) in PostgreSQL, diacritics first, as Foundation folds.
    func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        let options = options.subtracting(.normalized)
        if options.isEmpty { return sql }
        switch dialect.database {
        case .sqlite:
            return "\(SQLiteFunctions.fold)(\(sql), \(options.rawValue))"
        case .postgreSQL:
            let unmarked = options.contains(.diacriticInsensitive) ? "\(SQLDialect.postgreSQLDiacriticFoldingFunction)(\(sql))" : sql
            return options.contains(.caseInsensitive) ? "\(SQLDialect.postgreSQLCaseFoldingFunction)(\(unmarked))" : unmarked
        }
    }

    /// - Throws: ``NeedsInMemoryEvaluation`` when the dialect cannot fold as `options` ask.
    func requireFolding(_ options: ComparisonOptions) throws {
        if dialect.database == .postgreSQL, options.contains(.diacriticInsensitive), !dialect.foldsDiacritics {
            throw NeedsInMemoryEvaluation(reason: "[d] needs the store's diacritic folding function")
        }
    }

    /// A decimal expression in numeric order: SQLite keeps decimals as text, ordered by a
    /// collation; PostgreSQL's are `NUMERIC` already.
    func decimalOrdered(_ sql: String) -> String {
        dialect.database == .sqlite ? "\(sql) COLLATE \(SQLiteFunctions.decimalCollation)" : sql
    }

    /// A text expression in Unicode scalar order, whatever the database's collation.
    func textOrdered(_ sql: String) -> String {
        dialect.database == .sqlite ? sql : "\(sql) COLLATE \"C\""
    }

    /// `left symbol right` between numbers as the evaluator compares them (exactly, decimals
    /// included): `og_numcmp` in SQLite, `NUMERIC` in PostgreSQL.
    func numericCompare(_ left: String, _ symbol: String, _ right: String) -> String {
        switch dialect.database {
        case .sqlite: "\(SQLiteFunctions.numericCompare)(\(left), \(right)) \(symbol) 0"
        case .postgreSQL: "CAST(\(left) AS NUMERIC) \(symbol) CAST(\(right) AS NUMERIC)"
        }
    }

    /// A string sort key for `selector`: SQLite's registered collations; in PostgreSQL, the
    /// store's full case folding in Unicode scalar order for `caseInsensitiveCompare:` (the
    /// evaluator's order exactly) and Unicode scalar order (`"C"`) for `compare:`. (The
    /// localized selectors are sorted in memory on PostgreSQL: see ``orderTerms(for:scope:)``.)
    func sortKey(_ sql: String, _ selector: FetchSortDescriptor.Selector) -> String {
        switch dialect.database {
        case .sqlite:
            guard let collation = SQLiteFunctions.collation(for: selector) else { return sql }
            return "\(sql) COLLATE \(collation)"
        case .postgreSQL:
            switch selector {
            case .caseInsensitiveCompare: return "\(SQLDialect.postgreSQLCaseFoldingFunction)(\(sql)) COLLATE \"C\""
            case .localizedCompare: return "\(sql) COLLATE \"und-x-icu\""
            case .localizedCaseInsensitiveCompare: return "lower(\(sql)) COLLATE \"und-x-icu\""
            case .localizedStandardCompare: return "lower(\(sql)) COLLATE \"\(SQLDialect.postgreSQLNumericCollation)\""
            default: return "\(sql) COLLATE \"C\""
            }
        }
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
    static func postgreSQLRegularExpression(_ pattern: String) -> String? {
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
    static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            if character == "\\" || character == "%" || character == "_" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }

    /// An NSPredicate LIKE pattern as a SQL LIKE pattern: `*` is `%`, `?` is `_`, `\` makes
    /// the next character literal (a trailing `\` is itself literal), `%` and `_` are literal.
    static func likePattern(_ pattern: String) -> String {
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
