import Flickr
import Foundation
import Hummingbird
import Logging

/// The sandbox's request handlers: Flickr's REST endpoint, its image paths, and the
/// `/__sandbox/…` admin routes.
struct SandboxRoutes: Sendable {
    let state: SandboxState
    let images: SandboxImageCache
    let clock: ClockBox
    let acceptedAPIKeys: Set<String>?
    let logger: Logger

    /// Adds every route to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in self.index() }
        router.get("services/rest") { request, _ in try await self.rest(request) }
        router.get(":server/:file") { request, context in
            try await self.image(request, server: context.parameters.get("server") ?? "", file: context.parameters.get("file") ?? "")
        }
        SandboxAdminRoutes(state: state).register(on: router)
    }

    // MARK: REST

    func rest(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        let method = parameters.first { $0.0 == "method" }?.1 ?? "-"
        state.record(route: "rest \(method)")
        logger.debug("sandbox REST call", metadata: ["flickr.method": "\(method)"])
        let behavior = state.behavior
        if behavior.restLatencyMilliseconds > 0 {
            try await clock.sleep(for: .milliseconds(behavior.restLatencyMilliseconds))
        }
        let host = request.head.authority.map { "http://\($0)" } ?? "http://127.0.0.1"
        let answerer = SandboxRESTAnswerer(acceptedAPIKeys: acceptedAPIKeys, photoHost: host)
        let fault = state.nextFault(forImage: false)
        if let fault { logger.info("sandbox injects a fault", metadata: ["fault": "\(fault.rawValue)", "route": "rest \(method)"]) }
        switch fault {
        case .http500: return Self.errorPage(500, "Internal Server Error")
        case .http503: return Self.errorPage(503, "Service Unavailable")
        case .dropConnection: return Self.droppedConnection(contentType: "application/json; charset=utf-8")
        case .serviceUnavailable:
            return Self.response(answerer.failure(105, "Service currently unavailable", parameters: parameters))
        case .malformedJSON:
            var answer = answerer.answer(parameters, photos: state.currentPhotos)
            answer.body = Array(answer.body.prefix(max(1, answer.body.count / 2)))
            return Self.response(answer)
        case .truncatedImage, nil:
            return Self.response(answerer.answer(parameters, photos: state.currentPhotos))
        }
    }

    // MARK: Images

    /// `/{server}/{id}_{secret}_{suffix}.jpg`, `/{server}/{id}_{secret}.jpg` (500 size) and
    /// `/{server}/{id}_{originalsecret}_o.{originalformat}`; 404 for anything else.
    func image(_ request: Request, server: String, file: String) async throws -> Response {
        let dot = file.lastIndex(of: ".")
        let stem = dot.map { String(file[..<$0]) } ?? file
        let fileExtension = dot.map { String(file[file.index(after: $0)...]) } ?? ""
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        let suffix = parts.count == 3 ? parts[2] : ""
        let photoID = parts.first ?? ""
        let photo = state.currentPhotos.first { $0.id == photoID }
        state.record(route: "image \(suffix.isEmpty ? "-" : suffix)", photoID: photo?.id, suffix: suffix)
        guard let photo, photo.server == server, parts.count == 2 || parts.count == 3,
            let format = FlickrPhotoFormat(suffix: suffix), parts.count == 3 || format == .medium500,
            let secret = photo.secret(for: format), parts[1] == secret,
            fileExtension == (format == .original ? photo.originalFormat ?? "" : "jpg")
        else {
            return Self.errorPage(404, "Not Found")
        }
        let behavior = state.behavior
        if behavior.imageLatencyMilliseconds > 0 {
            try await clock.sleep(for: .milliseconds(behavior.imageLatencyMilliseconds))
        }
        let fault = state.nextFault(forImage: true)
        if let fault { logger.info("sandbox injects a fault", metadata: ["fault": "\(fault.rawValue)", "photo": "\(photo.id)"]) }
        switch fault {
        case .http500: return Self.errorPage(500, "Internal Server Error")
        case .http503: return Self.errorPage(503, "Service Unavailable")
        case .dropConnection: return Self.droppedConnection(contentType: "image/jpeg")
        default: break
        }
        var bytes = await images.jpeg(for: photo, format: format)
        if fault == .truncatedImage { bytes = Array(bytes.prefix(bytes.count / 2)) }
        var headers = HTTPFields()
        headers[.contentType] = "image/jpeg"
        headers[.cacheControl] = "max-age=315360000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: Index

    func index() -> Response {
        let photos = state.currentPhotos
        var lines = [
            "Flickr sandbox — a Flickr-compatible server with a bundled Stanford catalogue.",
            "", "REST:   GET /services/rest/?method=flickr.photos.search&api_key=…&tags=cs193pspot&format=json&nojsoncallback=1",
            "Images: GET /{server}/{id}_{secret}_{suffix}.jpg",
            "Admin:  GET /__sandbox/stats · POST /__sandbox/stats/reset · GET|POST /__sandbox/behavior",
            "        GET /__sandbox/timeline · POST /__sandbox/timeline/advance · POST /__sandbox/timeline/reset",
            "", "Epoch \(state.epoch) of \(state.catalogue.maxEpoch): \(photos.count) photos.", "",
        ]
        for spot in state.catalogue.spots {
            let count = photos.filter { $0.hasTag(spot.tag) }.count
            lines.append("\(spot.tag): \(spot.name), \(count) photos")
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: lines.joined(separator: "\n") + "\n")))
    }

    // MARK: Response helpers

    static func response(_ answer: SandboxAnswer) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = answer.contentType
        return Response(
            status: .init(code: answer.status),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    static func errorPage(_ status: Int, _ reason: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        let html = "<html><head><title>\(status) \(reason)</title></head><body><h1>\(status) \(reason)</h1></body></html>\n"
        return Response(status: .init(code: status, reasonPhrase: reason), headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Headers promising a body that never comes: the server closes the connection.
    static func droppedConnection(contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(contentLength: 1024) { _ in throw SandboxDroppedConnection() }
        )
    }
}

/// Thrown by a response body to make the server drop the connection.
struct SandboxDroppedConnection: Error {}
