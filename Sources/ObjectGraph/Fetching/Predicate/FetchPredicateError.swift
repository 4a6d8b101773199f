import Foundation

/// Why a predicate could not be parsed, substituted or evaluated.
///
/// Core Data raises an Objective-C exception for a bad format; ObjectGraph reports a value
/// instead. A predicate made with ``FetchPredicate/init(format:_:)`` carries its error
/// (see ``FetchPredicate/parseError``) and every evaluation or fetch with it throws it;
/// ``FetchPredicate/init(parsing:_:)`` throws it at once.
///
/// The error says what went wrong, where and with which token:
///
/// ```swift
/// do {
///     _ = try FetchPredicate(parsing: "title == AND views > 3")
/// } catch let error as FetchPredicateError {
///     print(error)
///     // Unexpected token 'AND' at position 9 (column 10) in "title == AND views > 3": expected a value
///     error.kind      // .syntax
///     error.position  // 9
///     error.token     // "AND"
/// }
/// ```
public struct FetchPredicateError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The category of a ``FetchPredicateError``; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case syntax = "syntax error"
            case unknownKey = "unknown key"
            case unsupported = "unsupported construct"
            case missingVariable = "missing substitution variable"
            case wrongArgumentCount = "wrong argument count"
            case wrongArgumentType = "wrong argument type"
            case typeMismatch = "type mismatch"
            case invalidRegularExpression = "invalid regular expression"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The format does not follow the predicate grammar.
        public static let syntax = Kind(.syntax)
        /// A key path names a key the evaluated entity does not have.
        public static let unknownKey = Kind(.unknownKey)
        /// The construct parses but needs the Objective-C runtime (`FUNCTION`, `ANYKEY`, …).
        public static let unsupported = Kind(.unsupported)
        /// A `$VARIABLE` had no value when the predicate was evaluated.
        public static let missingVariable = Kind(.missingVariable)
        /// The format's specifiers and the arguments given do not pair up.
        public static let wrongArgumentCount = Kind(.wrongArgumentCount)
        /// An argument cannot stand where its specifier is (or is no predicate value at all).
        public static let wrongArgumentType = Kind(.wrongArgumentType)
        /// An operand is not of a kind the operation takes (`ANY` on a string, …).
        public static let typeMismatch = Kind(.typeMismatch)
        /// The pattern of a `MATCHES` comparison is not a valid regular expression.
        public static let invalidRegularExpression = Kind(.invalidRegularExpression)

        /// A readable name, such as `syntax error`.
        public var description: String { base.rawValue }
    }

    /// The category of the error.
    public let kind: Kind
    /// The headline, such as `Unexpected token 'AND'`, before the location is added.
    public let headline: String
    /// The explanation after the location, such as `expected a value`; may be empty.
    public let detail: String
    /// The format string the error is about, when known.
    public let format: String?
    /// The 0-based character (grapheme) offset in ``format`` where the error was found;
    /// equal to the format's length at its end; `nil` for errors met after parsing.
    public let position: Int?
    /// The offending token's text (`""` at the end of the format), when there is one.
    public let token: String?

    /// Makes an error; ``message`` is assembled from the parts.
    package init(
        kind: Kind,
        headline: String,
        detail: String = "",
        format: String? = nil,
        position: Int? = nil,
        token: String? = nil
    ) {
        self.kind = kind
        self.headline = headline
        self.detail = detail
        self.format = format
        self.position = position
        self.token = token
    }

    /// The full human message: headline, position (with its 1-based column), format, detail.
    public var message: String {
        var text = headline
        if let position { text += " at position \(position) (column \(position + 1))" }
        if let format { text += " in \"\(format)\"" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    /// The same as ``message``.
    public var description: String { message }

    /// The error the model layer reports when a key path names a key the entity lacks.
    ///
    /// - Parameters:
    ///   - key: The unknown key.
    ///   - entity: The name of the entity that was asked for it.
    ///   - format: The predicate format, when known (the evaluator fills it in otherwise).
    public static func unknownKey(_ key: String, entity: String, format: String? = nil) -> FetchPredicateError {
        FetchPredicateError(
            kind: .unknownKey,
            headline: "Unknown key '\(key)'",
            detail: "entity '\(entity)' has no such property",
            format: format,
            token: key
        )
    }

    /// The error for a construct that parses but cannot run without the Objective-C runtime.
    ///
    /// - Parameters:
    ///   - construct: The construct as printed in ``FetchPredicate/predicateFormat``.
    ///   - format: The predicate format, when known.
    package static func unsupported(_ construct: String, format: String? = nil) -> FetchPredicateError {
        FetchPredicateError(
            kind: .unsupported,
            headline: "Unsupported construct '\(construct)'",
            detail: "unsupported: needs the Objective-C runtime",
            format: format,
            token: construct
        )
    }

    /// A type-mismatch error met while evaluating.
    package static func typeMismatch(_ detail: String, format: String? = nil) -> FetchPredicateError {
        FetchPredicateError(kind: .typeMismatch, headline: "Type mismatch", detail: detail, format: format)
    }

    /// This error with its ``format`` filled in, if it had none.
    package func withFormat(_ format: String?) -> FetchPredicateError {
        guard self.format == nil, let format else { return self }
        return FetchPredicateError(
            kind: kind,
            headline: headline,
            detail: detail,
            format: format,
            position: position,
            token: token
        )
    }
}
