import Hummingbird

/// `HEAD` answered as `GET` would be, without the body.
///
/// The router generates a `HEAD` endpoint for every `GET` route
/// (`RouterOptions.autoGenerateHeadEndpoints`); this middleware, outermost, makes every `HEAD`
/// answer body-less — error pages and unknown paths included — while keeping the headers a
/// `GET` sends, `Content-Length` among them, so load balancers' health checks and `curl -I`
/// see what a `GET` would get.
///
/// The body's writer is still run, into a writer that refuses the first byte: a streaming
/// body (server-sent events) then ends at once and lets go of what it subscribed to, instead
/// of holding it until the server stops.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        let response = try await next(request, context)
        var headers = response.headers
        // A length the body declared, or 0 for a stream whose length nobody knows: never a
        // chunked encoding, whose terminating chunk would be a body.
        headers[.contentLength] = String(response.body.contentLength ?? 0)
        try? await response.body.write(RefusingBodyWriter())
        return Response(status: response.status, headers: headers, body: ResponseBody())
    }
}

/// A body writer that takes nothing: the first write ends the body's writer with an error.
private struct RefusingBodyWriter: ResponseBodyWriter {
    struct BodyNotSent: Error {}

    mutating func write(_ buffer: ByteBuffer) async throws {
        throw BodyNotSent()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
