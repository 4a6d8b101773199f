import Foundation

/// Expressions: arithmetic, postfix key paths and aggregates, primaries.
extension PredicateParser {
    mutating func parseExpression() throws -> ExpressionNode {
        try nested { try $0.parseBinary(level: 0) }
    }

    private static let arithmeticLevels: [[String]] = [["+", "-"], ["*", "/"], ["**"]]

    /// Arithmetic, left-associative, `**` tightest.
    private mutating func parseBinary(level: Int) throws -> ExpressionNode {
        guard level < Self.arithmeticLevels.count else { return try parseUnary() }
        var lhs = try parseBinary(level: level + 1)
        while case .symbol(let s) = current.kind, Self.arithmeticLevels[level].contains(s),
            let op = ArithmeticOperator(rawValue: s)
        {
            advance()
            let rhs = try parseBinary(level: level + 1)
            lhs = .arithmetic(op, lhs, rhs)
        }
        return lhs
    }

    private mutating func parseUnary() throws -> ExpressionNode {
        guard current.isSymbol("-") else { return try parsePostfix(try parsePrimary()) }
        advance()
        if case .number(let digits, let radix) = current.kind {
            let token = current
            advance()
            return try parsePostfix(.constant(try number(digits, radix: radix, negative: true, at: token)))
        }
        let operand = try nested { try $0.parseUnary() }
        switch operand {
        case .constant(.int(let i)) where i != .min: return .constant(.int(-i))
        case .constant(.double(let d)): return .constant(.double(-d))
        case .constant(.decimal(let d)): return .constant(.decimal(-d))
        default: return .arithmetic(.subtract, .constant(.int(0)), operand)
        }
    }

    /// Parses `.key`, `.@count`, `.@sum.key`, `[index]` and `.method(…)` after `base`.
    mutating func parsePostfix(_ base: ExpressionNode) throws -> ExpressionNode {
        var expression = base
        while true {
            if current.isSymbol("[") {
                advance()
                let selector: IndexSelector
                switch current.kind {
                case .keyword(.first), .keyword(.last), .keyword(.size):
                    selector = current.kind == .keyword(.first) ? .first : current.kind == .keyword(.last) ? .last : .size
                    advance()
                default:
                    selector = .at(try parseExpression())
                }
                try expectSymbol("]", "to close the index")
                expression = .index(expression, selector)
                continue
            }
            guard current.isSymbol(".") else { return expression }
            advance()
            if case .atKeyword(let name) = current.kind {
                advance()
                expression = try parseAggregate(name, base: expression)
                continue
            }
            guard let key = keyName(current) else { throw unexpected(current, expected: "expected a key after '.'") }
            advance()
            if current.isSymbol("(") {
                let arguments = try parseCallArguments()
                let receiver = PredicateFormatter.postfixBase(expression)
                expression = .unsupported("\(receiver).\(PredicateFormatter.formatKey(key))(\(arguments))")
            } else {
                expression = .keyPath(expression, key)
            }
        }
    }

    /// The key a token names after a `.`: an identifier, or a word that is otherwise reserved.
    func keyName(_ token: PredicateToken) -> String? {
        switch token.kind {
        case .identifier(let name): return name
        case .keyword(let keyword) where !keyword.rawValue.contains("-"):
            return token.text.precomposed
        default: return nil
        }
    }

    /// `@name` after `base`; the keys that follow fold into the aggregated collection.
    mutating func parseAggregate(_ name: String, base: ExpressionNode) throws -> ExpressionNode {
        var keys: [String] = []
        while current.isSymbol("."), let key = keyName(peek()) {
            advance()
            keys.append(key)
            advance()
        }
        return Self.aggregate(name, base: base, keys: keys)
    }

    /// `base.@name.keys…` as a tree: a supported aggregate, or an unsupported `@operator`.
    static func aggregate(_ name: String, base: ExpressionNode, keys: [String]) -> ExpressionNode {
        guard let function = AggregateFunction(rawValue: "@" + name.lowercased()) else {
            let tail = keys.map { "." + PredicateFormatter.formatKey($0) }.joined()
            return .unsupported("\(PredicateFormatter.postfixBase(base)).@\(name)\(tail)")
        }
        return .aggregate(keys.reduce(base) { .keyPath($0, $1) }, function)
    }

    /// `name(arguments…)`: a built-in function of NSExpression (arithmetic ones as arithmetic);
    /// another name is kept as an unsupported call, refused when evaluated.
    ///
    /// - Throws: a syntax error naming the function when the count of arguments is not the
    ///   one its name says.
    private mutating func parseFunctionCall(_ name: String, at token: PredicateToken) throws -> ExpressionNode {
        let function = PredicateFunction.named(name)
        let op = PredicateFunction.arithmetic(named: name)
        guard function != nil || op != nil else {
            let callee = name.hasSuffix(":") ? name : PredicateFormatter.formatKey(name)
            return .unsupported("\(callee)(\(try parseCallArguments()))")
        }
        try expectSymbol("(", "to open the arguments")
        let arguments = try parseExpressions(before: ")")
        let expected = function?.arity ?? 2
        guard arguments.count == expected else {
            throw error(
                .syntax,
                "Wrong number of arguments to '\(function?.rawValue ?? name)'",
                at: token,
                detail: "it takes \(expected), not \(arguments.count)"
            )
        }
        try expectSymbol(")", "to close the arguments of '\(name)'")
        if let op { return .arithmetic(op, arguments[0], arguments[1]) }
        return .function(function!, arguments)
    }

    /// `( expression, … )` as printed text, for unsupported calls.
    mutating func parseCallArguments() throws -> String {
        try expectSymbol("(", "to open the arguments")
        let arguments = try parseExpressions(before: ")")
        try expectSymbol(")", "to close the arguments")
        return arguments.map(PredicateFormatter.format).joined(separator: ", ")
    }

    /// `expression, …` up to (not including) `closing`; none when `closing` comes first.
    private mutating func parseExpressions(before closing: String) throws -> [ExpressionNode] {
        var expressions: [ExpressionNode] = []
        guard !current.isSymbol(closing) else { return expressions }
        expressions.append(try parseExpression())
        while current.isSymbol(",") {
            advance()
            expressions.append(try parseExpression())
        }
        return expressions
    }

    mutating func parsePrimary() throws -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number(let digits, let radix):
            advance()
            return .constant(try number(digits, radix: radix, negative: false, at: token))
        case .string(let value):
            advance()
            return .constant(.string(value))
        case .variable(let name):
            advance()
            guard current.isSymbol(":=") else { return .variable(name) }
            advance()
            let value = try parseExpression()
            return .unsupported("$\(name) := \(PredicateFormatter.format(value))")
        case .specifier(let specifier):
            advance()
            return try argument(for: specifier, at: token)
        case .identifier(let name):
            advance()
            guard current.isSymbol("(") else {
                if name.hasSuffix(":") {
                    throw unexpected(current, expected: "expected '(' and the arguments of the function '\(name)'")
                }
                return .keyPath(.evaluatedObject, name)
            }
            return try parseFunctionCall(name, at: token)
        case .atKeyword(let name):
            advance()
            return try parseAggregate(name, base: .evaluatedObject)
        case .keyword(let keyword):
            return try parseKeywordPrimary(keyword, token)
        case .symbol("{"):
            advance()
            return try nested { try $0.parseArrayLiteral() }
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expectSymbol(")", "to close the parenthesis")
            return inner
        default:
            throw unexpected(token, expected: "expected a value")
        }
    }

    private mutating func parseKeywordPrimary(
        _ keyword: PredicateKeyword,
        _ token: PredicateToken
    ) throws
        -> ExpressionNode
    {
        switch keyword {
        case .self:
            advance()
            return .evaluatedObject
        case .nil, .null:
            advance()
            return .constant(.null)
        case .yes, .true:
            advance()
            return .constant(.bool(true))
        case .no, .false:
            advance()
            return .constant(.bool(false))
        case .first, .last, .size:
            advance()
            return .keyPath(.evaluatedObject, token.text.precomposed)
        case .anyKey:
            advance()
            return .unsupported("ANYKEY")
        case .function:
            advance()
            return .unsupported("FUNCTION(\(try parseCallArguments()))")
        case .subquery:
            advance()
            return try nested { try $0.parseSubquery() }
        case .cast:
            advance()
            return try parseCast(at: token)
        default:
            throw unexpected(token, expected: "expected a value")
        }
    }

    private mutating func parseArrayLiteral() throws -> ExpressionNode {
        let items = try parseExpressions(before: "}")
        try expectSymbol("}", "to close the collection")
        return Self.foldedArray(items)
    }

    /// `{…}` whose items are all constants becomes one `.constant(.array(…))`, as an array
    /// argument does, so both print and compare alike.
    static func foldedArray(_ items: [ExpressionNode]) -> ExpressionNode {
        var values: [Value] = []
        for item in items {
            guard case .constant(let value) = item else { return .array(items) }
            values.append(value)
        }
        return .constant(.array(values))
    }

    private mutating func parseSubquery() throws -> ExpressionNode {
        try expectSymbol("(", "after SUBQUERY")
        let collection = try parseExpression()
        try expectSymbol(",", "after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw unexpected(current, expected: "expected the SUBQUERY variable, such as $x")
        }
        advance()
        try expectSymbol(",", "after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expectSymbol(")", "to close the SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }
}
