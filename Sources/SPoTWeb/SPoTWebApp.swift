import Foundation
public import Hummingbird
import HummingbirdCore
import Synchronization
public import Logging
public import SPoTKit
import ServiceLifecycle

/// The Stanford photo tour in the browser: pages, the JSON API, live updates, images and
/// static assets over one ``SPoT``.
///
/// ```swift
/// let web = try await SPoTWebApp(spot: spot)
/// let app = web.application(host: "127.0.0.1", port: 8080)
/// try await app.runService()          // until SIGINT / SIGTERM
/// ```
public final class SPoTWebApp: Sendable {
    /// The app's domain: store, refresher, thumbnails, image cache.
    public let spot: SPoT
    let hub: ListHub
    /// What every event stream shares: status, keep-alives, the count of open streams.
    let live: LiveStreams
    let renderer: PageRenderer
    let pages: PageBuilder
    let assets: StaticAssets
    let openAPI: OpenAPIDocument
    let logger: Logger
    /// Requests the server answered, by kind (thumbnails, images, pages), for tests and
    /// the status page.
    let counters = RequestCounters()

    /// Loads the templates and assets and prepares the live lists of `spot`.
    /// - Throws: ``SPoTWebError`` when a bundled template or asset is missing or broken.
    public convenience init(spot: SPoT, logger: Logger = Logger(label: "spot.web")) async throws {
        try await self.init(spot: spot, logger: logger, additionalStaticFiles: [:])
    }

    /// Also serves `additionalStaticFiles` (name → bytes and content type) under `/static/`,
    /// as the bundled assets are: for spot-webbench's static file of each page's size.
    package init(
        spot: SPoT,
        logger: Logger,
        additionalStaticFiles: [String: (bytes: [UInt8], contentType: String)]
    ) async throws {
        self.spot = spot
        self.logger = logger
        renderer = try await PageRenderer.bundled()
        let missing = renderer.missingTemplates()
        guard missing.isEmpty else { throw SPoTWebError("Templates missing from SPoTWeb's bundle: \(missing.joined(separator: ", "))") }
        assets = try StaticAssets.bundled().adding(additionalStaticFiles)
        openAPI = try OpenAPIDocument.bundled()
        pages = PageBuilder(renderer: renderer, refresher: spot.refresher)
        hub = ListHub(store: spot.store, renderer: renderer)
        live = LiveStreams(refresher: spot.refresher)
    }

    /// Every route, for serving or for in-memory tests (`app.test(.router)`).
    ///
    /// Every `GET` route also answers `HEAD`: the same status and headers, no body.
    public func buildRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: HeadMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware(pages: pages))
        router.add(middleware: OriginCheckMiddleware())
        PageRoutes(web: self).register(on: router)
        ActionRoutes(web: self).register(on: router)
        APIRoutes(web: self).register(on: router)
        EventRoutes(web: self).register(on: router)
        ImageRoutes(web: self).register(on: router)
        AssetRoutes(assets: assets).register(on: router)
        DebugRoutes(web: self).register(on: router)
        return router
    }

    /// The server on `host:port`, with a service that, on shutdown, ends every live event
    /// stream and stops refreshing (the page being saved is finished first).
    ///
    /// It holds as many connections as the open-files limit in force allows, less a reserve
    /// for the database and files (``ConnectionAllowance``): raise the limit before.
    ///
    /// With `shutdownDeadline` (what `spot serve` passes: ``shutdownDeadline``), a graceful
    /// shutdown that has not ended the process by then exits it with status 1 and a line
    /// naming what held it; without, shutdown takes as long as it takes (a process that goes
    /// on after the server, such as a test, must not be ended).
    public func application(
        host: String = "127.0.0.1",
        port: Int = 8080,
        shutdownDeadline: Duration? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(),
            // Event streams beneath the router, on their connections' event loops.
            server: .http1(configuration: HTTP1Channel.Configuration(additionalChannelHandlers: [EventStreamHandler(web: self)])),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port),
                serverName: "SPoT",
                backlog: Self.listenBacklog,
                availableConnectionsDelegate: ConnectionAllowance(logger: logger)
            ),
            services: [LifecycleService(web: self, shutdownDeadline: shutdownDeadline)],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    /// How many connections the kernel queues for the server before it accepts them (Linux
    /// caps it at `net.core.somaxconn`, 4096 by default). A burst of browsers — a class
    /// opening the tour at once, every event stream reconnecting after a restart — waits
    /// there while the server is busy; past the queue, the kernel drops connection attempts
    /// and browsers retry after 1, 3, 7, 15 s. Hummingbird's default of 256 let a load
    /// test's 500 streams on a loaded machine wait over a minute.
    static let listenBacklog = 4096

    /// How long a graceful shutdown may take before the process exits with status 1, naming
    /// what held it.
    public static let shutdownDeadline: Duration = .seconds(10)

    /// Ends every live event stream and closes the lists.
    public func closeLiveLists() async {
        await hub.closeAll()
        live.close()
    }

    /// Starts refreshing with the app and, on graceful shutdown, stops in order.
    private struct LifecycleService: Service {
        let web: SPoTWebApp
        let shutdownDeadline: Duration?

        func run() async throws {
            await web.spot.startRefreshing()
            try? await gracefulShutdown()
            web.logger.info("shutting down: closing live lists and finishing the refresh in progress")
            let phase = Mutex("closing the live lists (waiting for their context to finish merging earlier saves)")
            if let shutdownDeadline {
                let live = web.live
                ShutdownWatchdog.start(deadline: shutdownDeadline) {
                    "\(phase.withLock { $0 }); \(live.openStreams) event streams still open"
                }
            }
            await web.closeLiveLists()
            phase.withLock { $0 = "closing the store (finishing the refresh in progress and its save)" }
            await web.spot.close()
        }
    }
}
