import Flickr
import FlickrSandbox
import Foundation
import Logging
import Synchronization

/// A running sandbox and a client pointed at it, both on manual clocks, for one test.
struct SandboxHarness {
    let sandbox: FlickrSandbox
    let baseURL: URL
    /// The sandbox's clock (injected latency).
    let sandboxClock: ManualClock
    /// The client's clock (backoff, rate limit, timeouts).
    let clientClock: ManualClock
    let client: FlickrClient
    let configuration: FlickrConfiguration

    /// Runs `body` with a fresh sandbox on a free loopback port, then stops it.
    static func run<Value>(
        behavior: SandboxBehavior = SandboxBehavior(),
        acceptedAPIKeys: Set<String>? = nil,
        apiKey: FlickrAPIKey = FlickrAPIKey("test-key-0123456789abcdef"),
        retryPolicy: FlickrRetryPolicy = .none,
        rateLimit: FlickrRateLimit? = nil,
        requestTimeout: Duration? = nil,
        maxImageBytes: Int = 20 * 1024 * 1024,
        seed: UInt64 = 1,
        logger: Logger = Logger(label: "test.flickr") { _ in SwiftLogNoOpLogHandler() },
        _ body: (SandboxHarness) async throws -> Value
    ) async throws -> Value {
        let sandboxClock = ManualClock()
        let sandbox = FlickrSandbox(
            configuration: SandboxConfiguration(
                behavior: behavior,
                clock: sandboxClock,
                acceptedAPIKeys: acceptedAPIKeys,
                logger: Logger(label: "test.sandbox") { _ in SwiftLogNoOpLogHandler() }
            )
        )
        let baseURL = try await sandbox.start(port: 0)
        let clientClock = ManualClock()
        var configuration = FlickrConfiguration.sandbox(baseURL: baseURL, apiKey: apiKey)
        configuration.retryPolicy = retryPolicy
        configuration.rateLimit = rateLimit
        configuration.requestTimeout = requestTimeout
        configuration.maxImageBytes = maxImageBytes
        configuration.clock = clientClock
        configuration.makeRandomNumberGenerator = { SplitMix64(seed: seed) }
        let harness = SandboxHarness(
            sandbox: sandbox,
            baseURL: baseURL,
            sandboxClock: sandboxClock,
            clientClock: clientClock,
            client: FlickrClient(configuration: configuration, logger: logger),
            configuration: configuration
        )
        do {
            let value = try await body(harness)
            await sandbox.stop()
            return value
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Advances the client clock through every backoff sleep until `task` finishes.
    func advanceThroughSleeps<Value: Sendable>(of task: Task<Value, any Error>, sleeps: Int) async {
        for _ in 0..<sleeps {
            await clientClock.waitForSleepers(count: 1)
            // A test cancelled at its time limit stops waiting with no sleeper to advance: it
            // ends with the time-limit issue, not a crash that takes every other test with it.
            guard !Task.isCancelled, let next = clientClock.pendingSleeps.first else { return }
            clientClock.advance(by: next)
        }
    }
}

/// Collects log lines (message and metadata) in memory.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func logger(label: String = "test.capture") -> Logger {
        var logger = Logger(label: label) { _ in CapturingHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    struct CapturingHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
