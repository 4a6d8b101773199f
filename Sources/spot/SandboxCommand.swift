import ArgumentParser
import FlickrSandbox
import Foundation

/// `spot sandbox --port N`
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the built-in Flickr sandbox on its own, until interrupted.",
        discussion: "A Flickr-compatible server on 127.0.0.1 with the bundled Stanford catalogue; stats at /__sandbox/stats."
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8090

    @Option(help: "The timeline step to start at (0 is the catalogue as first seen).")
    var epoch: Int = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard epoch >= 0 else { throw ValidationError("--epoch must be 0 or more") }
    }

    func run() async throws {
        let sandbox = FlickrSandbox(configuration: SandboxConfiguration(epoch: epoch))
        let url: URL
        do {
            url = try await sandbox.start(port: port)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
        print("Flickr sandbox at \(url.absoluteString) (REST: \(url.absoluteString)/services/rest/). Stop with Ctrl-C.")
        await sandbox.waitUntilStopped()
    }
}
