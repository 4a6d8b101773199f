import Foundation
import Hummingbird

/// `/__sandbox/…`: counters, behaviour and timeline, for tests and demos.
///
/// Reads are GETs; changes are POSTs, refused (403) when the request carries an `Origin`
/// that is not a loopback address, so a web page elsewhere cannot drive the sandbox.
struct SandboxAdminRoutes: Sendable {
    let state: SandboxState

    func register(on router: Router<BasicRequestContext>) {
        router.get("__sandbox/stats") { _, _ in try Self.json(state.stats) }
        router.post("__sandbox/stats/reset") { request, _ in
            try Self.checkOrigin(request)
            state.resetStats()
            return try Self.json(state.stats)
        }
        router.get("__sandbox/behavior") { _, _ in try Self.json(state.behavior) }
        router.post("__sandbox/behavior") { request, _ in
            try Self.checkOrigin(request)
            let body = try await request.body.collect(upTo: 64 * 1024)
            let behavior: SandboxBehavior
            do {
                behavior = try JSONDecoder().decode(SandboxBehavior.self, from: Data(String(buffer: body).utf8))
            } catch {
                throw HTTPError(.badRequest, message: "Expected a SandboxBehavior JSON object: \(error)")
            }
            state.setBehavior(behavior)
            return try Self.json(state.behavior)
        }
        router.get("__sandbox/timeline") { _, _ in try Self.json(timeline()) }
        router.post("__sandbox/timeline/advance") { request, _ in
            try Self.checkOrigin(request)
            let steps = request.uri.queryParameters.get("by").flatMap { Int($0) } ?? 1
            state.advanceEpoch(by: steps)
            return try Self.json(timeline())
        }
        router.post("__sandbox/timeline/reset") { request, _ in
            try Self.checkOrigin(request)
            state.setEpoch(0)
            return try Self.json(timeline())
        }
    }

    /// The timeline as JSON: where it is, and what each step does.
    struct Timeline: Codable {
        struct Step: Codable {
            var epoch: Int
            var summary: String
        }
        var epoch: Int
        var maxEpoch: Int
        var photos: Int
        var steps: [Step]
    }

    func timeline() -> Timeline {
        Timeline(
            epoch: state.epoch,
            maxEpoch: state.catalogue.maxEpoch,
            photos: state.currentPhotos.count,
            steps: state.catalogue.timeline.enumerated().map { Timeline.Step(epoch: $0.offset + 1, summary: $0.element.summary) }
        )
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers[.origin] else { return }
        let host = URL(string: origin)?.host?.lowercased()
        guard host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1" else {
            throw HTTPError(.forbidden, message: "Sandbox changes are accepted from loopback origins only")
        }
    }
}
