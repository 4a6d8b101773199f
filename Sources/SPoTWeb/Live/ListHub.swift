import Foundation
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
    private var feeds: [ListID: Task<any ListFeed, any Error>] = [:]
    private var lastUse: [ListID: UInt64] = [:]
    private var clock: UInt64 = 0
    private var closed = false

    init(store: SPoTStore, renderer: PageRenderer, capacity: Int = 48) {
        self.store = store
        self.renderer = renderer
        self.capacity = capacity
    }

    /// The feed of list `id`, opening it if needed; concurrent callers share one opening. A
    /// spot named otherwise than by its address (`tags/HooverTower`) gives the feed of its
    /// address (`tags/hoovertower`): ``ListFeed/info`` tells which.
    ///
    /// With `reader`, the feed's change log wakes it from the moment the feed is handed out:
    /// a list with a reader is never closed to make room, so an event stream's list cannot be
    /// closed between its opening and the stream's first read (the reader unregisters itself).
    /// - Throws: ``SPoTError`` `.spotNotFound` / `.photographerNotFound` for unknown lists,
    ///   ``SPoTWebError`` once the hub is closed.
    func feed(_ id: ListID, reader: Wakeup? = nil) async throws -> any ListFeed {
        guard !closed else { throw SPoTWebError("The server is shutting down") }
        clock += 1
        lastUse[id] = clock
        if let existing = feeds[id] {
            let feed = try await existing.value
            return try await handOut(feed, from: existing, as: feed.info.id, to: reader, asked: id)
        }
        let task = Task { [store, renderer] () throws -> any ListFeed in
            let list = try await store.list(id)
            return Self.feed(for: list, renderer: renderer)
        }
        feeds[id] = task
        do {
            let feed = try await task.value
            if feed.info.id != id, feeds[id] == task {
                // Another name for a list: keep the list under its own id only.
                feeds[id] = nil
                lastUse[id] = nil
                if let canonical = feeds[feed.info.id], let existing = try? await canonical.value {
                    await feed.close()
                    return try await handOut(existing, from: canonical, as: feed.info.id, to: reader, asked: id)
                }
                feeds[feed.info.id] = task
                lastUse[feed.info.id] = clock
            }
            // Before making room: this list's own reader keeps it from being the one that goes.
            reader.map(feed.events.register)
            await evictIfNeeded()
            return try await handOut(feed, from: task, as: feed.info.id, to: reader, asked: id)
        } catch {
            if feeds[id].map({ $0 == task }) == true {
                feeds[id] = nil
                lastUse[id] = nil
            }
            throw error
        }
    }

    /// `feed`, with `reader` registered, when `task` still holds the list under `key` (no
    /// eviction closed it while this call waited); otherwise the list opened afresh.
    private func handOut(
        _ feed: any ListFeed,
        from task: Task<any ListFeed, any Error>,
        as key: ListID,
        to reader: Wakeup?,
        asked id: ListID
    ) async throws -> any ListFeed {
        guard let reader else { return feed }
        feed.events.register(reader)
        guard feeds[key] != task else { return feed }
        feed.events.unregister(reader)
        return try await self.feed(id, reader: reader)
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
        var candidates: [(key: ListID, task: Task<any ListFeed, any Error>, feed: any ListFeed)] = []
        for key in unpinned {
            // Only lists that finished opening and that nobody listens to may go.
            guard let task = feeds[key], let feed = try? await task.value, feed.subscriberCount == 0 else { continue }
            candidates.append((key, task, feed))
        }
        var closing: [any ListFeed] = []
        for candidate in candidates.sorted(by: { (lastUse[$0.key] ?? 0) < (lastUse[$1.key] ?? 0) }).prefix(unpinned.count - capacity) {
            // Asked again now, with no wait between the answer and the removal: a stream may
            // have started reading while this loop waited for other lists.
            guard feeds[candidate.key] == candidate.task, candidate.feed.subscriberCount == 0 else { continue }
            feeds[candidate.key] = nil
            lastUse[candidate.key] = nil
            closing.append(candidate.feed)
        }
        for feed in closing { await feed.close() }
    }

    /// The feed of `list`, whatever its row type.
    private static func feed(for list: some LiveListProtocol, renderer: PageRenderer) -> any ListFeed {
        LiveListFeed(list: list, renderer: renderer)
    }
}
