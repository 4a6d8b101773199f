import Flickr
import FlickrSandbox
import Foundation
import Logging
import SPoTKit

/// The spots the `--sse` scenarios stream, imported into a data folder (or a PostgreSQL
/// schema) before `spot serve` starts on it.
///
/// Photo numbers start at 1,000,000 for every spot, so every title carries a seven-digit
/// number: PostgreSQL's digit-by-digit order and the live lists' numeric one then agree (see
/// ``photos(_:tags:)``).
enum SSEData {
    /// The fanned-out spot (fanout, churn, two-instances).
    static let fanSpot = "ssefan"
    static let fanBase = 1_000_000
    /// Spots `ssemix000`… of ten photos each (mixed).
    static let mixBase = 2_000_000
    static let mixRows = 10
    /// The two spots of the size scenario.
    static let smallSpot = "ssesmall"
    static let smallBase = 3_000_000
    static let bigSpot = "ssebig"
    static let bigBase = 4_000_000

    static func mixSpot(_ list: Int) -> String { "ssemix" + String(format: "%03d", list) }

    /// The id of photo `number` (``photos(_:tags:)``'s numbering).
    static func photoID(_ number: Int) -> String { String(80_000_000_000 + number) }

    /// What to import.
    struct Contents {
        var fanRows = 0
        var mixLists = 0
        var smallRows = 0
        var bigRows = 0
    }

    /// Imports `contents` into SPoT's data in `directory` (or `database`), then closes it.
    /// - Returns: how long the import took.
    static func prepare(_ contents: Contents, directory: URL, database: URL?) async throws -> Duration {
        let started = ContinuousClock.now
        let quiet = Logger(label: "webbench") { _ in SwiftLogNoOpLogHandler() }
        let sandbox = FlickrSandbox(configuration: SandboxConfiguration(logger: quiet))
        var configuration = SPoTConfiguration(dataDirectory: directory, flickr: .sandbox(baseURL: try await sandbox.start()))
        configuration.refreshInterval = .zero
        configuration.database = database
        let spot = try SPoT(configuration: configuration, logger: quiet)
        do {
            let importer = spot.store.importer
            func add(_ base: Int, _ count: Int, _ name: String) async throws {
                for start in stride(from: base, to: base + count, by: 2_000) {
                    _ = try await importer.importPage(photos(start..<min(start + 2_000, base + count), tags: ["cs193pspot", name]))
                }
            }
            if contents.fanRows > 0 { try await add(fanBase, contents.fanRows, fanSpot) }
            for list in 0..<contents.mixLists {
                try await add(mixBase + list * mixRows, mixRows, mixSpot(list))
            }
            if contents.smallRows > 0 { try await add(smallBase, contents.smallRows, smallSpot) }
            if contents.bigRows > 0 { try await add(bigBase, contents.bigRows, bigSpot) }
        } catch {
            await spot.close()
            await sandbox.stop()
            throw error
        }
        await spot.close()
        await sandbox.stop()
        return ContinuousClock.now - started
    }
}
