import Foundation
import Synchronization

/// Compiled `MATCHES` patterns, shared by all threads.
///
/// A pattern is compiled as `\A(?:pattern)\z` (whole-string match) after checking that it
/// compiles on its own, so an unbalanced pattern cannot change meaning once wrapped. The
/// cache holds at most ``capacity`` expressions and empties itself when full.
// `storage` holds NSRegularExpression, immutable and documented thread-safe for matching.
final class RegularExpressionCache: Sendable {
    /// The process-wide cache.
    static let shared = RegularExpressionCache()

    /// How many compiled expressions the cache keeps.
    let capacity = 256

    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    private let storage = Mutex<[Key: NSRegularExpression]>([:])

    /// The compiled whole-string expression for `pattern`.
    ///
    /// - Throws: ``FetchPredicateError`` (invalid regular expression) if it does not compile.
    func expression(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = storage.withLock({ $0[key] }) { return cached }
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        let expression: NSRegularExpression
        do {
            _ = try NSRegularExpression(pattern: pattern, options: options)
            expression = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
        } catch {
            throw FetchPredicateError(
                kind: .invalidRegularExpression,
                headline: "Invalid regular expression",
                detail: "the MATCHES pattern \(PredicateFormatter.quoted(pattern)) does not compile",
                token: pattern
            )
        }
        storage.withLock { storage in
            if storage.count >= capacity { storage.removeAll(keepingCapacity: true) }
            storage[key] = expression
        }
        return expression
    }
}
