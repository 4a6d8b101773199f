/// An error from the WebDriver harness or from chromedriver itself.
///
/// For errors chromedriver reports, ``code`` is the W3C error code
/// (`"no such element"`, `"javascript error"`, `"timeout"`, …) and ``message`` its
/// message. Errors raised by the harness use the codes in ``Code``.
/// ``command`` names what was being done, e.g. `POST /session/{id}/element`.
public struct WebDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The W3C error code, or one of the harness codes in ``Code``.
    public var code: String
    /// A human-readable explanation.
    public var message: String
    /// The WebDriver command (HTTP method and path) or harness operation that failed.
    public var command: String

    /// Creates an error.
    public init(code: String, message: String, command: String) {
        self.code = code
        self.message = message
        self.command = command
    }

    /// `"<command>: <code>: <message>"`.
    public var description: String { "\(command): \(code): \(message)" }

    /// Error codes used by the harness in addition to the W3C ones.
    public enum Code {
        /// `chromium` or `chromedriver` is not on `PATH`.
        public static let executableNotFound = "executable not found"
        /// chromedriver exited or never became ready.
        public static let driverStartFailed = "driver start failed"
        /// The HTTP request to chromedriver failed or the reply was not WebDriver JSON.
        public static let transport = "transport error"
        /// A reply did not have the expected shape.
        public static let invalidResponse = "invalid response"
        /// ``WebDriverSession/waitUntil(timeout:_:_:)`` gave up (same spelling as the W3C code).
        public static let timeout = "timeout"
    }
}
