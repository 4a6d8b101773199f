import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ObjectGraph
import ObjectGraphBrowser

/// `objectgraph browse STORE [--model M] [--host H] [--port N]`: the entity browser SPoT
/// serves at `/debug/entities`, over any store, until interrupted.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Serve a browser of the store's entities and objects, with a predicate filter, until interrupted.",
        discussion: """
            Prints "Browsing STORE at http://HOST:PORT/" once it listens. The store opens read-only, with \
            the given model or the one Core Data cached in it (Z_MODELCACHE). --port 0 picks a free port. \
            Ctrl-C or SIGTERM stops.
            """
    )

    @Argument(help: "The store file, or a PostgreSQL store's postgres://user@host[:port]/database[?schema=name] URL.")
    var store: String

    @Option(help: "The model that wrote the store (.xcdatamodeld, .xcdatamodel, .momd or .mom); by default the one the store carries.")
    var model: String?

    @Option(help: "The address to listen on; 127.0.0.1 keeps the browser private to this machine.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8089

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--host must name an address") }
    }

    func run() async throws {
        let location = try StoreLocation(store)
        let opened = try OpenedStore(store: location, model: model)
        let browser = EntityBrowser(
            container: opened.container,
            layout: EntityBrowser.standaloneLayout(heading: "objectgraph browse " + location.name)
        )
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.get("/") { _, _ in Response.redirect(to: "/entities") }
        browser.register(on: router)
        let (store, host, port) = (location.name, self.host, self.port)
        // Warnings and errors only: standard output is for the address line.
        var logger = Logger(label: "objectgraph.browse")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "objectgraph"),
            onServerRunning: { channel in
                let shown = host == "0.0.0.0" ? "127.0.0.1" : host
                // Unbuffered: a script (or a test) waiting for this line must not wait for a buffer.
                FileHandle.standardOutput.write(Data("Browsing \(store) at http://\(shown):\(channel.localAddress?.port ?? port)/\n".utf8))
            },
            logger: logger
        )
        do {
            try await app.runService()
        } catch {
            throw ToolError("could not serve on \(host):\(port): \(error)")
        }
    }
}
