import Foundation
import Hummingbird
import ObjectGraph

/// What the entity browser reads from a container, as plain values: entities with counts, a
/// page of an entity's objects, one object's attributes and relationships. Each read runs in
/// a new background context and changes nothing. Knows nothing of any app's schema.
struct BrowserReader: Sendable {
    /// The container read from.
    let container: PersistentContainer

    /// An entity and how many objects it has (its sub-entities' included).
    struct EntitySummary: Sendable, Hashable {
        var name: String
        var count: Int
        var isAbstract: Bool
    }

    /// An object, named for people: `Entity 12` (its entity and primary key).
    struct ObjectLabel: Sendable, Hashable {
        var id: ManagedObjectID
        var label: String
    }

    /// A page of an entity's objects, each with its first attributes as `name: value`.
    struct ObjectPage: Sendable, Hashable {
        var total: Int
        var objects: [ObjectLabel]
        var summaries: [String]
    }

    /// One object's attributes (as text) and relationships (their first members).
    struct ObjectDetail: Sendable, Hashable {
        struct Relationship: Sendable, Hashable {
            var name: String
            var isToMany: Bool
            var members: [ObjectLabel]
            var more: Int
        }

        var object: ObjectLabel
        var entity: String
        var attributes: [Attribute]
        var relationships: [Relationship]

        struct Attribute: Sendable, Hashable {
            var name: String
            var value: String
        }
    }

    /// Runs `body` in a new background context.
    private func read<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = container.newBackgroundContext()
        return try await context.perform { try body(context) }
    }

    /// Every entity of the model, by name, with its count of objects.
    func entitySummaries() async throws -> [EntitySummary] {
        let model = container.managedObjectModel
        return try await read { context in
            try model.entities.sorted { $0.name < $1.name }.map { entity in
                EntitySummary(
                    name: entity.name,
                    count: try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name)),
                    isAbstract: entity.isAbstract
                )
            }
        }
    }

    /// Page `page` (from 1) of the objects of `entityName` that `predicate` selects.
    /// - Throws: ``BrowserFailure`` (404) for an entity the model does not have; the fetch's
    ///   error for a predicate that does not fit the entity.
    func objects(of entityName: String, matching predicate: FetchPredicate?, page: Int, pageSize: Int) async throws -> ObjectPage {
        let model = container.managedObjectModel
        guard let entity = model.entitiesByName[entityName] else {
            throw BrowserFailure(.notFound, "The model has no entity called “\(entityName.prefix(60))”")
        }
        let attributes = Array(entity.attributesByName.keys.sorted().prefix(4))
        return try await read { context in
            let request = FetchRequest<ManagedObject>(entityName: entityName)
            request.predicate = predicate
            let total = try context.count(for: request)
            request.fetchOffset = (page - 1) * pageSize
            request.fetchLimit = pageSize
            let objects = try context.fetch(request)
            return ObjectPage(
                total: total,
                objects: objects.map(Self.label),
                summaries: objects.map { object in
                    attributes.map { "\($0): \(Self.describe(object.value(forKey: $0), limit: 120))" }.joined(separator: " · ")
                }
            )
        }
    }

    /// The object `id` names, with at most `relationshipLimit` members of each relationship.
    /// - Throws: ``BrowserFailure`` (404) when the store has no such object.
    func object(_ id: ManagedObjectID, relationshipLimit: Int) async throws -> ObjectDetail {
        try await read { context in
            let object: ManagedObject
            do {
                object = try context.existingObject(with: id)
            } catch {
                throw BrowserFailure(.notFound, "No object \(id.uriRepresentation().absoluteString) in the store")
            }
            let entity = object.entity
            let attributes = entity.attributesByName.keys.sorted().map { key in
                ObjectDetail.Attribute(name: key, value: Self.describe(object.value(forKey: key), limit: 10_000))
            }
            let relationships = entity.relationshipsByName.values.sorted { $0.name < $1.name }.map { relationship in
                let value = object.value(forKey: relationship.name)
                let members: [ManagedObject] =
                    if let one = value as? ManagedObject {
                        [one]
                    } else if let many = value as? Set<ManagedObject> {
                        many.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
                    } else if let ordered = value as? [ManagedObject] {
                        ordered
                    } else {
                        []
                    }
                let shown = members.prefix(relationshipLimit)
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

    /// A value as text: data as its size, dates in ISO 8601, text longer than `limit` cut.
    static func describe(_ value: Any?, limit: Int) -> String {
        switch value {
        case nil: return "nil"
        case let data as Data: return "\(data.count) bytes"
        case let date as Date: return date.ISO8601Format()
        case let text as String: return text.count > limit ? String(text.prefix(limit)) + "…" : text
        case let value?: return "\(value)"
        }
    }
}
