import Foundation
public import Hummingbird
public import ObjectGraph

/// A read-only browser of any store, served over HTTP: its entities with their counts, an
/// entity's objects page by page (filtered by a predicate in the full NSPredicate grammar),
/// an object's attributes and its relationships as links to the related objects.
///
/// The browser knows no schema: it reads the container's model. It serves these routes
/// under `prefix`:
///
/// - `GET {prefix}/entities`: every entity with its number of objects;
/// - `GET {prefix}/entities/{Entity}?predicate=…&page=n`: a page of objects;
/// - `GET {prefix}/object?uri=x-coredata://…`: one object.
///
/// A bad predicate gets a 400 page naming the position and token; an unknown entity or
/// object a 404. Every string read from the store is escaped. Each request reads in a new
/// background context and changes nothing.
///
/// ```swift
/// let browser = EntityBrowser(container: container, prefix: "/debug")
/// let router = Router()
/// browser.register(on: router)
/// ```
public struct EntityBrowser: Sendable {
    /// Makes the response for a page: a host wraps ``EntityBrowserPage/body`` in its own
    /// layout, or uses ``standaloneLayout(heading:)``.
    public typealias Layout = @Sendable (EntityBrowserPage) async -> Response

    /// Objects on a page of an entity's list.
    public static let pageSize = 50
    /// Members of a to-many relationship shown on an object's page.
    static let relationshipLimit = 100
    /// The longest predicate accepted, in characters.
    static let maxPredicateLength = 2_000

    private let reader: BrowserReader
    private let prefix: String
    private let layout: Layout

    /// A browser of `container`'s store.
    /// - Parameters:
    ///   - container: A container whose store is loaded; opening it read-only is the
    ///     caller's choice (`PersistentStoreDescription.isReadOnly`).
    ///   - prefix: The path the routes are under, without a trailing `/` (`""` or `"/debug"`).
    ///   - layout: Makes each response; by default a plain page of its own.
    public init(container: PersistentContainer, prefix: String = "", layout: Layout? = nil) {
        reader = BrowserReader(container: container)
        self.prefix = prefix
        self.layout = layout ?? Self.standaloneLayout(heading: "ObjectGraph entity browser")
    }

    /// A layout that makes a whole HTML page around the browser's content, with `heading`
    /// above it (escaped).
    public static func standaloneLayout(heading: String) -> Layout {
        { page in
            Response(
                status: page.status,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'",
                    .xContentTypeOptions: "nosniff",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: BrowserHTML.standalone(title: page.title, heading: heading, body: page.body)))
            )
        }
    }

    /// Adds the browser's routes to `router`.
    public func register<Context: RequestContext>(on router: Router<Context>) {
        router.get(RouterPath(prefix + "/entities")) { _, _ in
            await respond { try await entities() }
        }
        router.get(RouterPath(prefix + "/entities/:entity")) { request, context in
            await respond {
                guard let raw = context.parameters.get("entity"), !raw.isEmpty else {
                    throw BrowserFailure(.badRequest, "The entity name is missing")
                }
                let entity = raw.removingPercentEncoding ?? raw
                let predicate = Self.formValue(request, "predicate") ?? ""
                return try await objects(
                    of: entity,
                    predicate: predicate.trimmingCharacters(in: .whitespacesAndNewlines),
                    page: try Self.page(request)
                )
            }
        }
        router.get(RouterPath(prefix + "/object")) { request, _ in
            await respond {
                guard let raw = request.uri.queryParameters["uri"].map(String.init), let url = URL(string: raw),
                    let id = ManagedObjectID(uriRepresentation: url)
                else { throw BrowserFailure(.badRequest, "?uri= must be an object's URI, as the entity pages link to") }
                return try await object(id)
            }
        }
    }

    /// Runs `body`, turning what it throws into an error page.
    private func respond(_ body: () async throws -> EntityBrowserPage) async -> Response {
        let page: EntityBrowserPage
        do {
            page = try await body()
        } catch let failure as BrowserFailure {
            page = Self.failurePage(failure)
        } catch {
            page = Self.failurePage(BrowserFailure(.internalServerError, "The store could not be read: \(error)"))
        }
        return await layout(page)
    }

    private static func failurePage(_ failure: BrowserFailure) -> EntityBrowserPage {
        let heading =
            switch failure.status {
            case .notFound: "Not found"
            case .badRequest: "That request was not understood"
            default: failure.status.reasonPhrase
            }
        return EntityBrowserPage(
            title: heading,
            body: BrowserHTML.failure(heading: heading, reason: failure.reason),
            status: failure.status,
            failureReason: failure.reason
        )
    }

    /// The query's value for `name` as a form sends it (`application/x-www-form-urlencoded`:
    /// `+` for a space, then percent-encoding), which the router's query parameters leave as `+`.
    static func formValue(_ request: Request, _ name: String) -> String? {
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first == Substring(name) else { continue }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            let spaced = raw.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return nil
    }

    private static func page(_ request: Request) throws -> Int {
        guard let raw = request.uri.queryParameters["page"] else { return 1 }
        guard let page = Int(raw), page >= 1, page <= 1_000_000 else { throw BrowserFailure(.badRequest, "?page= must be a number from 1") }
        return page
    }

    private func entities() async throws -> EntityBrowserPage {
        let rows = try await reader.entitySummaries()
        return EntityBrowserPage(title: "Entities", body: BrowserHTML.entities(rows, prefix: prefix), status: .ok)
    }

    private func objects(of entity: String, predicate text: String, page: Int) async throws -> EntityBrowserPage {
        var predicate: FetchPredicate?
        if !text.isEmpty {
            guard text.count <= Self.maxPredicateLength else {
                throw BrowserFailure(.badRequest, "The predicate is longer than \(Self.maxPredicateLength) characters")
            }
            do {
                predicate = try FetchPredicate(parsing: text)
            } catch {
                throw BrowserFailure(.badRequest, "The predicate is not valid: \(error)")
            }
        }
        let found: BrowserReader.ObjectPage
        do {
            found = try await reader.objects(of: entity, matching: predicate, page: page, pageSize: Self.pageSize)
        } catch let error as FetchPredicateError {
            throw BrowserFailure(.badRequest, "The predicate does not fit \(entity): \(error)")
        } catch let error as ObjectGraphError where predicate != nil && [.unknownKey, .typeMismatch, .invalidRequest].contains(error.code) {
            throw BrowserFailure(.badRequest, "The predicate does not fit \(entity): \(error)")
        }
        let body = BrowserHTML.objects(found, entity: entity, predicate: text, page: page, pageSize: Self.pageSize, prefix: prefix)
        return EntityBrowserPage(title: entity, body: body, status: .ok)
    }

    private func object(_ id: ManagedObjectID) async throws -> EntityBrowserPage {
        let detail = try await reader.object(id, relationshipLimit: Self.relationshipLimit)
        return EntityBrowserPage(title: detail.object.label, body: BrowserHTML.object(detail, prefix: prefix), status: .ok)
    }
}
