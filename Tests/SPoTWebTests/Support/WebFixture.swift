import Flickr
import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SPoTKit

@testable import SPoTWeb

/// A Flickr sandbox, a fresh data folder, SPoT on them (refreshed once) and the web app.
struct WebFixture {
    let sandbox: FlickrSandbox
    let directory: URL
    let spot: SPoT
    let web: SPoTWebApp

    static let silent = Logger(label: "test.web") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with everything set up and the catalogue imported; tears it down after.
    static func run<Value>(
        epoch: Int = 0,
        refreshed: Bool = true,
        behavior: SandboxBehavior = SandboxBehavior(),
        _ body: (WebFixture) async throws -> Value
    ) async throws -> Value {
        let directory = FileManager.default.temporaryDirectory.appending(path: "spotweb-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sandbox = FlickrSandbox(configuration: SandboxConfiguration(behavior: behavior, epoch: epoch, logger: silent))
        var flickr = FlickrConfiguration.sandbox(baseURL: try await sandbox.start())
        flickr.retryPolicy = .none
        var configuration = SPoTConfiguration(dataDirectory: directory, flickr: flickr)
        configuration.refreshInterval = .zero
        let spot = try SPoT(configuration: configuration, logger: silent)
        do {
            if refreshed { await spot.refresher.refresh() }
            let web = try await SPoTWebApp(spot: spot, logger: silent)
            let value = try await body(WebFixture(sandbox: sandbox, directory: directory, spot: spot, web: web))
            await web.closeLiveLists()
            await spot.close()
            await sandbox.stop()
            return value
        } catch {
            await spot.close()
            await sandbox.stop()
            throw error
        }
    }

    /// The router in memory.
    var application: some ApplicationProtocol {
        Application(router: web.buildRouter(), logger: Self.silent)
    }

    /// The catalogue as SPoT imports it at the sandbox's current epoch.
    var catalogue: [SandboxPhoto] {
        SandboxCatalogue.stanford.photos(atEpoch: sandbox.epoch).filter { $0.hasTag(FlickrPhotoQuery.spotTag) }
    }
}

/// Same-origin headers a browser sends with a form post or `fetch` from the app's pages.
let sameOrigin: HTTPFields = [.origin: "http://localhost"]

extension TestClientProtocol {
    /// GET `uri`, returning status, headers and body text.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        try await execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, response.headers, String(buffer: response.body))
        }
    }

    /// POST `uri` with `headers` (same-origin by default).
    func post(_ uri: String, headers: HTTPFields = sameOrigin) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        try await execute(uri: uri, method: .post, headers: headers) { response in
            (response.status, response.headers, String(buffer: response.body))
        }
    }
}

/// A JSON body as a dictionary.
func json(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw JSONShapeError(text: text)
    }
    return object
}

struct JSONShapeError: Error {
    let text: String
}
