import Foundation

extension ManagedObjectModel {
    /// Links what a model names by name — parent entities, relationships' destinations and
    /// inverses — to the descriptions themselves, as Core Data's are the moment a model is
    /// loaded. Names that match nothing are left for ``validate()`` to report.
    func resolveReferencesByName() {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            guard let parentName = entity.superentityName, entity.superentity == nil, let parent = byName[parentName] else { continue }
            if !parent.subentities.contains(where: { $0 === entity }) { parent.subentities.append(entity) }
        }
        for entity in entities {
            for case let relationship as RelationshipDescription in entity.properties {
                guard let destination = relationship.destinationEntityName.flatMap({ byName[$0] }) else { continue }
                let inverse = relationship.inverseName.flatMap { name in
                    Self.property(named: name, of: destination) as? RelationshipDescription
                }
                relationship.resolve(destination: destination, inverse: inverse)
            }
        }
    }

    /// The property named `name` of `entity` or of an entity it inherits from.
    private static func property(named name: String, of entity: EntityDescription) -> PropertyDescription? {
        var current: EntityDescription? = entity
        while let candidate = current {
            if let property = candidate.properties.first(where: { $0.name == name }) { return property }
            current = candidate.superentity
        }
        return nil
    }
}
