import Hummingbird
import Logging

/// Turns every error a handler throws into a page (HTML routes) or a JSON body (`/api/…`)
/// with the right status and a reason — never an empty 500, never a crash.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let pages: PageBuilder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let path = request.uri.path
            let webError = WebError(error, path: path)
            if webError.status.code >= 500 {
                context.logger.error("request failed", metadata: ["path": "\(path)", "error": "\(error)"])
            }
            if path.hasPrefix("/api/") || path == "/health" || path == "/events" {
                return JSONResponse.error(webError)
            }
            return pages.errorPage(webError)
        }
    }
}
