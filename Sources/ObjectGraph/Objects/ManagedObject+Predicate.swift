import Foundation

extension ManagedObject: PredicateEvaluable, PredicateArgumentConvertible {
    package func predicateOperand(forKey key: String) throws -> PredicateOperand {
        guard let slot = entity.slotByName[key] else {
            throw FetchPredicateError.unknownKey(key, entity: entity.name, format: nil)
        }
        assertOnContextQueue()
        fulfillIfNeeded()
        if storage.flags.contains(.gone) { return .value(.null) }
        guard let relationship = entity.allProperties[slot] as? RelationshipDescription else {
            return .value(storage.values[slot])
        }
        guard let context = managedObjectContext else { return relationship.isToMany ? .collection([]) : .value(.null) }
        if relationship.isToMany {
            return .collection(toManyMembers(at: slot).map { .object(context.object(with: $0)) })
        }
        guard case .objectID(let id) = storage.values[slot] else { return .value(.null) }
        return .object(context.object(with: id))
    }

    package var predicateIdentity: Value { .objectID(objectID) }
    package var predicateArgument: Value { .objectID(objectID) }

    /// The stored value at the end of a key path through to-one relationships (for sorting);
    /// `.null` where the path meets `nil`, an unknown key, or a to-many relationship.
    func sortValue(forKeyPath keyPath: String) -> Value {
        var object: ManagedObject = self
        let components = keyPath.split(separator: ".")
        for (index, component) in components.enumerated() {
            guard let slot = object.entity.slotByName[String(component)] else { return .null }
            object.fulfillIfNeeded()
            let value = object.storage.values[slot]
            if index == components.count - 1 { return value }
            guard case .objectID(let id) = value, let context = object.managedObjectContext else { return .null }
            object = context.object(with: id)
        }
        return .objectID(objectID)
    }
}
