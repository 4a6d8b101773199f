import Foundation

/// The parsed form of a predicate: a Sendable tree evaluated in memory and compiled to SQL.
package indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    case not(PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
    case comparison(ComparisonNode)
    /// A predicate that parses but needs the Objective-C runtime (`x UTI-CONFORMS-TO "…"`),
    /// kept as its printed text; evaluating or compiling it fails with an
    /// ``FetchPredicateError/Kind/unsupported`` error.
    case unsupported(String)
}

/// A comparison `lhs op rhs`, with its `ANY`/`ALL`/`NONE` modifier and `[cd]` options.
package struct ComparisonNode: Sendable, Hashable {
    package var lhs: ExpressionNode
    package var op: ComparisonOperator
    package var rhs: ExpressionNode
    package var modifier: ComparisonModifier
    package var options: ComparisonOptions

    package init(
        lhs: ExpressionNode,
        op: ComparisonOperator,
        rhs: ExpressionNode,
        modifier: ComparisonModifier = .direct,
        options: ComparisonOptions = []
    ) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.modifier = modifier
        self.options = options
    }
}

/// NSPredicate's comparison operators.
package enum ComparisonOperator: String, Sendable, Hashable {
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    /// `lhs IN rhs`: lhs is a member of the collection rhs (or a substring of the string rhs).
    case `in` = "IN"
    /// `lhs CONTAINS rhs`: the collection lhs holds rhs, or the string lhs contains rhs.
    case contains = "CONTAINS"
    /// `lhs BETWEEN {low, high}`.
    case between = "BETWEEN"
}

/// NSPredicate's aggregate modifiers on a comparison's left side.
package enum ComparisonModifier: String, Sendable, Hashable {
    case direct
    /// `ANY` / `SOME`.
    case any
    case all
    case none
}

/// The `[c]`, `[d]`, `[n]` string-comparison options.
package struct ComparisonOptions: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `[c]`
    package static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`
    package static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: strings are already NFC-normalized here, so this changes nothing but parses.
    package static let normalized = ComparisonOptions(rawValue: 4)
}

/// An expression: a constant, a key path, `SELF`, a variable, an aggregate or a subquery.
package indirect enum ExpressionNode: Sendable, Hashable {
    /// A literal or a substituted argument.
    case constant(Value)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$NAME`: a substitution variable, or a `SUBQUERY` iteration variable.
    case variable(String)
    /// `base.key`; a bare key `title` is `.keyPath(.evaluatedObject, "title")`.
    case keyPath(ExpressionNode, String)
    /// `base.@count`, `base.@sum.key` (the key is folded into `base`, e.g.
    /// `tags.@sum.views` is `.aggregate(.keyPath(.keyPath(SELF, "tags"), "views"), .sum)`),
    /// and `@avg`, `@min`, `@max`.
    case aggregate(ExpressionNode, AggregateFunction)
    /// `{a, b, c}`: a literal collection of expressions.
    case array([ExpressionNode])
    /// `SUBQUERY(collection, $variable, predicate)`.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// `lhs + rhs`, `-`, `*`, `/`, `**` (NSExpression's `add:to:`, `from:subtract:`,
    /// `multiply:by:`, `divide:by:`, `raise:toPower:`); a unary minus is `0 - operand`.
    case arithmetic(ArithmeticOperator, ExpressionNode, ExpressionNode)
    /// `array[index]`, `array[FIRST]`, `array[LAST]`, `array[SIZE]`; `dictionary["key"]`.
    case index(ExpressionNode, IndexSelector)
    /// `now()`, `abs:(x)`, `sum:({1, 2})`, `modulus:by:(a, b)`: one of NSExpression's built-in
    /// functions, with as many arguments as its name says.
    case function(PredicateFunction, [ExpressionNode])
    /// `FUNCTION(…)`, `ANYKEY`, `x.method()` and the like: parsed,
    /// kept as printed text (which re-parses to the same node), then refused as unsupported
    /// when evaluated or compiled.
    case unsupported(String)
}

/// What an index expression selects of a collection.
package indirect enum IndexSelector: Sendable, Hashable {
    case first
    case last
    /// The number of elements.
    case size
    /// The element at a position counted from 0, or (of a dictionary) the value under a key.
    case at(ExpressionNode)
}

/// NSPredicate's arithmetic operators, as its format strings spell them.
package enum ArithmeticOperator: String, Sendable, Hashable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"

    /// How tightly the operator binds: `**` before `*` and `/`, those before `+` and `-`.
    var precedence: Int {
        switch self {
        case .add, .subtract: 0
        case .multiply, .divide: 1
        case .power: 2
        }
    }
}

/// The collection operators NSPredicate and key-value coding share.
package enum AggregateFunction: String, Sendable, Hashable {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case min = "@min"
    case max = "@max"
}
