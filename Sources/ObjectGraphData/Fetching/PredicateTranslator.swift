import Foundation
public import ObjectGraph

/// Translates a `#Predicate`'s expression tree into ObjectGraph's predicate format (and so,
/// through ObjectGraph's compiler, into SQL for either store).
///
/// The tree is split at its top-level `&&`s; each part that translates goes to the store,
/// each that does not is named in ``PredicateTranslation/inMemory`` and the whole predicate
/// is then also evaluated in memory on what the store returns.
struct PredicateTranslator {
    /// The context whose models appear as values (they become their managed objects).
    let context: ModelContext
    /// What each predicate variable stands for: `""` for the fetched object, a key path for
    /// a `flatMap`'s unwrapped value, `$vN` inside a `SUBQUERY`.
    var variables: [PredicateExpressions.VariableID: Translation] = [:]
    /// The number of `SUBQUERY` variables made so far.
    var subqueryCount = 0

    /// A part of a predicate in ObjectGraph's format: the text and its `%@` arguments.
    struct Fragment {
        var format: String
        var arguments: [Any?]

        init(_ format: String, _ arguments: [Any?] = []) {
            self.format = format
            self.arguments = arguments
        }

        /// `lhs <op> rhs`, parenthesized.
        static func binary(_ lhs: Fragment, _ op: String, _ rhs: Fragment) -> Fragment {
            Fragment("(\(lhs.format) \(op) \(rhs.format))", lhs.arguments + rhs.arguments)
        }
    }

    /// What a sub-expression translates to.
    indirect enum Translation {
        /// A key path from the fetched object (`""` is the object itself).
        case path(String)
        /// A constant.
        case value(Any?)
        /// A condition.
        case predicate(Fragment)
        /// Any other non-boolean expression (a `SUBQUERY`).
        case expression(Fragment)
        /// `test ? then : otherwise`, from `??` and `?:`; comparisons distribute over it.
        case conditional(Fragment, Translation, Translation)
    }

    /// Why a sub-expression stays in memory.
    struct Untranslatable: Error, CustomStringConvertible {
        let description: String
    }

    init(context: ModelContext) {
        self.context = context
    }

    /// The translation of `expression`.
    mutating func translate(_ expression: any PredicateExpression) throws -> Translation {
        guard let translatable = expression as? any TranslatableExpression else {
            throw Untranslatable(description: "\(Self.name(of: expression)) has no SQL form")
        }
        return try translatable.translate(&self)
    }

    /// The translation of `expression` as a condition.
    mutating func condition(_ expression: any PredicateExpression) throws -> Fragment {
        try condition(translate(expression))
    }

    /// `translation` as a condition.
    func condition(_ translation: Translation) throws -> Fragment {
        switch translation {
        case .predicate(let fragment): return fragment
        case .path: return Fragment.binary(try operand(translation), "==", Fragment("YES"))
        case .value(let value as Bool): return Fragment(value ? "TRUEPREDICATE" : "FALSEPREDICATE")
        case .conditional(let test, let then, let otherwise):
            return Fragment.binary(
                Fragment.binary(test, "AND", try condition(then)),
                "OR",
                Fragment.binary(Fragment("(NOT \(test.format))", test.arguments), "AND", try condition(otherwise))
            )
        default: throw Untranslatable(description: "a non-boolean expression used as a condition")
        }
    }

    /// `translation` as an operand of a comparison.
    func operand(_ translation: Translation) throws -> Fragment {
        switch translation {
        case .path(let path): return Fragment(path.isEmpty ? "SELF" : Self.escaped(path))
        case .value(let value): return value == nil ? Fragment("nil") : Fragment("%@", [value])
        case .expression(let fragment): return fragment
        case .predicate, .conditional: throw Untranslatable(description: "a condition used as a value")
        }
    }

    /// A comparison of `lhs` and `rhs` by `build`, distributed over conditionals.
    func compare(_ lhs: Translation, _ rhs: Translation, _ build: (Fragment, Fragment) throws -> Fragment) throws -> Fragment {
        if case .conditional(let test, let then, let otherwise) = lhs {
            return try condition(.conditional(test, .predicate(compare(then, rhs, build)), .predicate(compare(otherwise, rhs, build))))
        }
        if case .conditional(let test, let then, let otherwise) = rhs {
            return try condition(.conditional(test, .predicate(compare(lhs, then, build)), .predicate(compare(lhs, otherwise, build))))
        }
        return try build(operand(lhs), operand(rhs))
    }

    /// A new `SUBQUERY` variable bound to `variable`.
    mutating func subqueryVariable(for variable: PredicateExpressions.VariableID) -> String {
        subqueryCount += 1
        let name = "$v\(subqueryCount)"
        variables[variable] = .path(name)
        return name
    }

    /// A key path with each reserved word escaped with `#`.
    static func escaped(_ path: String) -> String {
        path.split(separator: ".").map { component in
            reserved.contains(component.uppercased()) ? "#" + component : String(component)
        }.joined(separator: ".")
    }

    private static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS", "FUNCTION",
    ]

    /// A short name of an expression's type, for messages (`Arithmetic`, `ConditionalCast`).
    static func name(of expression: any PredicateExpression) -> String {
        let full = String(describing: type(of: expression))
        return String(full.prefix { $0 != "<" })
    }
}

/// An expression the translator knows.
protocol TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> PredicateTranslator.Translation
}

/// The `&&`-separated parts of an expression.
protocol SplittableConjunction {
    var conjuncts: [any PredicateExpression] { get }
}

/// What a fetch's predicate became: the part the store evaluates and what stays in memory.
public struct PredicateTranslation: CustomStringConvertible {
    /// The part of the predicate the store evaluates, in ObjectGraph's format; `nil` when
    /// none of it translates (every object of the entity is read).
    public let storePredicate: FetchPredicate?
    /// Why each part that stays in memory does (empty when the store does it all).
    public let inMemory: [String]

    /// Whether the whole predicate runs in the store.
    public var isFullyTranslated: Bool { inMemory.isEmpty }

    /// `store: <format>; in memory: <reasons>`.
    public var description: String {
        "store: \(storePredicate?.predicateFormat ?? "all objects")"
            + (inMemory.isEmpty ? "" : "; in memory: \(inMemory.joined(separator: "; "))")
    }

    /// Translates `predicate` for a fetch in `context`.
    static func translate<T>(_ predicate: Predicate<T>, in context: ModelContext) -> PredicateTranslation {
        var translator = PredicateTranslator(context: context)
        translator.variables[predicate.variable.key] = .path("")
        var parts: [PredicateTranslator.Fragment] = []
        var reasons: [String] = []
        for conjunct in conjuncts(of: predicate.expression) {
            do {
                parts.append(try translator.condition(conjunct))
            } catch {
                reasons.append("\(error)")
            }
        }
        guard !parts.isEmpty else { return PredicateTranslation(storePredicate: nil, inMemory: reasons) }
        let format = parts.map(\.format).joined(separator: " AND ")
        let predicate = FetchPredicate(format: format, argumentArray: parts.flatMap(\.arguments))
        if let error = predicate.parseError {
            return PredicateTranslation(storePredicate: nil, inMemory: ["the translation did not parse (\(error))"])
        }
        return PredicateTranslation(storePredicate: predicate, inMemory: reasons)
    }

    private static func conjuncts(of expression: any PredicateExpression) -> [any PredicateExpression] {
        guard let conjunction = expression as? any SplittableConjunction else { return [expression] }
        return conjunction.conjuncts.flatMap(conjuncts(of:))
    }
}
