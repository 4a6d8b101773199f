import FlickrSandbox
import Foundation

/// `flickr-sandbox [--port N] [--epoch N] [--behavior JSON] [--prerender]`: runs the Flickr
/// sandbox on 127.0.0.1 until interrupted.
let usage = """
    Usage: flickr-sandbox [--port N] [--epoch N] [--behavior JSON] [--prerender]

    Runs a Flickr-compatible server on 127.0.0.1 with a bundled Stanford catalogue.
      --port N         port to listen on (default 8090; 0 picks a free one)
      --epoch N        timeline epoch to start at (default 0)
      --behavior JSON  misbehaviour, e.g. '{"restLatencyMilliseconds":300,"http503Rate":0.1}'
      --prerender      render every thumbnail at start
    Point a client at it with FlickrConfiguration.sandbox(baseURL:). Stop with Ctrl-C.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("flickr-sandbox: \(message)\n\n\(usage)\n".utf8))
    exit(64)
}

var configuration = SandboxConfiguration()
var port = 8090
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        return value
    }
    switch argument {
    case "--port":
        guard let number = Int(value()), (0...65535).contains(number) else { fail("--port takes a number from 0 to 65535") }
        port = number
    case "--epoch":
        guard let number = Int(value()), number >= 0 else { fail("--epoch takes a number from 0") }
        configuration.epoch = number
    case "--behavior":
        do {
            configuration.behavior = try JSONDecoder().decode(SandboxBehavior.self, from: Data(value().utf8))
        } catch {
            fail("--behavior is not a behaviour: \(error)")
        }
    case "--prerender":
        configuration.prerenderThumbnails = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}

let sandbox = FlickrSandbox(configuration: configuration)
do {
    let url = try await sandbox.start(port: port)
    print("Flickr sandbox at \(url.absoluteString) (REST: \(url.absoluteString)/services/rest/)")
    await sandbox.waitUntilStopped()
} catch {
    FileHandle.standardError.write(Data("flickr-sandbox: \(error)\n".utf8))
    exit(1)
}
