import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Reads a server-sent event stream from a live server, event by event.
struct EventStreamReader {
    struct Event {
        var name: String
        var data: String

        /// The data as a JSON object.
        func object() throws -> [String: Any] { try json(data) }
    }

    private var body: HTTPClientResponse.Body.AsyncIterator
    private var buffer = ""

    /// Reads the events of `response`, whose status and headers the caller checked.
    init(_ response: HTTPClientResponse) {
        body = response.body.makeAsyncIterator()
    }

    /// Connects to `url` and checks that it answers with an event stream.
    static func connect(_ url: String, client: HTTPClient = .shared) async throws -> EventStreamReader {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await client.execute(request, timeout: .seconds(30))
        guard response.status == .ok, response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true else {
            throw EventStreamError(message: "\(url) answered \(response.status) \(response.headers)")
        }
        return EventStreamReader(response)
    }

    /// The next event (comments and `retry:` lines skipped); `nil` when the stream ends.
    mutating func next() async throws -> Event? {
        while true {
            if let end = buffer.range(of: "\n\n") {
                let block = String(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                var event = Event(name: "message", data: "")
                var sawData = false
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") {
                        event.data += (sawData ? "\n" : "") + line.dropFirst(6)
                        sawData = true
                    }
                }
                if sawData { return event }
                continue
            }
            guard let chunk = try await body.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }

    /// The next event called `name`, skipping others.
    mutating func next(named name: String) async throws -> Event {
        while let event = try await next() {
            if event.name == name { return event }
        }
        throw EventStreamError(message: "the stream ended before a \(name) event")
    }
}

struct EventStreamError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
