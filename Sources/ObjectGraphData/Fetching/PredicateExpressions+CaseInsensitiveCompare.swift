public import Foundation

extension PredicateExpressions {
    /// `text.caseInsensitiveCompare(other)` in a `#Predicate`: Apple's Foundation has it,
    /// Linux Foundation lacks it, so that SwiftData predicates such as
    /// `#Predicate<Tag> { $0.name.caseInsensitiveCompare(name) == same }`
    /// compile unchanged. (`#Predicate` takes no `.orderedSame` without its type, nor
    /// `ComparisonResult.orderedSame` inside; capture it: `let same = ComparisonResult.orderedSame`.)
    ///
    /// In memory it calls `caseInsensitiveCompare`; compared `==` or `!=` with `.orderedSame`
    /// in a fetch, it is the store's `==[c]` / `!=[c]`.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// How the texts order, ignoring case.
        public typealias Output = ComparisonResult
        /// The text compared.
        public let root: Root
        /// The text compared with.
        public let other: Other

        /// The expression `root.caseInsensitiveCompare(other)`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// How the texts order, ignoring case.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).caseInsensitiveCompare(other.evaluate(bindings))
        }
    }

    /// Builds `root.caseInsensitiveCompare(other)`; called by the `#Predicate` macro.
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}

extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {
    private enum CodingKeys: String, CodingKey { case root, other }

    /// Decodes both operands.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        root = try container.decode(Root.self, forKey: .root)
        other = try container.decode(Other.self, forKey: .other)
    }

    /// Encodes both operands.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(root, forKey: .root)
        try container.encode(other, forKey: .other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
