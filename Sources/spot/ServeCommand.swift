import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SPoTKit
import SPoTWeb
import ServiceLifecycle
import UnixSignals

/// `spot serve`: the tour in the browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the Stanford photo tour in the browser.",
        discussion: """
            Starts a web server (127.0.0.1:8080 by default) over the database in --data-dir. Without a \
            Flickr API key it uses the built-in Flickr sandbox. Refreshes at once when the database is empty, \
            then every --refresh-minutes. Ctrl-C or SIGTERM finishes the page being saved and exits.
            """
    )

    @OptionGroup var options: SpotOptions

    @Option(help: "The address to listen on; 127.0.0.1 keeps the server private to this machine.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(name: .customLong("refresh-minutes"), help: ArgumentHelp("Minutes between refreshes; 0 refreshes only on demand.", valueName: "n"))
    var refreshMinutes: Int = 20

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard refreshMinutes >= 0 else { throw ValidationError("--refresh-minutes must be 0 or more") }
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--host must name an address") }
    }

    func run() async throws {
        var logger = Logger(label: "spot.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .notice
        let (host, port) = (self.host, self.port)
        let (soft, hard) = OpenFilesLimit.current
        if OpenFilesLimit.raiseToHardLimit() < hard {
            logger.warning("could not raise the open files limit", metadata: ["soft": "\(soft)", "hard": "\(hard)"])
        }
        try await options.withSPoT(refreshInterval: .seconds(refreshMinutes * 60)) { spot in
            let web = try await SPoTWebApp(spot: spot, logger: logger)
            let app = web.application(host: host, port: port, shutdownDeadline: SPoTWebApp.shutdownDeadline) { boundPort in
                let shown = host == "0.0.0.0" ? "127.0.0.1" : host
                // Written unbuffered: a script waiting for this line must not wait for a buffer.
                FileHandle.standardOutput.write(
                    Data("SPoT is serving the tour at http://\(shown):\(boundPort)/ — open it in a browser. Ctrl-C stops.\n".utf8)
                )
            }
            var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // Streams to browsers that stopped reading are cancelled rather than waited for.
            group.maximumGracefulShutdownDuration = .seconds(6)
            do {
                try await ServiceGroup(configuration: group).run()
            } catch {
                throw SPoTWebError.serving("Could not serve on \(host):\(port): \(error)")
            }
            FileHandle.standardOutput.write(Data("SPoT stopped.\n".utf8))
        }
    }
}
