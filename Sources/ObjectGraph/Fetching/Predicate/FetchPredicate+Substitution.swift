import Foundation

/// `$VARIABLE` substitution, as `NSPredicate.withSubstitutionVariables(_:)`.
extension FetchPredicate {
    /// A copy with each `$NAME` in `variables` replaced by its value.
    ///
    /// Values convert as `%@` arguments do; variables not in `variables` stay (and make
    /// evaluation fail unless bound then), as does a `SUBQUERY`'s own iteration variable.
    /// A value with no predicate form makes the copy carry an error.
    ///
    /// ```swift
    /// let template = FetchPredicate(format: "views > $MIN AND title BEGINSWITH $PREFIX")
    /// let p = template.withSubstitutionVariables(["MIN": 100, "PREFIX": "Quad"])
    /// p.predicateFormat   // views > 100 AND title BEGINSWITH "Quad"
    /// ```
    public func withSubstitutionVariables(_ variables: [String: Any?]) -> FetchPredicate {
        guard let node else { return self }
        var values: [String: Value] = [:]
        for (name, raw) in variables {
            guard let value = PredicateArgument.value(from: raw) else {
                let error = FetchPredicateError(
                    kind: .wrongArgumentType,
                    headline: "Wrong type for substitution variable '$\(name)'",
                    detail: "a \(PredicateArgument.typeName(raw)) is not a predicate value",
                    format: predicateFormat,
                    token: "$" + name
                )
                return FetchPredicate(error: error, format: predicateFormat)
            }
            values[name] = value
        }
        return FetchPredicate(node: Self.substitute(node, values, shadowed: []))
    }

    static func substitute(_ node: PredicateNode, _ values: [String: Value], shadowed: Set<String>) -> PredicateNode {
        switch node {
        case .constant, .unsupported: return node
        case .not(let inner): return .not(substitute(inner, values, shadowed: shadowed))
        case .and(let parts): return .and(parts.map { substitute($0, values, shadowed: shadowed) })
        case .or(let parts): return .or(parts.map { substitute($0, values, shadowed: shadowed) })
        case .comparison(var comparison):
            comparison.lhs = substitute(comparison.lhs, values, shadowed: shadowed)
            comparison.rhs = substitute(comparison.rhs, values, shadowed: shadowed)
            return .comparison(comparison)
        }
    }

    static func substitute(
        _ expression: ExpressionNode,
        _ values: [String: Value],
        shadowed: Set<String>
    )
        -> ExpressionNode
    {
        switch expression {
        case .constant, .evaluatedObject, .unsupported:
            return expression
        case .variable(let name):
            guard !shadowed.contains(name), let value = values[name] else { return expression }
            return .constant(value)
        case .keyPath(let base, let key):
            return .keyPath(substitute(base, values, shadowed: shadowed), key)
        case .aggregate(let base, let function):
            return .aggregate(substitute(base, values, shadowed: shadowed), function)
        case .index(let base, let selector):
            guard case .at(let position) = selector else { return .index(substitute(base, values, shadowed: shadowed), selector) }
            return .index(substitute(base, values, shadowed: shadowed), .at(substitute(position, values, shadowed: shadowed)))
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, substitute(lhs, values, shadowed: shadowed), substitute(rhs, values, shadowed: shadowed))
        case .function(let function, let arguments):
            return .function(function, arguments.map { substitute($0, values, shadowed: shadowed) })
        case .array(let items):
            return PredicateParser.foldedArray(items.map { substitute($0, values, shadowed: shadowed) })
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: substitute(collection, values, shadowed: shadowed),
                variable: variable,
                predicate: substitute(predicate, values, shadowed: shadowed.union([variable]))
            )
        }
    }
}
