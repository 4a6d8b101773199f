import Foundation
import Logging
import SPoTKit

/// The live lists the server keeps open: one feed per list, shared by every page and event
/// stream that shows it.
///
/// The tabs' lists (spots, recents, photographers) stay open; a spot's, a photographer's and
/// search lists are opened on first use and the least recently used ones without subscribers
/// are closed beyond ``capacity``, so arbitrary URLs cannot make the server track unbounded
/// numbers of lists.
actor ListHub {
    /// How many lists besides the tabs' may stay open.
    let capacity: Int
    private let store: SPoTStore
    private let renderer: PageRenderer
    private let logger: Logger
    private var feeds: [ListKey: Task<any ListFeed, any Error>] = [:]
    private var lastUse: [ListKey: UInt64] = [:]
    private var clock: UInt64 = 0
    private var closed = false

    init(store: SPoTStore, renderer: PageRenderer, capacity: Int = 48, logger: Logger) {
        self.store = store
        self.renderer = renderer
        self.capacity = capacity
        self.logger = logger
    }

    /// The feed of list `key`, opening it if needed; concurrent callers share one opening.
    /// - Throws: ``SPoTError`` `.spotNotFound` / `.photographerNotFound` for unknown lists,
    ///   ``SPoTWebError`` once the hub is closed.
    func feed(_ key: ListKey) async throws -> any ListFeed {
        guard !closed else { throw SPoTWebError("The server is shutting down") }
        clock += 1
        lastUse[key] = clock
        if let existing = feeds[key] { return try await existing.value }
        let task = Task { [store, renderer, logger] in try await Self.open(key, store: store, renderer: renderer, logger: logger) }
        feeds[key] = task
        do {
            let feed = try await task.value
            await evictIfNeeded()
            return feed
        } catch {
            if feeds[key].map({ $0 == task }) == true {
                feeds[key] = nil
                lastUse[key] = nil
            }
            throw error
        }
    }

    /// How many lists are open.
    var openCount: Int { feeds.count }

    /// Closes every list; their event streams end. Later requests for feeds fail.
    func closeAll() async {
        closed = true
        let tasks = Array(feeds.values)
        feeds = [:]
        for task in tasks {
            if let feed = try? await task.value { await feed.close() }
        }
    }

    private func evictIfNeeded() async {
        let unpinned = feeds.keys.filter { !$0.isPinned }
        guard unpinned.count > capacity else { return }
        var candidates: [(ListKey, UInt64)] = []
        for key in unpinned {
            // Only lists that finished opening and that nobody listens to may go.
            guard let task = feeds[key], let feed = try? await task.value, feed.subscriberCount == 0 else { continue }
            candidates.append((key, lastUse[key] ?? 0))
        }
        for (key, _) in candidates.sorted(by: { $0.1 < $1.1 }).prefix(unpinned.count - capacity) {
            guard let task = feeds.removeValue(forKey: key) else { continue }
            lastUse[key] = nil
            if let feed = try? await task.value { await feed.close() }
        }
    }

    private static func open(_ key: ListKey, store: SPoTStore, renderer: PageRenderer, logger: Logger) async throws -> any ListFeed {
        switch key {
        case .spots:
            return await LiveListFeed(key: key, list: try await store.spotList(), rendering: renderer.spotRows(), logger: logger) { _ in nil }
        case .spot(let address):
            return await LiveListFeed(
                key: key,
                list: try await store.photoList(spot: address),
                rendering: renderer.photoRows(in: key),
                logger: logger
            ) { $0.id }
        case .recents:
            return await LiveListFeed(key: key, list: try await store.recentList(), rendering: renderer.recentRows(), logger: logger) {
                $0.photo.id
            }
        case .photographers:
            return await LiveListFeed(
                key: key,
                list: try await store.photographerList(),
                rendering: renderer.photographerRows(),
                logger: logger
            ) { _ in nil }
        case .photographer(let id):
            return await LiveListFeed(
                key: key,
                list: try await store.photoList(photographer: id),
                rendering: renderer.photoRows(in: key),
                logger: logger
            ) { $0.id }
        case .search(let text):
            return await LiveListFeed(
                key: key,
                list: try await store.searchList(text),
                rendering: renderer.searchRows(in: key),
                logger: logger
            ) { row in
                if case .photo(let photo) = row { return photo.id }
                return nil
            }
        }
    }
}
