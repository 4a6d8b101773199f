import Foundation
import Hummingbird
import ObjectGraph
import SPoTKit

/// `/debug/entities`: a read-only browser of any ObjectGraph model — entities with counts,
/// each entity's objects page by page, and an object's attributes and relationships with
/// relationships as links. Knows nothing of SPoT's schema.
struct DebugRoutes: Sendable {
    let web: SPoTWebApp
    /// Objects per page of an entity's list.
    static let pageSize = 50
    /// Members of a to-many relationship shown on an object's page.
    static let relationshipLimit = 100

    func register(on router: Router<BasicRequestContext>) {
        router.get("/debug/entities") { _, _ in try await entities() }
        router.get("/debug/entities/:entity") { request, context in
            let page = try Self.page(request)
            return try await objects(of: try Input.text(context, "entity", what: "entity name"), page: page)
        }
        router.get("/debug/object") { request, _ in
            guard let raw = request.uri.queryParameters["uri"].map(String.init), let url = URL(string: raw),
                let id = ManagedObjectID(uriRepresentation: url)
            else { throw WebError(.badRequest, "?uri= must be an object's URI, as the entity pages link to") }
            return try await object(id)
        }
    }

    private struct EntityRow: Sendable {
        let name: String
        let href: String
        let count: Int
        let isAbstract: Bool
    }

    private struct ObjectLink: Sendable {
        let href: String
        let label: String
    }

    private struct ObjectRow: Sendable {
        let link: ObjectLink
        let summary: String
    }

    private struct Field: Sendable {
        let name: String
        let value: String
        let links: [ObjectLink]
        let more: String?
    }

    private static func page(_ request: Request) throws -> Int {
        guard let raw = request.uri.queryParameters["page"] else { return 1 }
        guard let page = Int(raw), page >= 1, page <= 1_000_000 else { throw WebError(.badRequest, "?page= must be a number from 1") }
        return page
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext, ManagedObjectModel) throws -> T) async throws -> T {
        let container = web.spot.store.container
        let context = container.newBackgroundContext()
        return try await context.perform { try body(context, container.managedObjectModel) }
    }

    private func entities() async throws -> Response {
        let rows = try await read { context, model in
            try model.entities.sorted { $0.name < $1.name }.map { entity in
                EntityRow(
                    name: entity.name,
                    href: "/debug/entities/" + URLPath.segment(entity.name),
                    count: try context.count(for: FetchRequest<ManagedObject>(entityName: entity.name)),
                    isAbstract: entity.isAbstract
                )
            }
        }
        let body = web.renderer.render(["entities": rows], .debugEntities)
        return await web.pages.page(title: "Entities", page: "debug", tab: nil, body: body, hasDetail: true)
    }

    private func objects(of entityName: String, page: Int) async throws -> Response {
        let (rows, total) = try await read { context, model -> ([ObjectRow], Int) in
            guard let entity = model.entitiesByName[entityName] else {
                throw WebError(.notFound, "The model has no entity called “\(entityName.prefix(60))”")
            }
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            let total = try context.count(for: request)
            request.fetchOffset = (page - 1) * Self.pageSize
            request.fetchLimit = Self.pageSize
            let attributes = entity.attributesByName.keys.sorted().prefix(4)
            let rows = try context.fetch(request).map { object in
                ObjectRow(
                    link: Self.link(object),
                    summary: attributes.map { "\($0): \(Self.describe(object.value(forKey: $0)))" }.joined(separator: " · ")
                )
            }
            return (rows, total)
        }
        let pages = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        let base = "/debug/entities/" + URLPath.segment(entityName)
        let view: [String: Any] = [
            "entity": entityName, "total": total, "objects": rows, "page": page, "pages": pages,
            "previous": page > 1 ? "\(base)?page=\(page - 1)" : "", "next": page < pages ? "\(base)?page=\(page + 1)" : "",
        ]
        return await web.pages.page(
            title: entityName,
            page: "debug",
            tab: nil,
            body: web.renderer.render(view, .debugObjects),
            hasDetail: true
        )
    }

    private func object(_ id: ManagedObjectID) async throws -> Response {
        let (title, entityName, attributes, relationships) = try await read { context, _ -> (String, String, [Field], [Field]) in
            let object: ManagedObject
            do {
                object = try context.existingObject(with: id)
            } catch {
                throw WebError(.notFound, "No object \(id.uriRepresentation().absoluteString) in the store")
            }
            let entity = object.entity
            let attributes = entity.attributesByName.keys.sorted().map { key in
                Field(name: key, value: Self.describe(object.value(forKey: key)), links: [], more: nil)
            }
            let relationships = entity.relationshipsByName.values.sorted { $0.name < $1.name }.map { relationship in
                let value = object.value(forKey: relationship.name)
                let members: [ManagedObject] =
                    if let one = value as? ManagedObject { [one] } else if let many = value as? Set<ManagedObject> {
                        Array(many)
                    } else if let ordered = value as? [ManagedObject] { ordered } else { [] }
                let shown = members.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.prefix(Self.relationshipLimit)
                return Field(
                    name: relationship.name,
                    value: members.isEmpty ? (relationship.isToMany ? "none" : "nil") : "",
                    links: shown.map(Self.link),
                    more: members.count > shown.count ? "and \(members.count - shown.count) more" : nil
                )
            }
            return ("\(entity.name) \(object.objectID.primaryKey)", entity.name, attributes, relationships)
        }
        let view: [String: Any] = [
            "title": title, "entityHref": "/debug/entities/" + URLPath.segment(entityName), "entity": entityName,
            "uri": id.uriRepresentation().absoluteString, "attributes": attributes, "relationships": relationships,
        ]
        return await web.pages.page(title: title, page: "debug", tab: nil, body: web.renderer.render(view, .debugObject), hasDetail: true)
    }

    private static func link(_ object: ManagedObject) -> ObjectLink {
        ObjectLink(
            href: "/debug/object?uri=" + URLPath.queryComponent(object.objectID.uriRepresentation().absoluteString),
            label: "\(object.entity.name) \(object.objectID.primaryKey)"
        )
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
