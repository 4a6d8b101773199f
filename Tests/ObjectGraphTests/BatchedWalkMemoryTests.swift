import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// `fetchBatched` keeps memory bounded: a million objects walked end to end in a child process
/// (`objectgraph-memory-walk`) whose peak resident memory is the walk's alone.
@Suite("Batched walks in bounded memory")
struct BatchedWalkMemoryTests {
    /// The stated bound for walking 1,000,000 objects with batches of 100 (a debug build; the
    /// raw SQLite C walk peaks near 26 MB, an array of all objects near 615 MB).
    static let peakLimitKilobytes = 150 * 1_024

    /// The child executable next to the test bundle (SwiftPM builds it: the tests depend on it).
    static let child = ChildExecutable.url(named: "objectgraph-memory-walk")

    /// Runs the child with `arguments`, returning its standard output; throws on failure. The
    /// wait (seconds) holds a thread of its own, not one of the pool the other tests run on.
    private static func run(_ arguments: [String]) async throws -> String {
        let (status, output) = try await OwnThread.run { try ChildExecutable.run(child, arguments) }
        guard status == 0 else {
            throw ObjectGraphError(.persistentStoreOperation, "\(child.lastPathComponent) \(arguments) exited with \(status)")
        }
        return output
    }

    /// The bound for `fetch` with `fetchBatchSize` 100 over 1,000,000 objects: the array holds
    /// every fault until the walk ends. A debug build peaked at 214 MiB before the registry kept
    /// objects in pages by primary key, at 185 MiB after it, and at 147 MiB (150,684 kB) once an
    /// object's state took five words — faults in 96-byte blocks instead of 128 — and a batched
    /// fetch of consecutive keys kept only its first (2026-11-30; by arithmetic 92 MiB of
    /// faults, 8 MiB of registry pages, 7.6 MiB of array, ~39 MiB of process and SQLite cache).
    /// The bound leaves about 6 % for allocator and build differences, and fails if a fault
    /// grows by a 16-byte block (+15 MiB). The target is 150 MB.
    static let faultArrayPeakLimitKilobytes = 156 * 1_024

    /// Seeds a store of `count` items, walks it in the child with `mode` (`walk` or `fetch`)
    /// and batches of 100, checks that every item's values were read, and returns the child's
    /// peak resident memory in kilobytes.
    private static func peakOfWalk(_ mode: String, count: Int) async throws -> Int {
        let directory = TestDirectory.make("objectgraph-walk")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Walk.sqlite").path
        _ = try await run(["seed", path, String(count)])
        let fields = try await run([mode, path, "100"]).split(whereSeparator: \.isWhitespace)
        try #require(fields.count == 3, "\(fields)")
        let peak = try #require(Int(fields[0]))
        #expect(Int(fields[1]) == count, "every object was walked")
        let expected = (1...Int64(count)).reduce(Int64(0)) { $0 + $1 + Int64("item \($1)".utf8.count) }
        #expect(Int64(fields[2]) == expected, "every object's values were read")
        #expect(peak > 0)
        return peak
    }

    @Test("walking 1,000,000 objects with fetchBatchSize 100 stays under 150 MB")
    func millionObjectWalk() async throws {
        let peak = try await Self.peakOfWalk("walk", count: 1_000_000)
        #expect(peak < Self.peakLimitKilobytes, "peak \(peak / 1_024) MB")
    }

    @Test("fetch with fetchBatchSize 100 holds 1,000,000 faults within the stated bound")
    func millionFaults() async throws {
        let peak = try await Self.peakOfWalk("fetch", count: 1_000_000)
        #expect(peak < Self.faultArrayPeakLimitKilobytes, "peak \(peak / 1_024) MB")
    }

    @Test("fetchBatched reads IDs, then one query per batch; objects left behind are released")
    func batchedResultsHoldIDs() throws {
        let stack = try SQLRecordingStack()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for number in 0..<250 {
                let photo = Photo(context: context)
                photo.unique = String(format: "%04d", number)
                photo.views = Int64(number)
            }
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
            request.fetchBatchSize = 100
            var results: BatchedFetchResults<Photo>?
            let fetch = try stack.recording { results = try reader.fetchBatched(request) }
            let photos = try #require(results)
            #expect(photos.count == 250)
            #expect(fetch.selects(from: "ZPHOTO").filter { $0.contains("ZVIEWS") }.isEmpty, "IDs only: \(fetch)")
            weak var first: Photo?
            var views: Int64 = 0
            let walk = stack.recording {
                first = photos[0]
                for photo in photos { views += photo.views }
            }
            #expect(views == (0..<250).reduce(0, +))
            #expect(walk.selects(from: "ZPHOTO").count == 3, "one query per batch: \(walk)")
            #expect(first == nil, "the first batch was released once two later batches were read")
            // The last two batches read stay held: reading in them again runs no query and
            // gives the same objects.
            let last = photos[249]
            let reread = stack.recording { #expect(photos[249] === last && photos[150].views == 150) }
            #expect(reread.selects(from: "ZPHOTO").isEmpty, "\(reread)")
            #expect(photos.objectIDs.count == 250)
        }
    }
}
