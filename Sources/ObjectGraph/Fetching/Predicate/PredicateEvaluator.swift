import Foundation

/// Evaluates a predicate tree in memory against a ``PredicateOperand``.
///
/// This is the reference semantics the SQL compiler reproduces (two-valued logic; see
/// ``PredicateEvaluator/compare(_:on:)`` for comparisons). Key paths are walked through
/// ``PredicateEvaluable`` only:
///
/// - A key on an object asks the object (`predicateOperand(forKey:)`, whose unknown-key error
///   is thrown, never turned into `false`).
/// - A key on a collection applies to each element and flattens one level, so each to-many
///   step of a key path flattens once: `tags.photos.title` is one flat collection of titles.
/// - A key on `.null` is `.null`. A managed object's missing to-one destination is an object
///   whose identity is `.null` (it equals `nil`), whose attributes are `nil` and whose to-many
///   relationships are empty: `photographer.photos.title` is an empty collection for a photo
///   with no photographer (so `!=` does not hold, as `ANY` does not), as in SQL.
/// - A key on any other value is a type mismatch.
///
/// `AND` and `OR` short-circuit from left to right.
///
/// ```swift
/// let evaluator = PredicateEvaluator(variables: ["min": .value(.int(3))])
/// let matches = try evaluator.evaluate(node, on: .object(photo))
/// ```
package struct PredicateEvaluator {
    /// Values of `$VARIABLE`s, including a `SUBQUERY`'s iteration variable while it runs.
    package var variables: [String: PredicateOperand]
    /// The format string, added to errors that lack one.
    package var format: String?

    /// An evaluator with these variable bindings.
    package init(variables: [String: PredicateOperand] = [:], format: String? = nil) {
        self.variables = variables
        self.format = format
    }

    /// Whether `node` holds for `object` (`SELF`).
    ///
    /// - Throws: ``FetchPredicateError`` for an unknown key, an unbound variable, an
    ///   unsupported construct, a type mismatch or an invalid regular expression.
    package func evaluate(_ node: PredicateNode, on object: PredicateOperand) throws -> Bool {
        do {
            return try holds(node, on: object)
        } catch let error as FetchPredicateError {
            throw error.withFormat(format)
        }
    }

    /// The value of `expression` for `object`.
    ///
    /// - Throws: as ``evaluate(_:on:)``.
    package func operand(of expression: ExpressionNode, on object: PredicateOperand) throws -> PredicateOperand {
        do {
            return try value(of: expression, on: object)
        } catch let error as FetchPredicateError {
            throw error.withFormat(format)
        }
    }

    func holds(_ node: PredicateNode, on object: PredicateOperand) throws -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .not(let inner):
            return try !holds(inner, on: object)
        case .and(let parts):
            for part in parts where try !holds(part, on: object) { return false }
            return true
        case .or(let parts):
            for part in parts where try holds(part, on: object) { return true }
            return false
        case .comparison(let comparison):
            return try compare(comparison, on: object)
        case .unsupported(let text):
            throw FetchPredicateError.unsupported(text)
        }
    }

    func value(of expression: ExpressionNode, on object: PredicateOperand) throws -> PredicateOperand {
        switch expression {
        case .constant(let value):
            return PredicateArgument.operand(from: value)
        case .evaluatedObject:
            return object
        case .variable(let name):
            guard let bound = variables[name] else {
                throw FetchPredicateError(
                    kind: .missingVariable,
                    headline: "Missing substitution variable '$\(name)'",
                    detail: "give it with withSubstitutionVariables(_:) or evaluate(with:substitutionVariables:)",
                    token: "$" + name
                )
            }
            return bound
        case .keyPath(let base, let key):
            return try follow(key, from: try value(of: base, on: object))
        case .aggregate(let base, let function):
            return .value(try aggregate(function, of: try value(of: base, on: object)))
        case .array(let items):
            return .collection(try items.map { try value(of: $0, on: object) })
        case .subquery(let collectionExpression, let variable, let predicate):
            let collection = try elements(of: try value(of: collectionExpression, on: object), for: "SUBQUERY")
            var inner = self
            var kept: [PredicateOperand] = []
            for element in collection {
                inner.variables[variable] = element
                if try inner.holds(predicate, on: object) { kept.append(element) }
            }
            return .collection(kept)
        case .arithmetic(let op, let lhs, let rhs):
            return .value(try arithmetic(op, try value(of: lhs, on: object), try value(of: rhs, on: object)))
        case .index(let base, let selector):
            return try index(selector, of: try value(of: base, on: object), on: object)
        case .function(let function, let arguments):
            return try call(function, try arguments.map { try value(of: $0, on: object) })
        case .unsupported(let text):
            throw FetchPredicateError.unsupported(text)
        }
    }

    /// The value under `key` of `operand`, flattening collections one level.
    func follow(_ key: String, from operand: PredicateOperand) throws -> PredicateOperand {
        switch operand {
        case .object(let object):
            return try object.predicateOperand(forKey: key)
        case .value(.null):
            return .value(.null)
        case .value(.string(let string)) where key == "length":
            // NSString's and NSData's `length`, which key-value coding reads: UTF-16 units, bytes.
            return .value(.int(Int64(string.utf16.count)))
        case .value(.data(let data)) where key == "length":
            return .value(.int(Int64(data.count)))
        case .value(let value):
            throw FetchPredicateError.typeMismatch(
                "cannot read key '\(key)' of the value \(PredicateFormatter.format(value))"
            )
        case .collection(let items):
            var result: [PredicateOperand] = []
            result.reserveCapacity(items.count)
            for item in items {
                let next = try follow(key, from: item)
                if case .collection(let inner) = next {
                    result.append(contentsOf: inner)
                } else {
                    result.append(next)
                }
            }
            return .collection(result)
        }
    }

    /// Compiles every constant `MATCHES` pattern of `node` (the right side of the comparison),
    /// as the SQL compiler does, so that an invalid pattern is an error whether or not an
    /// object reaches it (`nil` values and short-circuits skip the comparison itself).
    ///
    /// - Throws: ``FetchPredicateError`` (invalid regular expression).
    package static func checkPatterns(_ node: PredicateNode) throws {
        switch node {
        case .constant, .unsupported: return
        case .not(let inner): try checkPatterns(inner)
        case .and(let parts), .or(let parts): for part in parts { try checkPatterns(part) }
        case .comparison(let comparison):
            if comparison.op == .matches, case .constant(.string(let pattern)) = comparison.rhs {
                _ = try StringComparison.matches("", regex: pattern, comparison.options)
            }
            try checkPatterns(comparison.lhs)
            try checkPatterns(comparison.rhs)
        }
    }

    private static func checkPatterns(_ expression: ExpressionNode) throws {
        switch expression {
        case .keyPath(let base, _), .aggregate(let base, _): try checkPatterns(base)
        case .arithmetic(_, let lhs, let rhs), .index(let lhs, .at(let rhs)):
            try checkPatterns(lhs)
            try checkPatterns(rhs)
        case .index(let base, _): try checkPatterns(base)
        case .function(_, let arguments): for argument in arguments { try checkPatterns(argument) }
        case .array(let items): for item in items { try checkPatterns(item) }
        case .subquery(let collection, _, let predicate):
            try checkPatterns(collection)
            try checkPatterns(predicate)
        case .constant, .evaluatedObject, .variable, .unsupported: return
        }
    }

    /// `collection[selector]`: an element (`nil` past either end, where NSExpression raises),
    /// the number of elements, or a dictionary's value under a string key.
    private func index(_ selector: IndexSelector, of collection: PredicateOperand, on object: PredicateOperand) throws -> PredicateOperand {
        var position: Value?
        if case .at(let expression) = selector {
            guard case .value(let value) = try self.value(of: expression, on: object) else {
                throw FetchPredicateError.typeMismatch("an index must be a number or a key, not an object or a collection")
            }
            if case .string(let key) = value, case .object = collection { return try follow(key, from: collection) }
            position = value
        }
        let elements = try self.elements(of: collection, for: "an index expression")
        switch selector {
        case .size: return .value(.int(Int64(elements.count)))
        case .first: return elements.first ?? .value(.null)
        case .last: return elements.last ?? .value(.null)
        case .at:
            switch position {
            case .int(let i)?: return elements.indices.contains(Int(i)) ? elements[Int(i)] : .value(.null)
            case .null?: return .value(.null)
            default:
                throw FetchPredicateError.typeMismatch("an index into a collection must be an integer, not \(PredicateFormatter.format(position ?? .null))")
            }
        }
    }

    /// The elements of a collection operand; `.null` has none; anything else is an error
    /// naming `use` (`ANY`, `SUBQUERY`, `@count`, …).
    func elements(of operand: PredicateOperand, for use: String) throws -> [PredicateOperand] {
        switch operand {
        case .collection(let items): return items
        case .value(.null): return []
        case .object(let object) where object.isMissingObject: return []
        case .value(let value):
            throw FetchPredicateError.typeMismatch("\(use) needs a collection, not \(PredicateFormatter.format(value))")
        case .object:
            throw FetchPredicateError.typeMismatch("\(use) needs a collection, not an object")
        }
    }
}
