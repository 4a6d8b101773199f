import Foundation

extension ImageFileCache {
    /// What the cache knows of its files: each one's size on disk and when it was last used.
    ///
    /// Pure bookkeeping, no I/O: the actor deletes the files this hands back.
    struct Index {
        struct Entry {
            var size: Int
            /// A logical clock, not a date: uses are ordered even when the wall clock jumps or
            /// two uses fall within one tick of the file system's timestamps.
            var lastUse: UInt64
        }

        private(set) var entries: [String: Entry] = [:]
        /// The sum of the entries' sizes.
        private(set) var totalSize = 0
        private var uses: UInt64 = 0

        /// Marks `name` as just used; `false` if it has no entry.
        @discardableResult
        mutating func recordUse(of name: String) -> Bool {
            guard entries[name] != nil else { return false }
            uses += 1
            entries[name]?.lastUse = uses
            return true
        }

        /// Adds (or replaces) the entry for `name` as the most recently used.
        mutating func insert(_ name: String, size: Int) {
            remove(name)
            uses += 1
            entries[name] = Entry(size: size, lastUse: uses)
            totalSize += size
        }

        @discardableResult
        mutating func remove(_ name: String) -> Entry? {
            guard let entry = entries.removeValue(forKey: name) else { return nil }
            totalSize -= entry.size
            return entry
        }

        /// File names, least recently used first.
        var namesByUse: [String] {
            entries.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key)
        }

        /// Removes least-recently-used entries, never `keeping`, until the total is at most
        /// `limit`; returns the names removed, whose files the caller deletes.
        mutating func evict(toFit limit: Int, keeping: String? = nil) -> [String] {
            guard totalSize > limit else { return [] }
            var evicted: [String] = []
            for name in namesByUse where totalSize > limit && name != keeping {
                remove(name)
                evicted.append(name)
            }
            return evicted
        }
    }

    /// The order of use across restarts: an append-only log with one file name per line,
    /// written on every use, so a hit costs one small append rather than a rewrite.
    ///
    /// Replaying it, a name's last line is its last use. Names whose files are gone are
    /// skipped, and a line torn by a crash is not a file name, so it is skipped too. The log
    /// is rewritten (atomically) on open and whenever it grows well past the number of
    /// entries.
    struct UseLog {
        static let fileName = "use-order.log"

        let url: URL
        private var lineCount: Int

        init(directory: URL) {
            url = directory.appending(path: Self.fileName)
            lineCount = 0
        }

        /// The file names in the log, in the order they were used (with repeats).
        func read() -> [String] {
            guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
            return String(decoding: data, as: UTF8.self)
                .split(separator: "\n")
                .map(String.init)
                .filter(ImageCacheKey.isCacheFileName)
        }

        /// Records a use of `name`. Best effort: losing a line only makes an old use look
        /// older after a restart, which is no reason to fail a read.
        mutating func append(_ name: String) {
            lineCount += 1
            let line = Data((name + "\n").utf8)
            do {
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: line)
            } catch {
                // Removed behind our back: start it again.
                if !FileManager.default.fileExists(atPath: url.path) {
                    _ = FileManager.default.createFile(atPath: url.path, contents: line)
                }
            }
        }

        /// Whether the log has grown enough, relative to `entryCount` live entries, to be
        /// worth rewriting.
        func needsCompaction(entryCount: Int) -> Bool {
            lineCount > 2 * entryCount + 64
        }

        /// Replaces the log with `names` (least recently used first), atomically.
        mutating func rewrite(_ names: [String]) throws {
            let text = names.map { $0 + "\n" }.joined()
            try ImageFileCache.writeAtomically(Data(text.utf8), to: url)
            lineCount = names.count
        }
    }

    /// Indexes the cache files already in `directory`, in their last order of use, deletes
    /// what cannot be one of ours (torn files, temporary files left by a crash) and compacts
    /// the use log.
    ///
    /// Only each file's trailer is checked here, so opening stays cheap for a full cache;
    /// the checksum over the image is verified when the image is read.
    static func openIndex(in directory: URL) throws -> (Index, UseLog) {
        let fileManager = FileManager.default
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        let urls = try fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)

        var found: [(name: String, size: Int, modified: Date)] = []
        for url in urls {
            let name = url.lastPathComponent
            if name.hasPrefix(temporaryPrefix) {
                try? fileManager.removeItem(at: url)
                continue
            }
            guard ImageCacheKey.isCacheFileName(name),
                let values = try? url.resourceValues(forKeys: Set(keys)),
                values.isRegularFile == true, let size = values.fileSize
            else { continue }
            guard hasValidTrailer(url, fileSize: size) else {
                try? fileManager.removeItem(at: url)
                continue
            }
            found.append((name, size, values.contentModificationDate ?? .distantPast))
        }

        var log = UseLog(directory: directory)
        var lastUse: [String: Int] = [:]
        for (position, name) in log.read().enumerated() { lastUse[name] = position }
        // Files the log never saw (it was lost, or they were written by an older build) count
        // as older than any logged use, ordered among themselves by modification date.
        found.sort { a, b in
            switch (lastUse[a.name], lastUse[b.name]) {
            case let (x?, y?): x < y
            case (nil, _?): true
            case (_?, nil): false
            case (nil, nil): (a.modified, a.name) < (b.modified, b.name)
            }
        }
        var index = Index()
        for file in found { index.insert(file.name, size: file.size) }
        try log.rewrite(index.namesByUse)
        return (index, log)
    }

    /// Whether the last bytes of the file at `url` are a trailer that fits its size.
    private static func hasValidTrailer(_ url: URL, fileSize: Int) -> Bool {
        guard fileSize >= FileFormat.fixedTrailerSize, let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(fileSize - FileFormat.fixedTrailerSize))) != nil,
            let trailer = try? handle.read(upToCount: FileFormat.fixedTrailerSize)
        else { return false }
        return FileFormat.trailerLengths(trailer, fileSize: fileSize) != nil
    }
}
