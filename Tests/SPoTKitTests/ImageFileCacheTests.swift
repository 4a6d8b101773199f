import Flickr
import FlickrSandbox
import Foundation
import SPoTKit
import Synchronization
import Testing

/// The image file cache on real directories: hits and misses, shared fetches, eviction order,
/// restarts, damaged files, hostile ids, and the sandbox's own request counters.
@Suite(.timeLimit(.minutes(10))) struct ImageFileCacheTests {
    // MARK: Hits, misses, shared fetches

    @Test func aMissFetchesAndAHitReadsTheDisk() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            let key = ImageCacheKey(photoID: "101", format: .large1024)
            let bytes = image(1, size: 5000)

            #expect(await cache.cachedData(for: key) == nil)
            #expect(try await cache.data(for: key, fetch: fetches.returning(bytes)) == bytes)
            #expect(fetches.count == 1)
            #expect(try await cache.data(for: key, fetch: fetches.returning(image(9, size: 10))) == bytes)
            #expect(fetches.count == 1, "the second call is a hit")
            #expect(await cache.cachedData(for: key) == bytes)
            #expect(await cache.count == 1)
            #expect(try imageFiles(dir).count == 1)

            // One file per photo and size: another size of the same photo is another image.
            let original = ImageCacheKey(photoID: "101", format: .original)
            #expect(try await cache.data(for: original, fetch: fetches.returning(image(2, size: 100))) == image(2, size: 100))
            #expect(fetches.count == 2)
            #expect(await cache.count == 2)
            #expect(try imageFiles(dir).count == 2)
        }
    }

    @Test func tenConcurrentRequestsShareOneFetch() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            let gate = Gate()
            let key = ImageCacheKey(photoID: "202", format: .large1024)
            let bytes = image(3, size: 2000)
            let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<10 {
                    group.addTask { try await cache.data(for: key, fetch: fetches.returning(bytes, after: gate)) }
                }
                // The fetch cannot finish before all ten callers are in: nine joined the first.
                await cache.waitForJoinedRequests(9)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 10)
            #expect(results.allSatisfy { $0 == bytes })
            #expect(fetches.count == 1)
            #expect(await cache.count == 1)
        }
    }

    @Test func aFailedFetchIsSharedThenRetriedByTheNextCall() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            let gate = Gate()
            let key = ImageCacheKey(photoID: "303", format: .medium640)
            let failures = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        do {
                            _ = try await cache.data(for: key, fetch: fetches.failing(after: gate))
                            return false
                        } catch {
                            return error is DownloadFailed
                        }
                    }
                }
                await cache.waitForJoinedRequests(2)
                gate.open()
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(failures == 3, "every caller of the shared fetch gets its error")
            #expect(fetches.count == 1)
            #expect(await cache.count == 0)

            let bytes = image(4, size: 300)
            #expect(try await cache.data(for: key, fetch: fetches.returning(bytes)) == bytes)
            #expect(fetches.count == 2, "the failure was not remembered")
            #expect(await cache.cachedData(for: key) == bytes)
        }
    }

    // MARK: Size limit and eviction

    @Test func evictionKeepsUnderTheLimitAndDropsTheLeastRecentlyUsed() async throws {
        try await TemporaryDirectory.with { dir in
            let limit = 3 * fileSize(imageSize: 1000)
            let cache = try ImageFileCache(directory: dir.url, sizeLimit: limit)
            let fetches = FetchCounter()
            for id in ["a", "b", "c"] {
                _ = try await cache.data(for: key(id), fetch: fetches.returning(image(id, size: 1000)))
            }
            #expect(await cache.totalSize == limit, "three fit exactly")
            // A hit through either door makes "a" the most recently used, then "b".
            _ = try await cache.data(for: key("a"), fetch: fetches.returning([]))
            _ = await cache.cachedData(for: key("b"))
            #expect(fetches.count == 3)

            _ = try await cache.data(for: key("d"), fetch: fetches.returning(image("d", size: 1000)))
            #expect(await cache.totalSize <= limit)
            #expect(await cache.count == 3)
            #expect(await cache.cachedData(for: key("c")) == nil, "c was the least recently used")
            #expect(try imageFiles(dir).count == 3, "its file is gone too")
            // Order now, oldest first: a, b, d (c's check found nothing, so it used nothing).
            _ = try await cache.data(for: key("e"), fetch: fetches.returning(image("e", size: 1000)))
            #expect(await cache.cachedData(for: key("a")) == nil)
            for id in ["b", "d", "e"] { #expect(await cache.cachedData(for: key(id)) == image(id, size: 1000)) }
            #expect(await cache.totalSize <= limit)
        }
    }

    @Test func anImageBiggerThanTheLimitIsReturnedButNotKept() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url, sizeLimit: 2 * fileSize(imageSize: 1000))
            let fetches = FetchCounter()
            _ = try await cache.data(for: key("small"), fetch: fetches.returning(image(1, size: 1000)))
            let huge = image(2, size: 5000)
            #expect(try await cache.data(for: key("huge"), fetch: fetches.returning(huge)) == huge)
            #expect(await cache.cachedData(for: key("huge")) == nil)
            #expect(await cache.cachedData(for: key("small")) == image(1, size: 1000), "nothing was evicted for it")
            #expect(await cache.count == 1)
            #expect(try imageFiles(dir).count == 1)
            _ = try await cache.data(for: key("huge"), fetch: fetches.returning(huge))
            #expect(fetches.count == 3, "asked again, it is fetched again")
        }
    }

    // MARK: Restarts

    @Test func contentsAndUseOrderSurviveAReopen() async throws {
        try await TemporaryDirectory.with { dir in
            let limit = 3 * fileSize(imageSize: 1000)
            let fetches = FetchCounter()
            do {
                let cache = try ImageFileCache(directory: dir.url, sizeLimit: limit)
                for id in ["a", "b", "c"] {
                    _ = try await cache.data(for: key(id), fetch: fetches.returning(image(id, size: 1000)))
                }
                // "a" is written first (oldest file) but used last: only a persisted use order
                // can tell, not the files' dates.
                _ = await cache.cachedData(for: key("a"))
            }
            let reopened = try ImageFileCache(directory: dir.url, sizeLimit: limit)
            #expect(await reopened.count == 3)
            #expect(await reopened.totalSize == limit)
            _ = try await reopened.data(for: key("d"), fetch: fetches.returning(image("d", size: 1000)))
            #expect(await reopened.cachedData(for: key("b")) == nil, "b was the least recently used before the restart")
            for id in ["a", "c", "d"] { #expect(await reopened.cachedData(for: key(id)) == image(id, size: 1000)) }
            #expect(fetches.count == 4)

            // Uses made after a reopen persist as well: now a, c, d; "a" is the oldest.
            let third = try ImageFileCache(directory: dir.url, sizeLimit: limit)
            _ = try await third.data(for: key("e"), fetch: fetches.returning(image("e", size: 1000)))
            #expect(await third.cachedData(for: key("a")) == nil)
            #expect(await third.count == 3)
        }
    }

    @Test func aLowerLimitOnReopenEvictsTheLeastRecentlyUsed() async throws {
        try await TemporaryDirectory.with { dir in
            let fetches = FetchCounter()
            do {
                let cache = try ImageFileCache(directory: dir.url)
                for id in ["a", "b", "c"] {
                    _ = try await cache.data(for: key(id), fetch: fetches.returning(image(id, size: 1000)))
                }
                _ = await cache.cachedData(for: key("a"))
            }
            let smaller = try ImageFileCache(directory: dir.url, sizeLimit: 2 * fileSize(imageSize: 1000))
            #expect(await smaller.count == 2)
            #expect(await smaller.cachedData(for: key("b")) == nil)
            #expect(try imageFiles(dir).count == 2)
        }
    }

    // MARK: Damaged files

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncatedToHalf, lastByteCut, imageByteFlipped, trailerByteFlipped, byteAppended, emptied
        var testDescription: String { rawValue }

        func apply(to file: inout Data) {
            switch self {
            case .truncatedToHalf: file = file.prefix(file.count / 2)
            case .lastByteCut: file = file.dropLast()
            case .imageByteFlipped: file[file.startIndex + 500] ^= 0x01
            case .trailerByteFlipped: file[file.endIndex - 12] ^= 0x40
            case .byteAppended: file.append(0)
            case .emptied: file = Data()
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedFileIsDetectedDeletedAndFetchedAgain(_ damage: Damage) async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            let bytes = image(7, size: 1000)
            _ = try await cache.data(for: key("x"), fetch: fetches.returning(bytes))
            let file = try dir.appending(#require(imageFiles(dir).first))
            var contents = try Data(contentsOf: file)
            damage.apply(to: &contents)
            try contents.write(to: file)

            #expect(await cache.cachedData(for: key("x")) == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path), "the damaged file is deleted")
            #expect(await cache.count == 0)
            #expect(try await cache.data(for: key("x"), fetch: fetches.returning(bytes)) == bytes)
            #expect(fetches.count == 2)
            #expect(await cache.cachedData(for: key("x")) == bytes, "the refetched file is whole")
        }
    }

    @Test func aTruncatedFileIsDroppedWhenTheCacheOpens() async throws {
        try await TemporaryDirectory.with { dir in
            do {
                let cache = try ImageFileCache(directory: dir.url)
                _ = try await cache.data(for: key("x"), fetch: FetchCounter().returning(image(1, size: 1000)))
                _ = try await cache.data(for: key("y"), fetch: FetchCounter().returning(image(2, size: 1000)))
            }
            // A crash mid-write leaves at worst a temporary file; a torn rename target is
            // simulated by cutting a file short.
            let file = try dir.appending(#require(imageFiles(dir).first))
            try Data(contentsOf: file).prefix(700).write(to: file)
            try Data([1, 2, 3]).write(to: dir.appending(".tmp-crashed-write"))

            let reopened = try ImageFileCache(directory: dir.url)
            #expect(await reopened.count == 1)
            #expect(await reopened.totalSize == fileSize(imageSize: 1000))
            #expect(try imageFiles(dir).count == 1)
            #expect(try !dir.contents().contains(".tmp-crashed-write"))
        }
    }

    @Test func aFileCopiedUnderAnotherKeysNameIsNotServedForIt() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            _ = try await cache.data(for: key("x"), fetch: fetches.returning(image(1, size: 1000)))
            _ = try await cache.data(for: key("y"), fetch: fetches.returning(image(2, size: 1000)))
            let names = try imageFiles(dir)
            // Whichever key owns the first file, the other key's name now holds it.
            try Data(contentsOf: dir.appending(names[0])).write(to: dir.appending(names[1]))
            let served = [await cache.cachedData(for: key("x")), await cache.cachedData(for: key("y"))]
            #expect(served.compactMap { $0 }.count == 1, "only the file's own key gets it")
        }
    }

    // MARK: Hostile input and disk trouble

    @Test func hostilePhotoIDsStayInsideTheDirectoryUnderHashedNames() async throws {
        try await TemporaryDirectory.with { root in
            let cacheURL = root.appending("cache")
            let cache = try ImageFileCache(directory: cacheURL)
            let ids = [
                "../../etc/passwd", "/etc/passwd", "..", ".", "", "a/b/c", "..\\..\\boot.ini", "x\u{0}y",
                "~/.ssh/id_rsa", "use-order.log", ".tmp-evil", "%2e%2e%2f", String(repeating: "é/", count: 5000),
            ]
            for (n, id) in ids.enumerated() {
                let bytes = image(UInt8(n), size: 100)
                #expect(try await cache.data(for: ImageCacheKey(photoID: id, format: .large1024), fetch: FetchCounter().returning(bytes)) == bytes)
            }
            #expect(try root.contents() == ["cache"], "nothing was written beside the cache")
            let names = try root.contents(of: cacheURL).filter { $0 != "use-order.log" }
            #expect(names.count == ids.count, "one file per id")
            for name in names {
                #expect(name.wholeMatch(of: /[0-9a-f]{32}\.img/) != nil, "\(name) is a hashed name")
            }
            for (n, id) in ids.enumerated() {
                #expect(await cache.cachedData(for: ImageCacheKey(photoID: id, format: .large1024)) == image(UInt8(n), size: 100))
            }
        }
    }

    @Test func aFailedWriteStillReturnsTheImage() async throws {
        try await TemporaryDirectory.with { dir in
            let cacheURL = dir.appending("cache")
            let cache = try ImageFileCache(directory: cacheURL)
            try FileManager.default.removeItem(at: cacheURL)
            let fetches = FetchCounter()
            let bytes = image(5, size: 1000)
            #expect(try await cache.data(for: key("x"), fetch: fetches.returning(bytes)) == bytes)
            #expect(await cache.count == 0)
            #expect(await cache.totalSize == 0)
            #expect(try await cache.data(for: key("x"), fetch: fetches.returning(bytes)) == bytes)
            #expect(fetches.count == 2)
        }
    }

    @Test func removeAllEmptiesTheDiskAndLaterCallsFetchAgain() async throws {
        try await TemporaryDirectory.with { dir in
            let cache = try ImageFileCache(directory: dir.url)
            let fetches = FetchCounter()
            for id in ["a", "b"] { _ = try await cache.data(for: key(id), fetch: fetches.returning(image(id, size: 500))) }
            try await cache.removeAll()
            #expect(await cache.count == 0)
            #expect(await cache.totalSize == 0)
            #expect(try imageFiles(dir).isEmpty)
            _ = try await cache.data(for: key("a"), fetch: fetches.returning(image("a", size: 500)))
            #expect(fetches.count == 3)
            #expect(try await ImageFileCache(directory: dir.url).count == 1)
        }
    }

    // MARK: Against the sandbox

    @Test func theSandboxServesALargeImageOnceAcrossConcurrentRequestsAndAReopen() async throws {
        let sandbox = FlickrSandbox()
        try await sandbox.start()
        do {
            let client = FlickrClient(configuration: try #require(sandbox.clientConfiguration()))
            let photo = try #require(try await client.photos(.tagged(), page: 1, perPage: 5).photos.first)
            let key = ImageCacheKey(photoID: photo.id, format: .large1024)
            try await TemporaryDirectory.with { dir in
                let cache = try ImageFileCache(directory: dir.url)
                let gate = Gate()
                let download: @Sendable () async throws -> [UInt8] = {
                    await gate.wait()
                    return try await client.imageData(for: photo, format: .large1024)
                }
                let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                    for _ in 0..<10 { group.addTask { try await cache.data(for: key, fetch: download) } }
                    await cache.waitForJoinedRequests(9)
                    gate.open()
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let first = try #require(results.first)
                #expect(first.starts(with: [0xFF, 0xD8]), "a JPEG")
                #expect(results.allSatisfy { $0 == first })
                #expect(sandbox.stats.imageRequests(photoID: photo.id, suffix: "b") == 1)

                let reopened = try ImageFileCache(directory: dir.url)
                #expect(try await reopened.data(for: key, fetch: download) == first)
                #expect(sandbox.stats.imageRequests(photoID: photo.id, suffix: "b") == 1)
            }
        } catch {
            await sandbox.stop()
            throw error
        }
        await sandbox.stop()
    }
}

// MARK: Helpers

private func key(_ id: String) -> ImageCacheKey {
    ImageCacheKey(photoID: id, format: .large1024)
}

/// `size` bytes that differ from seed to seed.
private func image(_ seed: UInt8, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
}

private func image(_ id: String, size: Int) -> [UInt8] {
    image(id.utf8.reduce(0) { $0 &+ $1 }, size: size)
}

/// The size on disk of an image of `imageSize` bytes under a one-letter key in `large1024`:
/// the image, the key ("x", a zero byte, "b"), then 32 bytes of lengths, checksum and magic.
/// Spelled out so that a change to the file format shows up here.
private func fileSize(imageSize: Int) -> Int {
    imageSize + 3 + 32
}

/// The cache files in `dir`.
private func imageFiles(_ dir: TemporaryDirectory) throws -> [String] {
    try dir.contents().filter { $0.hasSuffix(".img") }
}

private struct DownloadFailed: Error {}

/// Fetch closures that count their calls.
private final class FetchCounter: Sendable {
    private let calls = Mutex(0)

    var count: Int { calls.withLock { $0 } }

    func returning(_ bytes: [UInt8], after gate: Gate? = nil) -> @Sendable () async throws -> [UInt8] {
        { [self] in
            calls.withLock { $0 += 1 }
            await gate?.wait()
            return bytes
        }
    }

    func failing(after gate: Gate) -> @Sendable () async throws -> [UInt8] {
        { [self] in
            calls.withLock { $0 += 1 }
            await gate.wait()
            throw DownloadFailed()
        }
    }
}

/// Holds fetches back until the test has every caller in place.
private final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
