import Foundation
public import ObjectGraph

/// A read-only look at what the store holds, entity by entity, for a debug browser. Knows
/// nothing of SPoT's schema: it reads any model's entities, attributes and relationships.
extension SPoTStore {
    /// An entity and how many objects it has.
    public struct EntitySummary: Sendable, Hashable {
        /// The entity's name.
        public var name: String
        /// Its objects (its sub-entities' included).
        public var count: Int
        /// Whether it is abstract.
        public var isAbstract: Bool
    }

    /// An object, named for people: its entity and primary key.
    public struct ObjectLabel: Sendable, Hashable {
        /// The object's id.
        public var id: ManagedObjectID
        /// `Entity 12`.
        public var label: String
    }

    /// A page of an entity's objects, each with its first attributes.
    public struct ObjectPage: Sendable, Hashable {
        /// Every object of the entity.
        public var total: Int
        /// This page's objects.
        public var objects: [ObjectLabel]
        /// For each object, `name: value` of its first few attributes.
        public var summaries: [String]
    }

    /// One object's attributes and relationships.
    public struct ObjectDetail: Sendable, Hashable {
        /// A relationship's members (at most the limit asked for) and how many more there are.
        public struct Relationship: Sendable, Hashable {
            /// The relationship's name.
            public var name: String
            /// Whether it is to-many.
            public var isToMany: Bool
            /// The first members, by primary key.
            public var members: [ObjectLabel]
            /// Members not listed.
            public var more: Int
        }

        /// The object.
        public var object: ObjectLabel
        /// Its entity's name.
        public var entity: String
        /// Attribute names and values as text (data as its size, long text shortened).
        public var attributes: [Attribute]
        /// Its relationships, by name.
        public var relationships: [Relationship]

        /// An attribute and its value as text.
        public struct Attribute: Sendable, Hashable {
            /// The attribute's name.
            public var name: String
            /// Its value as text.
            public var value: String
        }
    }

    /// Every entity of the model, by name, with its count of objects.
    /// - Throws: ``SPoTError`` `.store` when the store cannot be read.
    public func entitySummaries() async throws -> [EntitySummary] {
        try await read { [self] context in
            try container.managedObjectModel.entities.sorted { $0.name < $1.name }.map { entity in
                EntitySummary(
                    name: entity.name,
                    count: try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name)),
                    isAbstract: entity.isAbstract
                )
            }
        }
    }

    /// Page `page` (from 1) of entity `entityName`'s objects, `pageSize` a page.
    /// - Throws: ``SPoTError`` `.objectNotFound` when the model has no such entity, `.store`
    ///   when the store cannot be read.
    public func objects(of entityName: String, page: Int, pageSize: Int) async throws -> ObjectPage {
        try await read { [self] context in
            guard let entity = container.managedObjectModel.entitiesByName[entityName] else {
                throw SPoTError(.objectNotFound, "The model has no entity called “\(entityName.prefix(60))”")
            }
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            let total = try context.count(for: request)
            request.fetchOffset = (page - 1) * pageSize
            request.fetchLimit = pageSize
            let attributes = entity.attributesByName.keys.sorted().prefix(4)
            let objects = try context.fetch(request)
            return ObjectPage(
                total: total,
                objects: objects.map(Self.label),
                summaries: objects.map { object in
                    attributes.map { "\($0): \(Self.describe(object.value(forKey: $0)))" }.joined(separator: " · ")
                }
            )
        }
    }

    /// The object `id` names, with at most `relationshipLimit` members of each relationship.
    /// - Throws: ``SPoTError`` `.objectNotFound` when the store has no such object, `.store`
    ///   when the store cannot be read.
    public func object(_ id: ManagedObjectID, relationshipLimit: Int) async throws -> ObjectDetail {
        try await read { context in
            let object: ManagedObject
            do {
                object = try context.existingObject(with: id)
            } catch {
                throw SPoTError(.objectNotFound, "No object \(id.uriRepresentation().absoluteString) in the store")
            }
            let entity = object.entity
            let attributes = entity.attributesByName.keys.sorted().map { key in
                ObjectDetail.Attribute(name: key, value: Self.describe(object.value(forKey: key)))
            }
            let relationships = entity.relationshipsByName.values.sorted { $0.name < $1.name }.map { relationship in
                let value = object.value(forKey: relationship.name)
                let members: [ManagedObject] =
                    if let one = value as? ManagedObject { [one] } else if let many = value as? Set<ManagedObject> {
                        Array(many)
                    } else if let ordered = value as? [ManagedObject] { ordered } else { [] }
                let shown = members.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.prefix(relationshipLimit)
                return ObjectDetail.Relationship(
                    name: relationship.name,
                    isToMany: relationship.isToMany,
                    members: shown.map(Self.label),
                    more: members.count - shown.count
                )
            }
            return ObjectDetail(object: Self.label(object), entity: entity.name, attributes: attributes, relationships: relationships)
        }
    }

    private static func label(_ object: ManagedObject) -> ObjectLabel {
        ObjectLabel(id: object.objectID, label: "\(object.entity.name) \(object.objectID.primaryKey)")
    }

    /// A value as text: data as its size, long text shortened.
    private static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let data as Data: return "\(data.count) bytes"
        case let date as Date: return date.ISO8601Format()
        case let text as String: return text.count > 120 ? String(text.prefix(120)) + "…" : text
        case let value?: return "\(value)"
        }
    }
}
