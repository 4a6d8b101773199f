import Foundation

/// Something a predicate can be evaluated against in memory: a managed object, a dictionary.
///
/// The evaluator walks key paths through this protocol only, so it knows nothing of contexts.
package protocol PredicateEvaluable {
    /// The value under `key`: an attribute's value, a to-one object, or a to-many collection.
    ///
    /// - Throws: ``FetchPredicateError`` naming the entity and key when the key is unknown.
    func predicateOperand(forKey key: String) throws -> PredicateOperand

    /// What `SELF` compares as: `.objectID(…)` for a managed object.
    var predicateIdentity: Value { get }

    /// Whether this stands for a missing object (a to-one relationship's absent
    /// destination): it equals `nil` and holds no elements. `false` by default.
    var isMissingObject: Bool { get }
}

extension PredicateEvaluable {
    package var isMissingObject: Bool { false }
}

/// A value met while evaluating a predicate in memory.
package enum PredicateOperand {
    /// A scalar (or `.null`, or `.objectID` for an object known only by its ID).
    case value(Value)
    /// An object whose keys can be followed further (a to-one destination, `SELF`).
    case object(any PredicateEvaluable)
    /// A collection: a to-many relationship, an array argument, a key path through a to-many.
    case collection([PredicateOperand])
}

/// Something that can stand as a predicate argument (`%@`) beyond plain Swift values:
/// managed objects and their IDs become `.objectID`.
package protocol PredicateArgumentConvertible {
    /// The value this argument contributes to a predicate.
    var predicateArgument: Value { get }
}

extension ManagedObjectID: PredicateArgumentConvertible {
    package var predicateArgument: Value { .objectID(self) }
}
