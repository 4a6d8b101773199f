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
    /// - Throws: ``SPoTError`` `.spotNotFound` / `.photographerNotFound` for unknown lists,
    ///   ``SPoTWebError`` once the hub is closed.
    func feed(_ id: ListID) async throws -> any ListFeed {
        guard !closed else { throw SPoTWebError("The server is shutting down") }
        clock += 1
        lastUse[id] = clock
        if let existing = feeds[id] { return try await existing.value }
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
                    return existing
                }
                feeds[feed.info.id] = task
                lastUse[feed.info.id] = clock
            }
            await evictIfNeeded()
            return feed
        } catch {
            if feeds[id].map({ $0 == task }) == true {
                feeds[id] = nil
                lastUse[id] = nil
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
        var candidates: [(ListID, UInt64)] = []
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

    /// The feed of `list`, whatever its row type.
    private static func feed(for list: some LiveListProtocol, renderer: PageRenderer) -> any ListFeed {
        LiveListFeed(list: list, renderer: renderer)
    }
}
