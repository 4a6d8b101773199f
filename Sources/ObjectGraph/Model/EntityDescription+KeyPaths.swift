import Foundation

extension EntityDescription {
    /// The property a key path ends at, following to-one relationships only (`photographer.name`).
    ///
    /// - Parameter use: what the key path is for, to begin error messages ("cannot sort by").
    /// - Throws: ``ObjectGraphError/Code/unknownKey`` naming the key path and the step that is
    ///   not a property, or not a to-one relationship.
    func propertyAlongToOnePath(_ keyPath: String, for use: String) throws -> PropertyDescription {
        var current = self
        let components = keyPath.split(separator: ".").map(String.init)
        for (index, key) in components.enumerated() {
            guard let slot = current.slotByName[key] else {
                throw ObjectGraphError(.unknownKey, "\(use) '\(keyPath)': \(current.name) has no property '\(key)'")
            }
            let property = current.allProperties[slot]
            if index == components.count - 1 { return property }
            guard let relationship = property as? RelationshipDescription, !relationship.isToMany, let next = relationship.destinationEntity else {
                throw ObjectGraphError(.unknownKey, "\(use) '\(keyPath)': '\(key)' of \(current.name) is not a to-one relationship")
            }
            current = next
        }
        throw ObjectGraphError(.unknownKey, "\(use) '\(keyPath)': the key path is empty")
    }
}
