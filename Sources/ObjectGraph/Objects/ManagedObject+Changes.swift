import Foundation

extension ManagedObject {
    /// The stored properties changed since the last save (or fetch), with their new values.
    ///
    /// To-many relationships appear with their whole new membership.
    public func changedValues() -> [String: Any] {
        assertOnContextQueue()
        var result: [String: Any] = [:]
        for slot in storage.changed.slots {
            let property = entity.allProperties[slot]
            if property.isTransient { continue }
            result[property.name] = publicValue(at: slot) ?? NSNull()
        }
        return result
    }

    /// The values last saved to (or read from) the store, for `keys` (all properties if `nil`).
    ///
    /// A new object has no committed values; a `nil` value appears as `NSNull`.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        assertOnContextQueue()
        fulfillIfNeeded()
        guard let committed = storage.committed else { return [:] }
        var result: [String: Any] = [:]
        let wanted = keys ?? entity.allProperties.map(\.name)
        for key in wanted {
            guard let slot = entity.slotByName[key] else { continue }
            switch entity.allProperties[slot] {
            case let attribute as AttributeDescription:
                if attribute.isTransient { continue }
                result[key] = reportingDecodeErrors(attribute, committed[slot]) ?? NSNull()
            case let relationship as RelationshipDescription:
                guard let context = managedObjectContext else { continue }
                if relationship.isToMany {
                    let state = storage.toMany[slot]
                    var ids = Set(toManyMembers(at: slot))
                    if let state {
                        ids.subtract(state.added)
                        ids.formUnion(state.removed)
                    }
                    result[key] = Set(ids.map { context.object(with: $0) })
                } else if case .objectID(let id) = committed[slot] {
                    result[key] = context.object(with: id)
                } else {
                    result[key] = NSNull()
                }
            default:
                continue
            }
        }
        return result
    }

    /// Discards values and changes, turning the object into a fault.
    func turnIntoFault() {
        willTurnIntoFault()
        storage.discardValues()
        didTurnIntoFault()
    }
}
