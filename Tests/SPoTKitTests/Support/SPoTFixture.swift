import Flickr
import FlickrSandbox
import Foundation
import Logging
import ObjectGraph
import Synchronization

@testable import SPoTKit

/// A running Flickr sandbox and a fresh data folder, for one test.
struct SPoTFixture {
    let sandbox: FlickrSandbox
    /// The clock the sandbox's injected latency sleeps on (no latency unless a test sets one).
    let sandboxClock: ManualClock
    let directory: TemporaryDirectory
    /// A client configuration for the sandbox that does not retry, so injected faults reach
    /// the code under test.
    let flickr: FlickrConfiguration

    /// Runs `body` with a sandbox at `epoch` and an empty folder, then stops the sandbox.
    static func run<Value>(
        epoch: Int = 0,
        behavior: SandboxBehavior = SandboxBehavior(),
        _ body: (SPoTFixture) async throws -> Value
    ) async throws -> Value {
        try await TemporaryDirectory.with { directory in
            let sandboxClock = ManualClock()
            let sandbox = FlickrSandbox(
                configuration: SandboxConfiguration(
                    behavior: behavior,
                    clock: sandboxClock,
                    epoch: epoch,
                    logger: Logger(label: "test.sandbox") { _ in SwiftLogNoOpLogHandler() }
                )
            )
            var flickr = FlickrConfiguration.sandbox(baseURL: try await sandbox.start())
            flickr.retryPolicy = .none
            let fixture = SPoTFixture(sandbox: sandbox, sandboxClock: sandboxClock, directory: directory, flickr: flickr)
            do {
                let value = try await body(fixture)
                await sandbox.stop()
                return value
            } catch {
                await sandbox.stop()
                throw error
            }
        }
    }

    /// The configuration SPoT opens with: this folder, this sandbox, no schedule.
    func configuration(perPage: Int = 100, imageCacheSizeLimit: Int = ImageFileCache.defaultSizeLimit) -> SPoTConfiguration {
        var configuration = SPoTConfiguration(dataDirectory: directory.url, flickr: flickr)
        configuration.refreshInterval = .zero
        configuration.perPage = perPage
        configuration.imageCacheSizeLimit = imageCacheSizeLimit
        return configuration
    }

    /// Opens SPoT on the folder (again, after a "restart").
    func open(perPage: Int = 100, imageCacheSizeLimit: Int = ImageFileCache.defaultSizeLimit) throws -> SPoT {
        try SPoT(configuration: configuration(perPage: perPage, imageCacheSizeLimit: imageCacheSizeLimit), logger: Self.silent)
    }

    /// The sandbox's catalogue as SPoT's search finds it now: the photos tagged `cs193pspot`.
    var catalogue: [SandboxPhoto] { SandboxCatalogue.stanford.spotPhotos(atEpoch: sandbox.epoch) }

    /// What the importer should make of the catalogue's tags: every spot name, lower-cased.
    func expectedSpotNames(rules: ImportRules = ImportRules()) -> Set<String> {
        Set(catalogue.flatMap { rules.spotNames(of: $0.tags) })
    }

    static let silent = Logger(label: "test.spot") { _ in SwiftLogNoOpLogHandler() }
}

/// Collects SQL statements a store runs (`PersistentStore.sqlStatementObserverOption`).
final class StatementLog: Sendable {
    private let statements = Mutex<[String]>([])

    /// The observer to give the store.
    var observer: SQLStatementObserver { { [self] sql in self.statements.withLock { $0.append(sql) } } }

    /// Forgets what was logged.
    func reset() { statements.withLock { $0 = [] } }

    /// Every statement since the last reset.
    var all: [String] { statements.withLock { $0 } }

    /// The SELECT statements since the last reset.
    var selects: [String] { all.filter { $0.uppercased().hasPrefix("SELECT") } }
}
