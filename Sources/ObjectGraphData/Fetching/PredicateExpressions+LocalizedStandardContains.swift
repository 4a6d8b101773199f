public import Foundation

extension PredicateExpressions {
    /// `text.localizedStandardContains(other)` in a `#Predicate`: what Apple's Foundation has
    /// and Linux Foundation lacks, so that SwiftData predicates such as
    /// `#Predicate<Tag> { $0.name.localizedStandardContains("hoo") }` compile unchanged.
    ///
    /// In memory it calls `localizedStandardContains`; in the store it is `CONTAINS[cd]`
    /// (case- and diacritic-insensitive).
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// A Boolean.
        public typealias Output = Bool
        /// The text searched.
        public let root: Root
        /// The text looked for.
        public let other: Other

        /// The expression `root.localizedStandardContains(other)`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Whether the text contains the other, ignoring case and diacritics.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(other.evaluate(bindings))
        }
    }

    /// Builds `root.localizedStandardContains(other)`; called by the `#Predicate` macro.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {
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

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension String.StandardComparator {
    /// The Finder-like order SwiftData sorts by with `comparator: .localizedStandard`
    /// (case-insensitive, numbers by value); Apple's Foundation has it, Linux Foundation not.
    ///
    /// A fetch sorts by it in the store with ObjectGraph's `localizedStandardCompare:`.
    public static let localizedStandard: String.StandardComparator = comparator(options: 833, localized: true)

    /// The order of the user's locale, as Apple's `String.StandardComparator.localized`.
    public static let localized: String.StandardComparator = comparator(options: 0, localized: true)

    /// A comparator with `options` (`String.CompareOptions` raw value), made by decoding since
    /// its initializer is not public.
    private static func comparator(options: Int, localized: Bool) -> String.StandardComparator {
        let json = #"{"options":\#(options),"isLocalized":\#(localized),"order":true}"#
        return (try? JSONDecoder().decode(String.StandardComparator.self, from: Data(json.utf8))) ?? .lexical
    }
}
