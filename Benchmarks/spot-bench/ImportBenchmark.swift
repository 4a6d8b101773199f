import Flickr
import FlickrSandbox
import Foundation
import GRDB
import SPoTKit
import Synchronization

/// SPoT's refresh import: `newPhotos` sandbox-shaped photos in pages of 100 (one save per
/// page) into a database already holding `existing` photos — SPoTKit's importer on ObjectGraph
/// against a hand-written GRDB upsert of the same data into the same shape of tables.
struct ImportBenchmark: Benchmark {
    let existing: Int
    let newPhotos: Int
    let pageSize = 100

    var name: String { "SPoT import: \(newPhotos.formatted) photos into \(existing.formatted)" }

    var fixedRuns: Int? { 3 }

    var notes: [String] {
        [
            "SPoT import: sandbox-shaped photos (the catalogue's titles, HTML descriptions, tags and 8 photographers, ids made unique), pages of \(pageSize), one transaction per page; both contenders find existing photos, spots and photographers with one query each per page, create what is missing, link spots and keep visible-photo counts. Each run starts from a copy of the same \(existing.formatted)-photo file (copy not timed). no raw C contender (the × raw C column stays empty): the GRDB upsert is the hand-written baseline"
        ]
    }

    /// Photos shaped like the sandbox's: the catalogue cycled, with ids `offset…`.
    static func photos(_ range: Range<Int>) -> [FlickrPhoto] {
        let catalogue = SandboxCatalogue.stanford.photos(atEpoch: SandboxCatalogue.stanford.maxEpoch)
        return range.map { index in
            let source = catalogue[index % catalogue.count]
            return FlickrPhoto(
                id: String(90_000_000_000 + index),
                owner: source.owner.nsid,
                secret: source.secret,
                server: source.server,
                farm: source.farm,
                title: index % 7 == 0 ? "" : "\(source.title) \(index / catalogue.count)",
                descriptionHTML: source.descriptionHTML,
                ownerName: source.owner.name,
                tags: source.tags,
                uploadDate: Date(timeIntervalSince1970: Double(source.uploaded + index)),
                coordinate: source.latitude.map { FlickrCoordinate(latitude: $0, longitude: source.longitude ?? 0) },
                originalSecret: source.originalSecret,
                originalFormat: source.originalFormat
            )
        }
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let base = Self.photos(0..<existing)
        let incoming = Self.photos(existing..<(existing + newPhotos))
        let pages = stride(from: 0, to: incoming.count, by: pageSize).map { Array(incoming[$0..<min($0 + pageSize, incoming.count)]) }

        // The ObjectGraph file, filled through the importer.
        let spotURL = workspace.freshURL("spot-base")
        do {
            let store = try SPoTStore(url: spotURL)
            for start in stride(from: 0, to: base.count, by: 1000) {
                _ = try blocking { try await store.importer.importPage(Array(base[start..<min(start + 1000, base.count)])) }
            }
        }
        // The GRDB file, filled through the hand-written upsert.
        let grdbURL = workspace.freshURL("grdb-base")
        do {
            let pool = try workspace.pool(at: grdbURL)
            try pool.write { db in try GRDBSPoTSchema.create(db) }
            for start in stride(from: 0, to: base.count, by: 1000) {
                try GRDBSPoTSchema.upsert(Array(base[start..<min(start + 1000, base.count)]), into: pool)
            }
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }

        func copy(_ url: URL, _ name: String) throws -> URL {
            let target = workspace.freshURL(name)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                try FileManager.default.copyItem(atPath: url.path + suffix, toPath: target.path + suffix)
            }
            return target
        }

        return [
            Contender(name: "SPoTKit importer (ObjectGraph)", role: .objectGraph) {
                let url = try copy(spotURL, "spot-run")
                defer { workspace.removeDatabase(at: url) }
                let store = try SPoTStore(url: url)
                return try measureMilliseconds {
                    var total = 0
                    for page in pages { total += try blocking { try await store.importer.importPage(page) }.new }
                    return Int64(total)
                }
            },
            Contender(name: "GRDB hand-written upsert", role: .grdb) {
                let url = try copy(grdbURL, "grdb-run")
                defer { workspace.removeDatabase(at: url) }
                let pool = try workspace.pool(at: url)
                return try measureMilliseconds {
                    var total = 0
                    for page in pages { total += try GRDBSPoTSchema.upsert(page, into: pool) }
                    return Int64(total)
                }
            },
        ]
    }
}

/// Runs `body` to completion from synchronous benchmark code.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, any Error>?>(nil)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        semaphore.signal()
    }
    semaphore.wait()
    return try result.withLock { $0! }.get()
}
