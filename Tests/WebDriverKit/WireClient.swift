import Foundation

/// The HTTP method of a WebDriver command.
enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case delete = "DELETE"
}

/// Sends W3C WebDriver commands (JSON over HTTP) to one chromedriver and unwraps
/// the `{"value": …}` envelope, turning `{"value": {"error": …}}` into ``WebDriverError``.
///
/// Uses ``LoopbackHTTP`` rather than `URLSession`, which can't read chromedriver's replies
/// on Swift 6.3 for Linux (see there).
struct WireClient: Sendable {
    /// chromedriver's loopback port.
    let port: Int
    /// Default per-request timeout; long enough for slow page loads on a busy machine.
    let requestTimeout: TimeInterval

    init(port: Int, requestTimeout: TimeInterval = 120) {
        self.port = port
        self.requestTimeout = requestTimeout
    }

    /// Sends one command and returns its `value`.
    ///
    /// - Parameters:
    ///   - path: Path below the base URL, starting with `/`.
    ///   - body: JSON body; `POST` without a body sends `{}` as W3C requires.
    ///   - timeout: Per-request timeout overriding the default.
    @discardableResult
    func send(
        _ method: HTTPMethod,
        _ path: String,
        body: JSONValue? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> JSONValue {
        let command = "\(method.rawValue) \(path)"
        let payload: Data? = method == .post ? try JSONEncoder().encode(body ?? .object([:])) : nil
        let response: LoopbackHTTP.Response
        do {
            response = try await LoopbackHTTP.request(
                port: port,
                method: method.rawValue,
                path: path,
                body: payload,
                timeout: timeout ?? requestTimeout
            )
        } catch {
            throw WebDriverError(code: WebDriverError.Code.transport, message: "\(error)", command: command)
        }
        let status = response.status
        let data = response.body
        guard let envelope = try? JSONDecoder().decode(JSONValue.self, from: data),
            let value = envelope["value"]
        else {
            let text = String(decoding: data.prefix(500), as: UTF8.self)
            throw WebDriverError(
                code: WebDriverError.Code.transport,
                message: "HTTP \(status), not a WebDriver reply: \(text)",
                command: command
            )
        }
        if let code = value["error"]?.stringValue {
            let message = value["message"]?.stringValue ?? "(no message)"
            throw WebDriverError(code: code, message: message, command: command)
        }
        guard (200..<300).contains(status) else {
            throw WebDriverError(
                code: "unknown error",
                message: "HTTP \(status): \(value)",
                command: command
            )
        }
        return value
    }
}
