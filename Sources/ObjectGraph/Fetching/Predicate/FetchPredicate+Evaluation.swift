import Foundation

extension FetchPredicate {
    /// Whether the predicate holds for `object`, like `NSPredicate.evaluate(with:)`.
    ///
    /// `object` may be a managed object (or anything ``PredicateEvaluable``), a
    /// `[String: Any]` or `[String: Any?]` dictionary (a missing key is `nil`, nested
    /// dictionaries and arrays are followed), an array, or a plain value for predicates on
    /// `SELF` alone:
    ///
    /// ```swift
    /// try FetchPredicate(format: "SELF > 3").evaluate(with: 5)                      // true
    /// try FetchPredicate(format: "tags.@count == 2").evaluate(with: ["tags": ["a", "b"]])  // true
    /// ```
    ///
    /// - Throws: ``FetchPredicateError``: the error the predicate carries, an unknown key, an
    ///   unbound `$VARIABLE`, an unsupported construct, a type mismatch or a bad `MATCHES`
    ///   pattern. A constant `MATCHES` pattern that does not compile fails every evaluation,
    ///   whether or not `object` reaches it, as it fails every fetch.
    public func evaluate(with object: Any?) throws -> Bool {
        try evaluate(with: object, substitutionVariables: [:])
    }

    /// Whether the predicate holds for `object`, with `$VARIABLE`s bound to `variables`.
    ///
    /// A variable's value may be anything `evaluate(with:)` accepts as an object, so a
    /// variable can stand for a managed object whose keys are followed (`$owner.name`).
    ///
    /// - Throws: as ``evaluate(with:)``.
    public func evaluate(with object: Any?, substitutionVariables variables: [String: Any?]) throws -> Bool {
        let node = try validNode()
        do {
            try PredicateEvaluator.checkPatterns(node)
            let operand = try PredicateArgument.operand(from: object)
            var bound: [String: PredicateOperand] = [:]
            for (name, value) in variables { bound[name] = try PredicateArgument.operand(from: value) }
            return try PredicateEvaluator(variables: bound, format: predicateFormat).evaluate(node, on: operand)
        } catch {
            throw Self.predicateError(error, format: predicateFormat)
        }
    }

    /// Whether the predicate holds for `operand`: the entry point for contexts, which hold
    /// operands already.
    ///
    /// - Throws: as ``evaluate(with:)``.
    package func evaluate(operand: PredicateOperand, variables: [String: PredicateOperand] = [:]) throws -> Bool {
        let node = try validNode()
        do {
            try PredicateEvaluator.checkPatterns(node)
        } catch {
            throw Self.predicateError(error, format: predicateFormat)
        }
        return try PredicateEvaluator(variables: variables, format: predicateFormat).evaluate(node, on: operand)
    }
}
