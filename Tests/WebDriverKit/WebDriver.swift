public import Foundation
import Synchronization

/// One browser (a fresh headless chromium) driven over W3C WebDriver.
///
/// Create one per test with ``withSession(on:viewport:_:)`` — it quits the browser even
/// when the body throws — or with ``create(on:viewport:extraArguments:)`` and ``quit()``.
/// By default sessions run on ``ChromeDriverService/shared()``, one chromedriver per test
/// process; each session has its own chromium and profile, so sessions can be used in
/// parallel. A session is `Sendable`; commands on one session are best issued in order.
public final class WebDriverSession: Sendable {
    /// The WebDriver session id.
    public let id: String
    /// The viewport the session was created with.
    public let viewport: Viewport
    /// The chromedriver this session runs on.
    public let service: ChromeDriverService
    /// The fresh profile directory handed to chromium, removed by ``quit()`` (or by the
    /// service's ``ChromeDriverService/stop()``, or by the next test run if this one crashed).
    public let userDataDirectory: URL

    let client: WireClient
    private let hasQuit = Mutex(false)
    /// Which log command worked (`/se/log` or the legacy `/log`), once known.
    let logEndpoint = Mutex<String?>(nil)

    private init(id: String, viewport: Viewport, service: ChromeDriverService, userDataDirectory: URL) {
        self.id = id
        self.viewport = viewport
        self.service = service
        self.userDataDirectory = userDataDirectory
        self.client = service.client
    }

    /// Starts a browser: `--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage`,
    /// a new temporary `--user-data-dir`, browser console logging on (`goog:loggingPrefs`),
    /// sized per `viewport`.
    ///
    /// - Parameters:
    ///   - service: The chromedriver to use; `nil` means ``ChromeDriverService/shared()``.
    ///   - extraArguments: More chromium command-line switches.
    public static func create(
        on service: ChromeDriverService? = nil,
        viewport: Viewport = .desktop,
        extraArguments: [String] = []
    ) async throws -> WebDriverSession {
        let service = if let service { service } else { try await ChromeDriverService.shared() }
        let profile = TemporaryFiles.make("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        service.rememberProfile(profile)
        var arguments: [JSONValue] = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", .string("--user-data-dir=\(profile.path)"),
        ]
        var chromeOptions: [String: JSONValue] = ["binary": .string(service.chromiumPath)]
        switch viewport {
        case .window(let width, let height):
            arguments.append(.string("--window-size=\(width),\(height)"))
        case .device(let width, let height, let ratio, let touch):
            chromeOptions["mobileEmulation"] = [
                "deviceMetrics": [
                    "width": .number(Double(width)), "height": .number(Double(height)),
                    "pixelRatio": .number(ratio), "touch": .bool(touch),
                ]
            ]
        }
        chromeOptions["args"] = .array(arguments + extraArguments.map(JSONValue.string))
        let capabilities: JSONValue = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:loggingPrefs": ["browser": "ALL"],
                    "goog:chromeOptions": .object(chromeOptions),
                ]
            ]
        ]
        let reply: JSONValue
        do {
            reply = try await service.client.send(.post, "/session", body: capabilities)
        } catch var error as WebDriverError {
            service.forgetProfile(profile)
            error.message += " (chromedriver log: \(service.logTail(300)))"
            throw error
        }
        guard let id = reply["sessionId"]?.stringValue else {
            service.forgetProfile(profile)
            throw WebDriverError(code: WebDriverError.Code.invalidResponse, message: "no sessionId in \(reply)", command: "POST /session")
        }
        let session = WebDriverSession(id: id, viewport: viewport, service: service, userDataDirectory: profile)
        if case .window(let width, let height) = viewport {
            do {
                try await session.resizeInnerViewport(width: width, height: height)
            } catch {
                await session.quitQuietly()
                throw error
            }
        }
        return session
    }

    /// Runs `body` with a new session and always quits it afterwards.
    public static func withSession<T>(
        on service: ChromeDriverService? = nil,
        viewport: Viewport = .desktop,
        _ body: (WebDriverSession) async throws -> T
    ) async throws -> T {
        let session = try await create(on: service, viewport: viewport)
        do {
            let result = try await body(session)
            try await session.quit()
            return result
        } catch {
            await session.quitQuietly()
            throw error
        }
    }

    /// Sends a command for this session; `suffix` follows `/session/{id}`.
    @discardableResult
    func command(_ method: HTTPMethod, _ suffix: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await client.send(method, "/session/\(id)\(suffix)", body: body)
    }

    /// Resizes the window so `innerWidth` × `innerHeight` is exactly `width` × `height`.
    private func resizeInnerViewport(width: Int, height: Int) async throws {
        let chrome = try await executeScript(
            "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]"
        )
        let extraWidth = chrome[0]?.intValue ?? 0
        let extraHeight = chrome[1]?.intValue ?? 0
        if extraWidth == 0 && extraHeight == 0 { return }
        try await command(
            .post,
            "/window/rect",
            [
                "width": .number(Double(width + extraWidth)), "height": .number(Double(height + extraHeight)),
            ]
        )
    }

    // MARK: Navigation

    /// Loads `url` and waits for the page load to finish (W3C "normal" strategy).
    public func navigate(to url: URL) async throws {
        try await command(.post, "/url", ["url": .string(url.absoluteString)])
    }

    /// Loads the URL given as text (`http://…`, `file://…`, `data:…`).
    public func navigate(to url: String) async throws {
        try await command(.post, "/url", ["url": .string(url)])
    }

    /// The URL of the current page.
    public var currentURL: URL {
        get async throws {
            let value = try await command(.get, "/url")
            guard let text = value.stringValue, let url = URL(string: text) else {
                throw WebDriverError(code: WebDriverError.Code.invalidResponse, message: "not a URL: \(value)", command: "GET /session/\(id)/url")
            }
            return url
        }
    }

    /// The current page's `document.title`.
    public var title: String {
        get async throws { try await command(.get, "/title").stringValue ?? "" }
    }

    /// The current page's serialized DOM.
    public var pageSource: String {
        get async throws { try await command(.get, "/source").stringValue ?? "" }
    }

    /// History back.
    public func back() async throws { try await command(.post, "/back") }
    /// History forward.
    public func forward() async throws { try await command(.post, "/forward") }
    /// Reloads the page.
    public func refresh() async throws { try await command(.post, "/refresh") }

    // MARK: Scripts

    /// Runs `script` as a function body (`return …` gives the result); `args` are `arguments[i]`.
    /// Pass elements with ``Element/jsonValue``; returned DOM elements come back as references.
    @discardableResult
    public func executeScript(_ script: String, args: [JSONValue] = []) async throws -> JSONValue {
        try await command(.post, "/execute/sync", ["script": .string(script), "args": .array(args)])
    }

    /// Like ``executeScript(_:args:)``, decoding the result into `T`.
    public func executeScript<T: Decodable>(_ script: String, args: [JSONValue] = [], as type: T.Type) async throws -> T {
        try await executeScript(script, args: args).decode(T.self)
    }

    /// Runs an asynchronous script: it must call `arguments[arguments.length - 1](result)`.
    /// Bounded by the session's script timeout (30 s unless changed).
    @discardableResult
    public func executeAsyncScript(_ script: String, args: [JSONValue] = []) async throws -> JSONValue {
        try await command(.post, "/execute/async", ["script": .string(script), "args": .array(args)])
    }

    /// Like ``executeAsyncScript(_:args:)``, decoding the result into `T`.
    public func executeAsyncScript<T: Decodable>(_ script: String, args: [JSONValue] = [], as type: T.Type) async throws -> T {
        try await executeAsyncScript(script, args: args).decode(T.self)
    }

    // MARK: Waiting

    /// Re-checks `condition` until it returns `true`, pausing briefly between checks
    /// (10 ms, doubling to at most 100 ms) for up to `timeout`.
    ///
    /// Errors thrown by the condition count as "not yet" (a stale or missing element, say)
    /// and the last one is reported if time runs out. The timeout error has code
    /// `"timeout"` and a message naming `description`.
    public func waitUntil(
        timeout: Duration = .seconds(10),
        _ description: String,
        _ condition: () async throws -> Bool
    ) async throws {
        try await WebDriverSession.waitUntil(timeout: timeout, description, condition)
    }

    /// The session-free form of ``waitUntil(timeout:_:_:)``.
    public static func waitUntil(
        timeout: Duration = .seconds(10),
        _ description: String,
        _ condition: () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        var pause = Duration.milliseconds(10)
        var lastError: (any Error)?
        while true {
            do {
                if try await condition() { return }
                lastError = nil
            } catch {
                lastError = error
            }
            let elapsed = clock.now - start
            if elapsed >= timeout {
                let detail = lastError.map { " (last error: \($0))" } ?? ""
                throw WebDriverError(
                    code: WebDriverError.Code.timeout,
                    message: "timed out after \(timeout) waiting for \(description)\(detail)",
                    command: "waitUntil"
                )
            }
            try await Task.sleep(for: min(pause, timeout - elapsed))
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    // MARK: Ending

    /// Closes the browser (`DELETE /session/{id}`) and removes its profile. Idempotent.
    public func quit() async throws {
        guard
            hasQuit.withLock({ old in
                defer { old = true }
                return !old
            })
        else { return }
        defer { service.forgetProfile(userDataDirectory) }
        try await client.send(.delete, "/session/\(id)")
    }

    /// ``quit()`` ignoring errors, for cleanup paths.
    public func quitQuietly() async {
        try? await quit()
    }
}
