import Foundation

/// Dictionaries with string keys evaluate like objects: `["title": "Quad", "tags": [...]]`.
///
/// A missing key is `.null`; a nested `[String: …]` dictionary is an object whose keys can be
/// followed (`author.name`); arrays and sets are collections (so `tags.@count`,
/// `ANY tags.name == "x"` and `SUBQUERY(tags, …)` work); other values convert as
/// ``PredicateArgument`` describes. Works for `[String: Any]`, `[String: Any?]` and any
/// other `[String: V]`.
extension Dictionary: PredicateEvaluable where Key == String {
    /// The operand under `key`; `.null` when the key is missing.
    ///
    /// - Throws: ``FetchPredicateError`` (type mismatch) for a value with no predicate form.
    package func predicateOperand(forKey key: String) throws -> PredicateOperand {
        guard let value = self[key] else { return .value(.null) }
        return try PredicateArgument.operand(from: value as Any)
    }

    /// A dictionary has no identity: it equals no object ID, and is never null.
    package var predicateIdentity: ObjectGraph.Value { .null }
}
