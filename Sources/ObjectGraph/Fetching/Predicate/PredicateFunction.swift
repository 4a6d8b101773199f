import Foundation

/// NSExpression's built-in functions (`expressionForFunction:arguments:`), as a predicate
/// format string calls them: `now()`, `abs:(balance)`, `sum:({1, 2, 3})`,
/// `modulus:by:(count, 2)`, `uppercase:(name)`.
///
/// The raw value is the function's Core Data name, the selector its argument count shows. A
/// one-argument function may also be written without its colon (`abs(balance)`), as older
/// format strings did; it prints with it. The arithmetic functions (`add:to:`, `from:subtract:`,
/// `multiply:by:`, `divide:by:`, `raise:toPower:`) parse into arithmetic, as NSExpression prints
/// them (`a + b`).
package enum PredicateFunction: String, Sendable, Hashable, CaseIterable {
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case modulus = "modulus:by:"
    case sqrt = "sqrt:"
    case log = "log:"
    case ln = "ln:"
    case exp = "exp:"
    case ceiling = "ceiling:"
    case floor = "floor:"
    case trunc = "trunc:"
    case abs = "abs:"
    case random = "random"
    case randomElement = "random:"
    case now = "now"
    case lowercase = "lowercase:"
    /// Core Data's `canonical:` (a derived attribute's function): the string with case and
    /// diacritics folded away, as NSPredicate's `[cd]` compares.
    case canonical = "canonical:"
    case uppercase = "uppercase:"
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"
    case noIndex = "noindex:"

    /// How many arguments the function takes: one per colon of its name.
    var arity: Int { rawValue.reduce(0) { $1 == ":" ? $0 + 1 : $0 } }

    /// The function a format string names, with or without the colon of a one-argument
    /// function; `nil` for a name NSExpression does not define (or one this library leaves
    /// unsupported: `stddev:`, `distanceToLocation:fromLocation:`, `castObject:toType:`).
    static func named(_ name: String) -> PredicateFunction? {
        PredicateFunction(rawValue: name) ?? (name.contains(":") ? nil : PredicateFunction(rawValue: name + ":"))
    }

    /// The arithmetic operator an arithmetic function is, by its Core Data name.
    static func arithmetic(named name: String) -> ArithmeticOperator? {
        switch name {
        case "add:to:": .add
        case "from:subtract:": .subtract
        case "multiply:by:": .multiply
        case "divide:by:": .divide
        case "raise:toPower:": .power
        default: nil
        }
    }
}
