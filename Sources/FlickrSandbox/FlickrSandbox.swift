import Flickr
public import Foundation
package import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A Flickr-compatible server on loopback with a bundled catalogue of Stanford photos.
///
/// It answers Flickr's REST calls (`flickr.photos.search`, `flickr.photos.getRecent`,
/// `flickr.test.echo`) in Flickr's JSON, serves generated JPEGs at Flickr's image paths,
/// misbehaves on demand (latency, HTTP 500/503, `stat: fail` 105, broken JSON, truncated
/// images, dropped connections), changes over time through a timeline of epochs, and counts
/// every request. It is SPoT's Flickr when there is no `FLICKR_API_KEY`, and the tests'.
///
/// ```swift
/// let sandbox = FlickrSandbox()
/// let baseURL = try await sandbox.start()          // http://127.0.0.1:<free port>
/// let client = FlickrClient(configuration: .sandbox(baseURL: baseURL))
/// let photos = try await client.allPhotos(.stanfordSpots())
/// print(sandbox.stats.restCalls("flickr.photos.search"))
/// await sandbox.stop()
/// ```
public final class FlickrSandbox: Sendable {
    /// How the sandbox was configured at creation.
    public let configuration: SandboxConfiguration

    let state: SandboxState
    let images = SandboxImageCache()
    private let running = Mutex<Running?>(nil)

    private struct Running {
        var baseURL: URL
        var task: Task<Void, Never>
    }

    /// Creates a sandbox (not yet listening) with the Stanford catalogue.
    public init(configuration: SandboxConfiguration = SandboxConfiguration()) {
        self.configuration = configuration
        self.state = SandboxState(behavior: configuration.behavior, epoch: configuration.epoch, catalogue: .stanford)
    }

    /// The router with every route, for in-memory tests (`app.test(.router)`).
    package func buildRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        SandboxRoutes(
            state: state,
            images: images,
            clock: ClockBox(configuration.clock),
            acceptedAPIKeys: configuration.acceptedAPIKeys,
            logger: configuration.logger
        ).register(on: router)
        return router
    }

    /// Starts listening on 127.0.0.1 and returns the base URL, e.g. `http://127.0.0.1:53121`.
    ///
    /// - Parameter port: the port; 0 (the default) picks a free one.
    /// - Throws: ``FlickrSandboxError`` when already running or when the port cannot be bound.
    @discardableResult
    public func start(port: Int = 0) async throws -> URL {
        if running.withLock({ $0 != nil }) { throw FlickrSandboxError("The sandbox is already running") }
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let failure = Mutex<String?>(nil)
        // The server's own logger only speaks up for real trouble: stopping cancels the
        // server, which it would otherwise report as an error on every stop.
        var serverLogger = configuration.logger
        serverLogger.logLevel = .critical
        let app = Application(
            router: buildRouter(),
            // Flickr does not drop connections: a burst of thumbnail requests waits in the
            // kernel's queue (capped at net.core.somaxconn) rather than Hummingbird's 256,
            // past which connection attempts are retried after 1, 3, 7 s.
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: "FlickrSandbox", backlog: 4096),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? port)
                portContinuation.finish()
            },
            logger: serverLogger
        )
        let task = Task {
            do {
                try await app.run()
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            portContinuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            task.cancel()
            throw FlickrSandboxError("Could not listen on 127.0.0.1:\(port): \(failure.withLock { $0 } ?? "server stopped")")
        }
        let baseURL = URL(string: "http://127.0.0.1:\(boundPort)")!
        running.withLock { $0 = Running(baseURL: baseURL, task: task) }
        if configuration.prerenderThumbnails { prerenderThumbnails() }
        configuration.logger.info("Flickr sandbox listening", metadata: ["url": "\(baseURL.absoluteString)"])
        return baseURL
    }

    /// Stops listening; requests in flight are cut off. Does nothing when not running.
    public func stop() async {
        guard
            let current = running.withLock({ state -> Running? in
                defer { state = nil }
                return state
            })
        else { return }
        current.task.cancel()
        await current.task.value
    }

    /// Waits until the sandbox stops (for the `flickr-sandbox` executable).
    public func waitUntilStopped() async {
        await running.withLock { $0?.task }?.value
    }

    /// The base URL while running, else `nil`.
    public var baseURL: URL? { running.withLock { $0?.baseURL } }

    private func prerenderThumbnails() {
        let photos = state.currentPhotos
        let images = self.images
        Task.detached(priority: .background) {
            for photo in photos {
                _ = await images.jpeg(for: photo, format: .square75)
                _ = await images.jpeg(for: photo, format: .square150)
            }
        }
    }
}

/// Why the sandbox could not do what it was asked.
public struct FlickrSandboxError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
