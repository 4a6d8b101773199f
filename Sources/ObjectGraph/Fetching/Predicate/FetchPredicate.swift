import Foundation

/// A logical condition on objects, written in NSPredicate's format language: Core Data's
/// `NSPredicate`, named so that it does not clash with Foundation's `Predicate`.
///
/// ```swift
/// let recent = FetchPredicate(format: "views > %d AND ANY tags.name ==[cd] %@", 100, "Quad")
/// request.predicate = recent
/// try recent.evaluate(with: ["views": 120, "tags": [["name": "quad"]]])   // true
/// ```
///
/// As in Core Data, ``init(format:_:)`` does not throw: a bad format makes the predicate
/// carry its error (``parseError``), and every evaluation or fetch with it throws that error.
/// Use ``init(parsing:_:)`` to throw at once. The format's `%@`, `%K`, `%d`… are substituted
/// when the predicate is made, so the predicate is an immutable, `Sendable` value;
/// `$VARIABLE`s are bound later with ``withSubstitutionVariables(_:)`` or at evaluation.
///
/// Semantics are NSPredicate's with two-valued logic: `x == nil` holds iff `x` is null,
/// `x != 5` holds for a null `x`, ordering and string operators are false on null. A key
/// path through a to-many relationship yields a collection, and a comparison on a
/// collection without `ANY`/`ALL`/`NONE` means `ANY` (except `CONTAINS`, which tests
/// membership).
///
/// The grammar is NSPredicate's: comparisons `==` `!=` `<` `<=` `>` `>=` (and `=`, `<>`,
/// `=<`, `=>`), `BETWEEN`, `IN`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`
/// with `[c]`, `[d]`, `[cd]`, `[n]`; `AND`/`&&`, `OR`/`||`, `NOT`/`!` (NOT binds tightest,
/// then AND, then OR); `ANY`/`SOME`, `ALL`, `NONE`; key paths with `#`-escaped reserved
/// words; `@count`, `@sum`, `@avg`, `@min`, `@max`; `SUBQUERY(collection, $x, predicate)`;
/// `SELF`; string, number (`0x`, `0o`, `0b`, exponents), `nil`, `YES`/`NO`, `{…}` literals;
/// `$VARIABLE`s; and `%@`, `%K`, `%d`, `%f`-style specifiers. Keywords are case-insensitive.
/// Arithmetic (`+`, `-`, `*`, `/`, `**`, a unary minus), a string's or data's `length` and
/// `array[index]`, `[FIRST]`, `[LAST]`, `[SIZE]`, `dictionary["key"]`
/// evaluate as NSExpression computes them (a fetch evaluates them in memory).
/// `FUNCTION(…)`, `ANYKEY`, `UTI-CONFORMS-TO` and method calls
/// parse, but evaluating (or fetching with) them throws an `unsupported` error: they need
/// the Objective-C runtime.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The parsed tree; `nil` when the predicate carries an error.
    package let node: PredicateNode?
    /// The error the predicate carries; `nil` when valid.
    package let error: FetchPredicateError?
    private let source: String

    /// A predicate from a tree built in code (the SQL compiler's and compound predicates').
    package init(node: PredicateNode) {
        self.node = node
        self.error = nil
        self.source = PredicateFormatter.format(node)
    }

    /// A predicate carrying `error`.
    package init(error: FetchPredicateError, format: String) {
        self.node = nil
        self.error = error
        self.source = format
    }

    /// Parses `format`, substituting `arguments` for its `%@`, `%K`, `%d`… specifiers.
    ///
    /// Never fails: a bad format, a missing argument or an argument with no predicate form
    /// makes the predicate carry the error (see ``parseError``).
    public init(format: String, _ arguments: Any?...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// Parses `format` with an array of arguments (`nil` means none), like
    /// `NSPredicate(format:argumentArray:)`.
    public init(format: String, argumentArray: [Any?]?) {
        do {
            self.init(node: try PredicateParser.parse(format, arguments: argumentArray ?? []))
        } catch {
            self.init(error: Self.predicateError(error, format: format), format: format)
        }
    }

    /// Parses `format`, throwing at once if it is not a valid predicate.
    ///
    /// - Throws: ``FetchPredicateError`` with the position and token of the problem.
    public init(parsing format: String, _ arguments: Any?...) throws {
        try self.init(parsing: format, argumentArray: arguments)
    }

    /// Parses `format` with an array of arguments, throwing at once if it is not valid.
    ///
    /// - Throws: ``FetchPredicateError`` with the position and token of the problem.
    public init(parsing format: String, argumentArray: [Any?]) throws {
        self.init(format: format, argumentArray: argumentArray)
        if let error { throw error }
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        self.init(node: .constant(value))
    }

    /// The format string, printed back from the parsed tree in canonical form (it parses to
    /// the same predicate); for a predicate carrying an error, the format it was given.
    public var predicateFormat: String {
        source
    }

    /// The same as ``predicateFormat``.
    public var description: String { predicateFormat }

    /// The error that made this predicate invalid, or `nil` when it is valid.
    public var parseError: FetchPredicateError? { error }

    /// The tree, or the error the predicate carries.
    ///
    /// - Throws: ``error`` when the predicate is invalid.
    package func validNode() throws -> PredicateNode {
        if let error { throw error }
        return node ?? .constant(false)
    }

    /// Any error as a ``FetchPredicateError`` about `format`.
    static func predicateError(_ error: any Error, format: String?) -> FetchPredicateError {
        if let error = error as? FetchPredicateError { return error.withFormat(format) }
        return FetchPredicateError(kind: .syntax, headline: "\(error)", format: format)
    }

    /// Whether two predicates have the same tree (so `a == 1` equals `a = 1`), or carry
    /// the same error.
    public static func == (lhs: FetchPredicate, rhs: FetchPredicate) -> Bool {
        lhs.node == rhs.node && lhs.error == rhs.error
    }

    /// Hashes the tree (or the error), consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(node)
        hasher.combine(error)
    }
}

/// Core Data's `NSCompoundPredicate`: the same type, so
/// `NSCompoundPredicate(andPredicateWithSubpredicates: […])` ports by renaming.
public typealias CompoundPredicate = FetchPredicate
