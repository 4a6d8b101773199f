import Foundation

/// A recursive-descent parser for NSPredicate's format language.
///
/// Grammar, loosest first (NOT binds tighter than AND, AND tighter than OR):
///
/// ```
/// predicate   := and (("OR" | "||") and)*
/// and         := not (("AND" | "&&") not)*
/// not         := ("NOT" | "!") not | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison  := ["ANY" | "SOME" | "ALL" | "NONE"] expression operator ["[" c|d|n "]"] expression
/// expression  := arithmetic over postfix expressions
/// ```
///
/// Format specifiers are replaced by their arguments while parsing, so the tree holds
/// constants and key paths only; `$VARIABLE`s stay as variables.
struct PredicateParser {
    /// The deepest nesting of parentheses, `NOT`s and subexpressions the parser accepts.
    static let maximumDepth = 100

    let format: String
    var tokens: [PredicateToken]
    var index = 0
    var arguments: [Any?]
    var argumentIndex = 0
    var depth = 0

    /// Parses `format`, substituting `arguments` for its `%` specifiers.
    ///
    /// - Throws: ``FetchPredicateError`` (always that type) for a syntax error, an argument
    ///   count or type error.
    static func parse(_ format: String, arguments: [Any?]) throws -> PredicateNode {
        var parser = PredicateParser(format: format, tokens: PredicateLexer.tokenize(format), arguments: arguments)
        let node = try parser.parsePredicate()
        guard case .end = parser.current.kind else {
            throw parser.unexpected(parser.current, expected: "expected AND, OR or the end of the format")
        }
        if parser.argumentIndex < arguments.count {
            throw parser.error(
                .wrongArgumentCount,
                "Too many arguments",
                at: parser.current,
                detail: "the format uses \(parser.argumentIndex) but \(arguments.count) were given"
            )
        }
        return node
    }

    // MARK: Tokens

    var current: PredicateToken { tokens[index] }

    func peek(_ ahead: Int = 1) -> PredicateToken {
        tokens[min(index + ahead, tokens.count - 1)]
    }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    mutating func expectSymbol(_ symbol: String, _ context: String) throws {
        guard current.isSymbol(symbol) else { throw unexpected(current, expected: "expected '\(symbol)' \(context)") }
        advance()
    }

    /// Runs `body` one level deeper, refusing formats nested past ``maximumDepth``.
    mutating func nested<T>(_ body: (inout PredicateParser) throws -> T) throws -> T {
        guard depth < Self.maximumDepth else {
            throw error(.syntax, "Nesting too deep", at: current, detail: "at most \(Self.maximumDepth) levels")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    // MARK: Errors

    /// The 0-based character offset of the scalar at `scalarOffset` in the format.
    func characterPosition(_ scalarOffset: Int) -> Int {
        let scalars = format.unicodeScalars
        let index = scalars.index(scalars.startIndex, offsetBy: min(scalarOffset, scalars.count))
        return format.distance(from: format.startIndex, to: index)
    }

    func error(
        _ kind: FetchPredicateError.Kind,
        _ headline: String,
        at token: PredicateToken,
        detail: String = ""
    ) -> FetchPredicateError {
        FetchPredicateError(
            kind: kind,
            headline: headline,
            detail: detail,
            format: format,
            position: characterPosition(token.start),
            token: token.text
        )
    }

    /// The error for `token` where something else was expected (or the lexer's own error).
    func unexpected(_ token: PredicateToken, expected: String) -> FetchPredicateError {
        switch token.kind {
        case .invalid(let headline, let detail): return error(.syntax, headline, at: token, detail: detail)
        case .end: return error(.syntax, "Unexpected end of format", at: token, detail: expected)
        default: return error(.syntax, "Unexpected token '\(token.text)'", at: token, detail: expected)
        }
    }

    // MARK: Predicates

    mutating func parsePredicate() throws -> PredicateNode {
        var parts = [try parseAnd()]
        while current.isKeyword(.or) || current.isSymbol("||") {
            advance()
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    mutating func parseAnd() throws -> PredicateNode {
        var parts = [try parseNot()]
        while current.isKeyword(.and) || current.isSymbol("&&") {
            advance()
            parts.append(try parseNot())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    mutating func parseNot() throws -> PredicateNode {
        if current.isKeyword(.not) || current.isSymbol("!") {
            advance()
            return try nested { .not(try $0.parseNot()) }
        }
        if current.isKeyword(.truePredicate) || current.isKeyword(.falsePredicate) {
            let value = current.isKeyword(.truePredicate)
            advance()
            return .constant(value)
        }
        if current.isSymbol("("), parenthesisOpensPredicate() {
            advance()
            let inner = try nested { try $0.parsePredicate() }
            try expectSymbol(")", "to close the parenthesis")
            return inner
        }
        return try parseComparison()
    }

    /// Whether the `(` at the current token groups a predicate rather than an expression:
    /// it does unless its matching `)` is followed by an operator or a postfix.
    func parenthesisOpensPredicate() -> Bool {
        var level = 0
        var i = index
        while i < tokens.count {
            let token = tokens[i]
            switch token.kind {
            case .end, .invalid: return true
            case .symbol("("): level += 1
            case .symbol(")"):
                level -= 1
                if level == 0 {
                    let next = tokens[min(i + 1, tokens.count - 1)]
                    return !(Self.comparisonOperator(next) != nil || Self.isExpressionContinuation(next))
                }
            default: break
            }
            i += 1
        }
        return true
    }

    static func isExpressionContinuation(_ token: PredicateToken) -> Bool {
        guard case .symbol(let s) = token.kind else { return false }
        return [".", "[", "+", "-", "*", "/", "**"].contains(s)
    }

    /// What a comparison operator token means: a supported operator, or a UTI keyword.
    enum OperatorToken {
        case supported(ComparisonOperator)
        case uti(PredicateKeyword)
    }

    static func comparisonOperator(_ token: PredicateToken) -> OperatorToken? {
        switch token.kind {
        case .symbol("=="), .symbol("="): return .supported(.equal)
        case .symbol("!="), .symbol("<>"): return .supported(.notEqual)
        case .symbol("<"): return .supported(.lessThan)
        case .symbol("<="), .symbol("=<"): return .supported(.lessThanOrEqual)
        case .symbol(">"): return .supported(.greaterThan)
        case .symbol(">="), .symbol("=>"): return .supported(.greaterThanOrEqual)
        case .keyword(.in): return .supported(.in)
        case .keyword(.like): return .supported(.like)
        case .keyword(.matches): return .supported(.matches)
        case .keyword(.beginsWith): return .supported(.beginsWith)
        case .keyword(.endsWith): return .supported(.endsWith)
        case .keyword(.contains): return .supported(.contains)
        case .keyword(.between): return .supported(.between)
        case .keyword(.utiConformsTo): return .uti(.utiConformsTo)
        case .keyword(.utiEquals): return .uti(.utiEquals)
        default: return nil
        }
    }

    mutating func parseComparison() throws -> PredicateNode {
        var modifier = ComparisonModifier.direct
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .none
        default: break
        }
        if modifier != .direct { advance() }
        let lhs = try parseExpression()
        let operatorToken = current
        guard let op = Self.comparisonOperator(operatorToken) else {
            throw unexpected(current, expected: "expected a comparison operator")
        }
        advance()
        let options = try parseOptions()
        let rhsToken = current
        let rhs = try parseExpression()
        switch op {
        case .uti(let keyword):
            let prefix = modifier == .direct ? "" : "\(modifier.rawValue.uppercased()) "
            let text =
                "\(prefix)\(PredicateFormatter.format(lhs)) \(keyword.rawValue)"
                + "\(PredicateFormatter.format(options)) \(PredicateFormatter.format(rhs))"
            return .unsupported(text)
        case .supported(let op):
            if op == .between { try checkBetweenBounds(rhs, at: rhsToken) }
            return .comparison(ComparisonNode(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options))
        }
    }

    mutating func parseOptions() throws -> ComparisonOptions {
        guard current.isSymbol("[") else { return [] }
        advance()
        var options: ComparisonOptions = []
        guard case .identifier(let letters) = current.kind else {
            throw unexpected(current, expected: "expected comparison options such as c, d, cd or n")
        }
        for letter in letters {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            default:
                throw error(.syntax, "Unknown comparison option '\(letter)'", at: current, detail: "expected c, d or n")
            }
        }
        advance()
        try expectSymbol("]", "to close the comparison options")
        return options
    }

    func checkBetweenBounds(_ rhs: ExpressionNode, at token: PredicateToken) throws {
        let count: Int
        switch rhs {
        case .constant(.array(let values)): count = values.count
        case .array(let items): count = items.count
        case .constant: count = -1
        default: return
        }
        if count != 2 {
            throw error(.syntax, "Invalid BETWEEN bounds", at: token, detail: "expected {low, high}")
        }
    }
}
