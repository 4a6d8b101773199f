// Temporary stand-in until the predicate parser lands (replaced at merge).
import Foundation

public struct FetchPredicate: Sendable, Hashable {
    package var node: PredicateNode?
    package var error: FetchPredicateError?
    package init(node: PredicateNode) { self.node = node }
    public init(value: Bool) { node = .constant(value) }
}

public struct FetchPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public static func unknownKey(_ key: String, entity: String, format: String?) -> FetchPredicateError {
        FetchPredicateError(message: "unknown key '\(key)' on entity '\(entity)'")
    }
}
extension FetchPredicate {
    public func evaluate(with object: Any?) throws -> Bool { false }
    public func withSubstitutionVariables(_ variables: [String: Any?]) -> FetchPredicate { self }
}
package enum StringComparison {
    package static func fold(_ s: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return s.folding(options: folding, locale: nil).precomposedStringWithCanonicalMapping
    }
}
extension StringComparison {
    package static func beginsWith(_ s: String, _ t: String, _ o: ComparisonOptions) -> Bool { fold(s, o).hasPrefix(fold(t, o)) }
    package static func endsWith(_ s: String, _ t: String, _ o: ComparisonOptions) -> Bool { fold(s, o).hasSuffix(fold(t, o)) }
    package static func contains(_ s: String, _ t: String, _ o: ComparisonOptions) -> Bool { fold(s, o).contains(fold(t, o)) }
    package static func like(_ s: String, pattern: String, _ o: ComparisonOptions) -> Bool { false }
    package static func matches(_ s: String, regex: String, _ o: ComparisonOptions) throws -> Bool { false }
}
