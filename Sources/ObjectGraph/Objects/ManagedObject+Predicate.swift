import Foundation

extension ManagedObject: PredicateEvaluable, PredicateArgumentConvertible {
    package func predicateOperand(forKey key: String) throws -> PredicateOperand {
        guard let slot = entity.slot(forKey: key) else {
            throw FetchPredicateError.unknownKey(key, entity: entity.name, format: nil)
        }
        assertOnContextQueue()
        fulfillIfNeeded()
        guard let relationship = entity.allProperties[slot] as? RelationshipDescription else {
            return storage.flags.contains(.gone) ? .value(.null) : .value(storage.values[slot])
        }
        guard let context = managedObjectContext, !storage.flags.contains(.gone) else { return MissingObject.operand(for: relationship) }
        if relationship.isToMany {
            return .collection(toManyMembers(at: slot).map { .object(context.object(with: $0)) })
        }
        guard case .objectID(let id) = storage.values[slot] else { return MissingObject.operand(for: relationship) }
        return .object(context.object(with: id))
    }

    package var predicateIdentity: Value { .objectID(objectID) }
    package var predicateArgument: Value { .objectID(objectID) }
}

/// A to-one relationship's missing destination, for predicates: it equals `nil`, its
/// attributes are `nil` and its to-many relationships are empty, so a key path through it
/// keeps its shape (`photographer.photos.title` is an empty collection for a photo with no
/// photographer, as in SQL, not a `nil` scalar that `!= "x"` would match).
struct MissingObject: PredicateEvaluable {
    let entity: EntityDescription

    /// What `relationship` of an object gives when there is no destination.
    static func operand(for relationship: RelationshipDescription) -> PredicateOperand {
        if relationship.isToMany { return .collection([]) }
        guard let destination = relationship.destinationEntity else { return .value(.null) }
        return .object(MissingObject(entity: destination))
    }

    func predicateOperand(forKey key: String) throws -> PredicateOperand {
        guard let slot = entity.slot(forKey: key) else {
            throw FetchPredicateError.unknownKey(key, entity: entity.name, format: nil)
        }
        guard let relationship = entity.allProperties[slot] as? RelationshipDescription else { return .value(.null) }
        return Self.operand(for: relationship)
    }

    var predicateIdentity: Value { .null }
    var isMissingObject: Bool { true }
}
