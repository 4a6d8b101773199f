import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

@testable import SPoTWeb

/// A server started for a test: its base URL, and a way to stop it as SIGTERM would.
struct RunningServer: Sendable {
    let base: String
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(base: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.base = base
        self.port = port
        self.group = group
        self.task = task
    }

    /// Shuts the server down gracefully (live event streams end, the refresher stops) and
    /// waits until it has.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

extension WebFixture {
    /// Serves the app on a free loopback port while `body` runs with its base URL
    /// (`http://127.0.0.1:PORT`), then stops it.
    func serve<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        try await serve(web, port: 0) { server in try await body(server.base) }
    }

    /// Serves `web` on `port` (0: a free one) while `body` runs, then stops it (if `body`
    /// did not already).
    func serve<Value>(_ web: SPoTWebApp, port: Int, _ body: (RunningServer) async throws -> Value) async throws -> Value {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = web.application(host: "127.0.0.1", port: port) { port in continuation.yield(port) }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: WebFixture.silent))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            let outcome = await task.result
            throw EventStreamError(message: "the server did not start on port \(port): \(outcome)")
        }
        let server = RunningServer(base: "http://127.0.0.1:\(bound)", port: bound, group: group, task: task)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }
}
