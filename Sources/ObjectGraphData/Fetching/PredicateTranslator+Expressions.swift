import Foundation
import ObjectGraph

// How each of Foundation's predicate expressions translates (see PredicateTranslator).

typealias Translation = PredicateTranslator.Translation
typealias Fragment = PredicateTranslator.Fragment
typealias Untranslatable = PredicateTranslator.Untranslatable

extension PredicateExpressions.Variable: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        guard let bound = translator.variables[key] else { throw Untranslatable(description: "a variable out of scope") }
        return bound
    }
}

extension PredicateExpressions.Value: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        .value(try PredicateTranslator.storedConstant(value, in: translator.context))
    }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation { .value(nil) }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let base = try translator.translate(root)
        switch kind {
        case .collectionCount?:
            return try counted(base)
        case .collectionIsEmpty?:
            return .predicate(Fragment.binary(try translator.operand(counted(base)), "==", Fragment("0")))
        case .collectionFirst?, .bidirectionalCollectionLast?:
            throw Untranslatable(description: "first/last of a collection has no SQL form")
        case nil:
            break
        }
        guard case .path(let prefix) = base else { throw Untranslatable(description: "a key path on a computed value") }
        // A leaf of a composite (a Codable struct): its own attribute, `address_city`.
        if let layout = CompositeLayout.of(Root.Output.self), !prefix.isEmpty {
            guard let leaf = layout.leaf(for: keyPath) else { throw Untranslatable(description: "\(keyPath) is not a stored property") }
            return .path(CompositeLayout.attributeName(prefix, leaf.name))
        }
        guard let name = _ModelKeyPathRecorder.name(of: keyPath, on: Root.Output.self) else {
            throw Untranslatable(description: "\(keyPath) is not a persisted property")
        }
        return .path(prefix.isEmpty ? name : prefix + "." + name)
    }

    /// `base.@count` for a to-many relationship or a SUBQUERY; the counts of strings and of
    /// array attributes (stored encoded) stay in memory.
    private func counted(_ base: Translation) throws -> Translation {
        guard PredicateTranslator.isToMany(Root.Output.self) else {
            throw Untranslatable(description: "count of a string or of an array attribute has no SQL form")
        }
        switch base {
        case .path(let path) where !path.isEmpty: return .path(path + ".@count")
        case .expression(let fragment): return .expression(Fragment(fragment.format + ".@count", fragment.arguments))
        default: throw Untranslatable(description: "count of a computed collection")
        }
    }
}

extension PredicateExpressions.Equal: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        if let fragment = try translator.caseInsensitiveEquality(lhs, rhs, negated: false) { return .predicate(fragment) }
        let (l, r) = (try translator.translate(lhs), try translator.translate(rhs))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, "==", $1) })
    }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        if let fragment = try translator.caseInsensitiveEquality(lhs, rhs, negated: true) { return .predicate(fragment) }
        let (l, r) = (try translator.translate(lhs), try translator.translate(rhs))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, "!=", $1) })
    }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let symbol =
            switch op {
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            }
        // Swift orders strings by their Unicode scalars, SQL by its collation: equal for
        // ASCII only, so strings with other characters are compared in memory.
        if LHS.Output.self == String.self {
            for side in [lhs as any PredicateExpression, rhs] {
                if case .value(let text as String)? = try? translator.translate(side), !text.allSatisfy(\.isASCII) {
                    throw Untranslatable(description: "ordering non-ASCII strings differs between Swift and SQL")
                }
            }
        }
        let (l, r) = (try translator.translate(lhs), try translator.translate(rhs))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, symbol, $1) })
    }
}

extension PredicateExpressions.Conjunction: TranslatableExpression, SplittableConjunction {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        .predicate(Fragment.binary(try translator.condition(lhs), "AND", try translator.condition(rhs)))
    }
    var conjuncts: [any PredicateExpression] { [lhs, rhs] }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        .predicate(Fragment.binary(try translator.condition(lhs), "OR", try translator.condition(rhs)))
    }
}

extension PredicateExpressions.Negation: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let inner = try translator.condition(wrapped)
        return .predicate(Fragment("(NOT \(inner.format))", inner.arguments))
    }
}

extension PredicateExpressions.Arithmetic: TranslatableExpression {
    // `+`, `-` and `*` mean in SQL what they mean in Swift, but where Swift traps on an
    // integer's overflow. Divisions stay in memory: Swift's `/` on integers truncates, and on
    // doubles divides by zero into infinity, where SQL (and NSExpression) give NULL.
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let symbol: String
        switch op {
        case .add: symbol = "+"
        case .subtract: symbol = "-"
        case .multiply: symbol = "*"
        @unknown default: throw Untranslatable(description: "an arithmetic operator ObjectGraph does not know")
        }
        let (l, r) = (try translator.translate(lhs), try translator.translate(rhs))
        return .expression(Fragment.binary(try translator.operand(l), symbol, try translator.operand(r)))
    }
}

extension PredicateExpressions.Conditional: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        .conditional(try translator.condition(test), try translator.translate(trueBranch), try translator.translate(falseBranch))
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let base = try translator.translate(wrapped)
        guard case .path = base else { throw Untranslatable(description: "flatMap over a computed optional") }
        translator.variables[variable.key] = base
        return try translator.translate(transform)
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        try translator.translate(inner)
    }
}

extension PredicateExpressions.NilCoalesce: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let value = try translator.translate(lhs)
        let test = Fragment.binary(try translator.operand(value), "!=", Fragment("nil"))
        return .conditional(test, value, try translator.translate(rhs))
    }
}

extension PredicateExpressions.SequenceContains: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let collection = try translator.translate(sequence)
        let member = try translator.translate(element)
        if case .path(let path) = collection, !PredicateTranslator.isToMany(LHS.Output.self) || path.isEmpty {
            throw Untranslatable(description: "contains on a stored array attribute has no SQL form")
        }
        return .predicate(Fragment.binary(try translator.operand(member), "IN", try translator.operand(collection)))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        guard Base.Output.self == String.self else { throw Untranslatable(description: "contains of a non-string collection") }
        let (l, r) = (try translator.translate(base), try translator.translate(other))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, "CONTAINS", $1) })
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        guard Base.Output.self == String.self else { throw Untranslatable(description: "starts(with:) of a non-string sequence") }
        let (l, r) = (try translator.translate(base), try translator.translate(prefix))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, "BEGINSWITH", $1) })
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let (l, r) = (try translator.translate(root), try translator.translate(other))
        return .predicate(try translator.compare(l, r) { Fragment.binary($0, "CONTAINS[cd]", $1) })
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let subquery = try PredicateTranslator.subquery(&translator, sequence, variable.key, test, negated: false)
        return .predicate(Fragment(subquery.format + ".@count > 0", subquery.arguments))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        let subquery = try PredicateTranslator.subquery(&translator, sequence, variable.key, test, negated: true)
        return .predicate(Fragment(subquery.format + ".@count == 0", subquery.arguments))
    }
}

extension PredicateExpressions.Filter: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        .expression(try PredicateTranslator.subquery(&translator, sequence, variable.key, filter, negated: false))
    }
}

extension PredicateTranslator {
    /// `SUBQUERY(collection, $vN, test)` (or `NOT test`), over a to-many relationship.
    static func subquery(
        _ translator: inout PredicateTranslator,
        _ sequence: some PredicateExpression,
        _ variable: PredicateExpressions.VariableID,
        _ test: some PredicateExpression,
        negated: Bool
    ) throws -> Fragment {
        guard case .path(let path) = try translator.translate(sequence), !path.isEmpty,
            isToMany(type(of: sequence).Output.self)
        else { throw Untranslatable(description: "a collection closure over something other than a relationship") }
        let name = translator.subqueryVariable(for: variable)
        let inner = try translator.condition(test)
        let body = negated ? "NOT (\(inner.format))" : inner.format
        return Fragment("SUBQUERY(\(escaped(path)), \(name), \(body))", inner.arguments)
    }

    /// Whether `type` is an array of models, as a to-many relationship (or a `SUBQUERY` over
    /// one) is; an array of values is an attribute, stored encoded, with no SQL form.
    static func isToMany(_ type: Any.Type) -> Bool {
        guard let arrayType = type as? any _ModelArray.Type else { return false }
        return arrayType._elementType is any PersistentModel.Type
    }

    /// A constant as the store compares it: a model as its managed object, an identifier as
    /// its object ID, arrays element by element, an enum as its raw value; other Codable values
    /// have no stored form to compare.
    static func storedConstant(_ value: Any, in context: ModelContext) throws -> Any? {
        if let optional = value as? any _ModelOptional {
            guard let wrapped = optional._wrapped else { return nil }
            return try storedConstant(wrapped, in: context)
        }
        if let model = value as? any PersistentModel {
            guard let object = model._$backingData.managedObject, model._$backingData.context === context else {
                throw Untranslatable(description: "a model of another context, or not inserted")
            }
            return object
        }
        if let identifier = value as? PersistentIdentifier {
            guard let objectID = identifier.objectID else { throw Untranslatable(description: "the identifier of a model never inserted") }
            return objectID
        }
        if value is any _ModelArray, let sequence = value as? any Sequence {
            return try elements(of: sequence).map { try storedConstant($0, in: context) }
        }
        if SchemaBuilder.attributeType(of: type(of: value)) != nil || value is Bool { return value }
        if let representable = value as? any RawRepresentable, SchemaBuilder.attributeType(of: type(of: representable.rawValue)) != nil {
            return representable.rawValue
        }
        throw Untranslatable(description: "a value of type \(type(of: value)) has no stored form to compare with")
    }
}

/// The elements of a sequence of unknown element type.
private func elements(of sequence: any Sequence) -> [Any] {
    var result: [Any] = []
    for element in sequence { result.append(element) }
    return result
}

// MARK: caseInsensitiveCompare

/// `a.caseInsensitiveCompare(b)`, seen by the `==`/`!=` that compares it with a constant.
protocol CaseInsensitiveComparison {
    func operands(_ translator: inout PredicateTranslator) throws -> (Translation, Translation)
}

extension PredicateExpressions.StringCaseInsensitiveCompare: CaseInsensitiveComparison, TranslatableExpression {
    func operands(_ translator: inout PredicateTranslator) throws -> (Translation, Translation) {
        (try translator.translate(root), try translator.translate(other))
    }

    func translate(_ translator: inout PredicateTranslator) throws -> Translation {
        throw Untranslatable(description: "caseInsensitiveCompare has an SQL form only compared == or != with .orderedSame")
    }
}

extension PredicateTranslator {
    /// `a ==[c] b` (or `!=[c]`) for `a.caseInsensitiveCompare(b) == .orderedSame` (either way
    /// round); `nil` when neither side is a caseInsensitiveCompare.
    mutating func caseInsensitiveEquality(_ lhs: any PredicateExpression, _ rhs: any PredicateExpression, negated: Bool) throws -> Fragment? {
        let (comparison, constant): (any CaseInsensitiveComparison, any PredicateExpression)
        if let left = lhs as? any CaseInsensitiveComparison {
            (comparison, constant) = (left, rhs)
        } else if let right = rhs as? any CaseInsensitiveComparison {
            (comparison, constant) = (right, lhs)
        } else {
            return nil
        }
        guard let result = constant as? PredicateExpressions.Value<ComparisonResult>, result.value == .orderedSame else {
            throw Untranslatable(description: "caseInsensitiveCompare has an SQL form only compared == or != with .orderedSame")
        }
        let (a, b) = try comparison.operands(&self)
        return try compare(a, b) { Fragment.binary($0, negated ? "!=[c]" : "==[c]", $1) }
    }
}
