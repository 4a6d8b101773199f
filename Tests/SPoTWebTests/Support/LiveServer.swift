import Foundation
import Hummingbird
@testable import SPoTWeb

extension WebFixture {
    /// Serves the app on a free loopback port while `body` runs with its base URL
    /// (`http://127.0.0.1:PORT`), then stops it.
    func serve<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = Task {
            try await web.application(host: "127.0.0.1", port: 0) { port in continuation.yield(port) }.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            server.cancel()
            throw EventStreamError(message: "the server did not start")
        }
        do {
            let value = try await body("http://127.0.0.1:\(port)")
            server.cancel()
            return value
        } catch {
            server.cancel()
            throw error
        }
    }
}
