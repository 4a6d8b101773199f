import Flickr
import Foundation
import ObjectGraph

/// One list the app shows — spots, a spot's photos, recents, photographers, a photographer's
/// photos, search results — kept current by fetched results controllers on a long-lived
/// context that merges every save.
///
/// Read its content with ``snapshot()``, or ``subscribe()`` for the content and then every
/// change as a ``LiveChangeSet`` (inserts, deletes, moves and updates with row values), ready to
/// send to a browser. A background refresh that adds photos reaches an open list as inserts,
/// without a refetch.
public final class LiveList<Row: LiveRow>: @unchecked Sendable {
    // @unchecked Sendable: `sources` and `version` are touched only on `context`'s queue
    // (inside perform); the subscribers are guarded by their lock.

    /// A name for logs and debugging, e.g. "photos of hoovertower".
    public let name: String
    let context: ManagedObjectContext
    private var sources: [any LiveListSource<Row>] = []
    private var version = 0
    private var closed = false
    private let subscribers = Locked<[UUID: AsyncStream<LiveChangeSet<Row>>.Continuation]>([:])
    private let observers = Locked<[UUID: @Sendable (LiveListEvent<Row>) -> Void]>([:])

    /// Creates the list on `context`'s queue from sources `makeSources` builds there, and
    /// fetches.
    init(name: String, context: ManagedObjectContext, makeSources: @escaping @Sendable () -> [any LiveListSource<Row>]) async throws {
        self.name = name
        self.context = context
        try await context.perform { [self] in
            sources = makeSources()
            for source in sources {
                try source.start { [weak self] changes in self?.publish(&changes) }
            }
        }
    }

    deinit {
        subscribers.withLock { subscribers in
            for continuation in subscribers.values { continuation.finish() }
        }
    }

    /// The current content.
    public func snapshot() async -> LiveSnapshot<Row> {
        await context.perform { [self] in currentSnapshot() }
    }

    /// The current content and, from exactly that version on, every change — nothing is
    /// missed between the two. The sequence ends when the list is closed.
    public func subscribe() async -> (snapshot: LiveSnapshot<Row>, changes: AsyncStream<LiveChangeSet<Row>>) {
        let (stream, continuation) = AsyncStream<LiveChangeSet<Row>>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        let snapshot = await context.perform { [self] () -> LiveSnapshot<Row> in
            if closed {
                continuation.finish()
            } else {
                subscribers.withLock { $0[id] = continuation }
            }
            return currentSnapshot()
        }
        return (snapshot, stream)
    }

    /// Hands `handler` the current content, then every change from exactly that version on,
    /// synchronously as it happens (on the list's context queue), then `.closed`.
    ///
    /// For mirrors that must be current as soon as ``SPoTStore/waitForLiveLists()`` returns
    /// (a web server answering a page right after its own write); `handler` must be quick and
    /// must not call back into the list.
    public func observe(_ handler: @escaping @Sendable (LiveListEvent<Row>) -> Void) async {
        await context.perform { [self] in
            handler(.snapshot(currentSnapshot()))
            if closed {
                handler(.closed)
            } else {
                observers.withLock { $0[UUID()] = handler }
            }
        }
    }

    /// How many subscribers are listening.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Stops tracking and ends every subscriber's sequence.
    public func close() async {
        await context.perform { [self] in
            closed = true
            for source in sources { source.stop() }
            sources = []
        }
        let continuations = subscribers.withLock { subscribers in
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
        let handlers = observers.withLock { observers in
            defer { observers = [:] }
            return Array(observers.values)
        }
        for handler in handlers { handler(.closed) }
    }

    // MARK: On the context's queue

    private func currentSnapshot() -> LiveSnapshot<Row> {
        LiveSnapshot(version: version, sections: sources.flatMap { $0.sections() })
    }

    private func publish(_ changes: inout LiveChangeSet<Row>) {
        version += 1
        changes.version = version
        if changes.reload != nil { changes.reload = sources.flatMap { $0.sections() } }
        let delivered = changes
        for handler in observers.withLock({ Array($0.values) }) { handler(.change(delivered)) }
        let continuations = subscribers.withLock { Array($0.values) }
        for continuation in continuations { continuation.yield(delivered) }
    }
}

/// What an observer of a ``LiveList`` receives, in order.
public enum LiveListEvent<Row: LiveRow>: Sendable {
    /// The content when observing began; first, once.
    case snapshot(LiveSnapshot<Row>)
    /// One change after it.
    case change(LiveChangeSet<Row>)
    /// The list closed; nothing follows.
    case closed
}
