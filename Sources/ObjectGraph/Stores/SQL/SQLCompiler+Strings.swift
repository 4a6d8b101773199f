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
    ///   `MATCHES[d]`, LIKE with a key-path pattern, `[d]` without `unaccent`).
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
            if options.contains(.diacriticInsensitive) {
                throw NeedsInMemoryEvaluation(reason: "MATCHES[d] has no PostgreSQL form")
            }
            // MATCHES is the whole string; `~` searches, so the pattern is anchored.
            let pattern: String
            switch right {
            case .constant(let regex): pattern = bind(.text("^(?:" + regex + ")$"))
            case .expression(let sql, _): pattern = "('^(?:' || \(sql) || ')$')"
            }
            return "\(plain(left)) \(options.contains(.caseInsensitive) ? "~*" : "~") \(pattern)"
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
    /// `lower()` and `unaccent()` in PostgreSQL.
    func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        let options = options.subtracting(.normalized)
        if options.isEmpty { return sql }
        switch dialect.database {
        case .sqlite:
            return "\(SQLiteFunctions.fold)(\(sql), \(options.rawValue))"
        case .postgreSQL:
            let unaccented = options.contains(.diacriticInsensitive) ? "unaccent(\(sql))" : sql
            return options.contains(.caseInsensitive) ? "lower(\(unaccented))" : unaccented
        }
    }

    /// - Throws: ``NeedsInMemoryEvaluation`` when the dialect cannot fold as `options` ask.
    func requireFolding(_ options: ComparisonOptions) throws {
        if dialect.database == .postgreSQL, options.contains(.diacriticInsensitive), !dialect.hasUnaccent {
            throw NeedsInMemoryEvaluation(reason: "[d] needs PostgreSQL's unaccent extension")
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

    /// A string sort key for `selector`: SQLite's registered collations; in PostgreSQL,
    /// `lower()` for the case-insensitive selectors, ICU's root collation for the localized
    /// ones and Unicode scalar order (`"C"`) for `compare:`.
    func sortKey(_ sql: String, _ selector: FetchSortDescriptor.Selector) -> String {
        switch dialect.database {
        case .sqlite:
            guard let collation = SQLiteFunctions.collation(for: selector) else { return sql }
            return "\(sql) COLLATE \(collation)"
        case .postgreSQL:
            switch selector {
            case .caseInsensitiveCompare: return "lower(\(sql)) COLLATE \"C\""
            case .localizedCompare: return "\(sql) COLLATE \"und-x-icu\""
            case .localizedCaseInsensitiveCompare: return "lower(\(sql)) COLLATE \"und-x-icu\""
            case .localizedStandardCompare: return "lower(\(sql)) COLLATE \"\(SQLDialect.postgreSQLNumericCollation)\""
            default: return "\(sql) COLLATE \"C\""
            }
        }
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
