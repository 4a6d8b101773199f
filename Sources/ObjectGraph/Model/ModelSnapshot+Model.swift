import Foundation

extension ManagedObjectModel {
    /// A model with the storage layout `snapshot` records — entities, parents, stored attributes
    /// and their types, relationships, uniqueness constraints — and nothing else (no defaults,
    /// validation or classes), validated.
    ///
    /// A store's metadata keeps the snapshot of the model that wrote it, so a migration can
    /// read the store's tables when no model bundle has that version.
    convenience init(snapshot: ModelSnapshot) throws {
        self.init()
        entities = snapshot.entities.map { entity in
            let description = EntityDescription()
            description.name = entity.name
            description.superentityName = entity.parent
            var properties: [PropertyDescription] = []
            for attribute in entity.attributes {
                let property = AttributeDescription()
                property.name = attribute.name
                // A transformable value is stored as a BLOB; a migration copies its bytes.
                property.attributeType = AttributeType(rawValue: attribute.type) ?? .binaryData
                properties.append(property)
            }
            for relationship in entity.relationships {
                let property = RelationshipDescription()
                property.name = relationship.name
                property.destinationEntityName = relationship.destination
                property.inverseName = relationship.inverse
                property.maxCount = relationship.toMany ? 0 : 1
                property.isOrdered = relationship.ordered
                properties.append(property)
            }
            description.properties = properties
            description.uniquenessConstraints = entity.uniquenessConstraints
            return description
        }
        try validate()
    }
}
