public import Foundation

/// A size-limited, least-recently-used cache of image files on disk, kept across restarts.
///
/// SPoT keeps large and original images here; thumbnails live in the database. One file per
/// photo and size, named after a hash of the key (never after the photo id, which is untrusted).
/// Each file is written atomically and ends in a trailer holding its key, its length and a
/// checksum, so a truncated or damaged file is detected, deleted and fetched again.
///
/// Give each cache a directory of its own and open one cache per directory at a time: the
/// cache owns every file in it whose name looks like one of its own, and assumes nobody else
/// writes there.
///
/// ```swift
/// let cache = try ImageFileCache(directory: cachesURL.appending(path: "images"))
/// let key = ImageCacheKey(photoID: photo.id, format: .large1024)
/// let jpeg = try await cache.data(for: key) {
///     try await client.imageData(for: photo, format: .large1024)
/// }
/// ```
public actor ImageFileCache {
    /// The size limit when none is given: 64 MiB.
    public static let defaultSizeLimit = 64 * 1024 * 1024

    /// The directory holding the cache's files.
    public nonisolated let directory: URL
    private let limit: Int
    private var index: Index
    private var useLog: UseLog
    /// Fetches under way, so concurrent requests for one key share one download. A fetch
    /// leaves as soon as it ends: a failure is not remembered, the next request tries again.
    private var inFlight: [ImageCacheKey: Task<[UInt8], any Error>] = [:]
    /// How many calls found their key's fetch under way and joined it, and who waits for that
    /// number: lets a test know every concurrent caller has arrived, without sleeping.
    private var joinedRequests = 0
    private var joinWaiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextJoinWaiter = 0

    /// Opens the cache in `directory`, creating the directory if needed and indexing the
    /// files already there, in the order they were last used before the cache was closed.
    ///
    /// Files whose trailer does not fit their size (a write cut short by a crash) and
    /// temporary files left by an interrupted write are deleted. If the files already there
    /// exceed `sizeLimit` (the limit was lowered), the least recently used are evicted now.
    ///
    /// - Parameters:
    ///   - directory: a directory for this cache alone.
    ///   - sizeLimit: the most bytes the cache keeps on disk (counting each file's small
    ///     trailer); must not be negative.
    /// - Throws: the file system's error when the directory cannot be created, listed or
    ///   written.
    public init(directory: URL, sizeLimit: Int = defaultSizeLimit) throws {
        precondition(sizeLimit >= 0, "An image cache's size limit cannot be negative")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var (index, useLog) = try Self.openIndex(in: directory)
        let evicted = index.evict(toFit: sizeLimit)
        for name in evicted { Self.removeFile(named: name, in: directory) }
        if !evicted.isEmpty { try useLog.rewrite(index.namesByUse) }
        self.directory = directory
        self.limit = sizeLimit
        self.index = index
        self.useLog = useLog
    }

    /// The most bytes the cache keeps on disk, as given when it was opened.
    public var sizeLimit: Int { limit }

    /// The bytes on disk of the indexed files (images plus trailers); at most ``sizeLimit``.
    public var totalSize: Int { index.totalSize }

    /// How many images are on disk.
    public var count: Int { index.entries.count }

    /// The image for `key`: from disk when a valid file is there, else from `fetch`, then kept.
    ///
    /// - A hit counts as a use, so the image is the last to be evicted.
    /// - On a miss, `fetch` runs once however many callers ask for `key` meanwhile: they all
    ///   get its bytes, or its error. A failed fetch is not remembered; the next call fetches
    ///   again. Cancelling a caller does not cancel the shared fetch (the others still want
    ///   it, and the result is worth keeping): the caller waits for it all the same.
    /// - A fetched image is written atomically, then least-recently-used files are evicted
    ///   until the cache is within ``sizeLimit``. An image too big for the limit on its own is
    ///   returned but not kept. A failure to write is not an error: the caller still gets the
    ///   image, and the next call fetches it again.
    ///
    /// - Parameters:
    ///   - key: which photo and size.
    ///   - fetch: downloads the image; called at most once per miss, off the actor.
    /// - Returns: the image's bytes, exactly as `fetch` gave them.
    /// - Throws: whatever `fetch` threw.
    public func data(
        for key: ImageCacheKey,
        fetch: @escaping @Sendable () async throws -> [UInt8]
    ) async throws -> [UInt8] {
        if let shared = inFlight[key] {
            noteJoinedRequest()
            return try await shared.value
        }
        if let cached = cachedData(for: key) { return cached }
        let task = Task { try await fetch() }
        inFlight[key] = task
        // `result` rather than `value`: the bookkeeping below must run whatever the outcome.
        let result = await task.result
        // One actor turn from here on, so a later call sees either this task or the file.
        inFlight[key] = nil
        let image = try result.get()
        store(image, for: key)
        return image
    }

    /// The image for `key` if a valid file for it is on disk, else `nil`; never fetches.
    ///
    /// A hit counts as a use. A file that fails verification (truncated, damaged, or not the
    /// key's) is deleted, so the next ``data(for:fetch:)`` fetches the image again.
    public func cachedData(for key: ImageCacheKey) -> [UInt8]? {
        let name = key.fileName
        guard index.entries[name] != nil else { return nil }
        guard let file = try? Data(contentsOf: directory.appending(path: name)),
            let image = FileFormat.decode(file, key: key)
        else {
            index.remove(name)
            Self.removeFile(named: name, in: directory)
            return nil
        }
        index.recordUse(of: name)
        useLog.append(name)
        compactUseLogIfNeeded()
        return image
    }

    /// Deletes every image (and the record of their use) from disk.
    ///
    /// Fetches under way are not cancelled: an image arriving afterwards is stored as usual.
    ///
    /// - Throws: the first error deleting a file; the files that could not be deleted stay
    ///   indexed, and the others are gone.
    public func removeAll() throws {
        var firstError: (any Error)?
        for name in index.entries.keys {
            do {
                try Self.removeFileThrowing(named: name, in: directory)
                index.remove(name)
            } catch {
                firstError = firstError ?? error
            }
        }
        try useLog.rewrite(index.namesByUse)
        if let firstError { throw firstError }
    }

    /// Returns once `count` calls in all have joined a fetch already under way (see
    /// ``data(for:fetch:)``), or when the calling task is cancelled. For tests that prove
    /// concurrent requests share one fetch: if they do not, the test's time limit cancels the
    /// wait and the test fails on its counts instead of hanging.
    package func waitForJoinedRequests(_ count: Int) async {
        let token = nextJoinWaiter
        nextJoinWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if joinedRequests >= count || Task.isCancelled {
                    continuation.resume()
                } else {
                    joinWaiters[token] = (count, continuation)
                }
            }
        } onCancel: {
            Task { await self.resumeJoinWaiter(token) }
        }
    }

    private func resumeJoinWaiter(_ token: Int) {
        joinWaiters.removeValue(forKey: token)?.continuation.resume()
    }

    private func noteJoinedRequest() {
        joinedRequests += 1
        for (token, waiter) in joinWaiters where waiter.count <= joinedRequests {
            resumeJoinWaiter(token)
        }
    }

    // MARK: Storing

    private func store(_ image: [UInt8], for key: ImageCacheKey) {
        let size = FileFormat.fileSize(imageSize: image.count, key: key)
        // Keeping it would mean evicting everything else and still being over the limit.
        guard size <= limit else { return }
        let name = key.fileName
        do {
            try Self.writeAtomically(FileFormat.encode(image, key: key), to: directory.appending(path: name))
        } catch {
            // The caller gets the image all the same (see `data(for:fetch:)`); a later call
            // fetches it again. Nothing is logged here: an error can carry paths and ids, and
            // whoever owns the directory sees a full or read-only disk without our help.
            return
        }
        index.insert(name, size: size)
        useLog.append(name)
        for evicted in index.evict(toFit: limit, keeping: name) {
            Self.removeFile(named: evicted, in: directory)
        }
        compactUseLogIfNeeded()
    }

    private func compactUseLogIfNeeded() {
        guard useLog.needsCompaction(entryCount: index.entries.count) else { return }
        // If this fails, appends still work and the next use tries again.
        try? useLog.rewrite(index.namesByUse)
    }

    // MARK: Files

    /// The prefix of temporary files; they never look like a cache file, so a crash between
    /// write and rename leaves nothing that could be mistaken for an image.
    static let temporaryPrefix = ".tmp-"

    /// Writes `data` to a temporary file beside `url`, then renames it over `url`: a reader
    /// sees the old file or the new one, never a part of either.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appending(path: temporaryPrefix + UUID().uuidString + "-" + url.lastPathComponent)
        do {
            try data.write(to: temporary)
            let status = temporary.withUnsafeFileSystemRepresentation { from in
                url.withUnsafeFileSystemRepresentation { to in rename(from!, to!) }
            }
            if status != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Deletes a cache file, treating "already gone" as done.
    private static func removeFileThrowing(named name: String, in directory: URL) throws {
        let url = directory.appending(path: name)
        do {
            try FileManager.default.removeItem(at: url)
        } catch  where !FileManager.default.fileExists(atPath: url.path) {
            return
        }
    }

    /// Deletes a cache file if it can. One that cannot be deleted is forgotten until the next
    /// open, which indexes it again.
    static func removeFile(named name: String, in directory: URL) {
        try? removeFileThrowing(named: name, in: directory)
    }
}
