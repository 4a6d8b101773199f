public import Foundation
import Synchronization

extension WebDriverSession {
    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        let value = try await command(.get, "/screenshot")
        guard let base64 = value.stringValue, let data = Data(base64Encoded: base64) else {
            throw WebDriverError(
                code: WebDriverError.Code.invalidResponse,
                message: "screenshot is not base64",
                command: "GET /session/\(id)/screenshot"
            )
        }
        return data
    }

    /// Writes ``screenshot()`` to `url` (a `.png` file), creating folders as needed.
    public func saveScreenshot(to url: URL) async throws {
        let data = try await screenshot()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Browser console messages since the last call (chromedriver hands each out once).
    ///
    /// Uses `POST /session/{id}/se/log` `{"type":"browser"}`; falls back to the legacy
    /// `POST /session/{id}/log` if a chromedriver lacks it (both work with chromedriver 156).
    public func browserLogs() async throws -> [BrowserLogEntry] {
        let preferred = logEndpoint.withLock { $0 } ?? "/se/log"
        let value: JSONValue
        do {
            value = try await command(.post, preferred, ["type": "browser"])
        } catch let error as WebDriverError where error.code == "unknown command" && preferred == "/se/log" {
            value = try await command(.post, "/log", ["type": "browser"])
            logEndpoint.withLock { $0 = "/log" }
        }
        return try BrowserLogEntry.entries(from: value, command: "POST /session/\(id)/se/log")
    }
}

/// One browser console message from ``WebDriverSession/browserLogs()``.
public struct BrowserLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// chromedriver's level: `"SEVERE"` (console.error, uncaught errors), `"WARNING"`, `"INFO"`, `"DEBUG"`.
    public var level: String
    /// The text, e.g. `console-api 2:32 "boom"` (source location, then the logged values).
    public var message: String
    /// Where it came from, e.g. `"console-api"`, `"javascript"`, `"network"`.
    public var source: String?
    /// When it was logged.
    public var timestamp: Date

    /// `true` for `SEVERE` entries.
    public var isError: Bool { level == "SEVERE" }

    /// Reads one entry; every field but `source` must be there, with its type.
    /// - Throws: ``WebDriverError`` (`invalid response`) for anything else.
    init(json: JSONValue, command: String = "browser log") throws {
        guard let level = json["level"]?.stringValue, let message = json["message"]?.stringValue,
            let timestamp = json["timestamp"]?.doubleValue
        else {
            throw WebDriverError(code: WebDriverError.Code.invalidResponse, message: "malformed log entry: \(json)", command: command)
        }
        self.level = level
        self.message = message
        source = json["source"]?.stringValue
        self.timestamp = Date(timeIntervalSince1970: timestamp / 1000)
    }

    /// The entries of a log reply: an array of entries, or an error. A malformed reply is an
    /// error, never an empty log, so a check for console errors cannot pass on a reply it
    /// could not read.
    /// - Throws: ``WebDriverError`` (`invalid response`).
    public static func entries(from value: JSONValue, command: String = "browser log") throws -> [BrowserLogEntry] {
        guard let array = value.arrayValue else {
            throw WebDriverError(code: WebDriverError.Code.invalidResponse, message: "the log is not an array: \(value)", command: command)
        }
        return try array.map { try BrowserLogEntry(json: $0, command: command) }
    }

    /// `"[LEVEL] message"`.
    public var description: String { "[\(level)] \(message)" }
}
