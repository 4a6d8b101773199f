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

    private func entities() async throws -> Response {
        let rows = try await web.spot.store.entitySummaries().map { entity in
            EntityRow(name: entity.name, href: "/debug/entities/" + URLPath.segment(entity.name), count: entity.count, isAbstract: entity.isAbstract)
        }
        let body = web.renderer.render(["entities": rows], .debugEntities)
        return await web.pages.page(title: "Entities", page: "debug", tab: nil, body: body, hasDetail: true)
    }

    private func objects(of entityName: String, page: Int) async throws -> Response {
        let found = try await web.spot.store.objects(of: entityName, page: page, pageSize: Self.pageSize)
        let rows = zip(found.objects, found.summaries).map { ObjectRow(link: Self.link($0), summary: $1) }
        let pages = max(1, (found.total + Self.pageSize - 1) / Self.pageSize)
        let base = "/debug/entities/" + URLPath.segment(entityName)
        let view: [String: Any] = [
            "entity": entityName, "total": found.total, "objects": rows, "page": page, "pages": pages,
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
        let object = try await web.spot.store.object(id, relationshipLimit: Self.relationshipLimit)
        let attributes = object.attributes.map { Field(name: $0.name, value: $0.value, links: [], more: nil) }
        let relationships = object.relationships.map { relationship in
            Field(
                name: relationship.name,
                value: relationship.members.isEmpty ? (relationship.isToMany ? "none" : "nil") : "",
                links: relationship.members.map(Self.link),
                more: relationship.more > 0 ? "and \(relationship.more) more" : nil
            )
        }
        let view: [String: Any] = [
            "title": object.object.label, "entityHref": "/debug/entities/" + URLPath.segment(object.entity), "entity": object.entity,
            "uri": id.uriRepresentation().absoluteString, "attributes": attributes, "relationships": relationships,
        ]
        return await web.pages.page(
            title: object.object.label,
            page: "debug",
            tab: nil,
            body: web.renderer.render(view, .debugObject),
            hasDetail: true
        )
    }

    private static func link(_ object: SPoTStore.ObjectLabel) -> ObjectLink {
        ObjectLink(href: "/debug/object?uri=" + URLPath.queryComponent(object.id.uriRepresentation().absoluteString), label: object.label)
    }
}
