import Hummingbird

/// Security headers on every response, error pages included.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        SecurityHeaders.add(to: &response.headers)
        return response
    }
}

/// The headers every response carries, whoever writes it (the router's middleware, or
/// ``EventStreamHandler`` beneath it).
enum SecurityHeaders {
    /// No inline script or style, images and connections only to this server.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    /// Sets the security headers in `headers`.
    static func add(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "same-origin"
    }
}

/// The origin check for state changes.
///
/// Every route that changes state is a POST; a POST whose `Origin` (or, without one, whose
/// `Referer`) is not this server, or that a browser marks `Sec-Fetch-Site: cross-site`, is
/// refused with 403 before it reaches a handler. A POST that carries neither header is refused
/// too: browsers always send one, so only a forged request lacks both.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .post || request.method == .put || request.method == .delete || request.method == .patch {
            if let refusal = Self.crossOriginRefusal(request) { throw WebError(.forbidden, refusal) }
        }
        return try await next(request, context)
    }

    /// Whether `url` (an `Origin`, or a `Referer` with a path) is this server at `authority`.
    static func isSameOrigin(_ url: String, as authority: String) -> Bool {
        ["http://" + authority, "https://" + authority].contains { url == $0 || url.hasPrefix($0 + "/") }
    }

    /// Why a state-changing request is refused, or `nil` when it comes from this server's pages.
    static func crossOriginRefusal(_ request: Request) -> String? {
        if request.headers[.secFetchSite] == "cross-site" { return "Cross-site requests may not change anything" }
        guard let host = request.head.authority, !host.isEmpty else { return "The request names no host" }
        if let origin = request.headers[.origin] {
            return isSameOrigin(origin, as: host) ? nil : "Requests from \(origin) may not change anything here"
        }
        if let referer = request.headers[.referer] {
            return isSameOrigin(referer, as: host) ? nil : "Requests from other sites may not change anything here"
        }
        return "A request that changes something must say where it comes from (Origin header)"
    }
}

extension HTTPFields.Element.Name {
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
