import Foundation
import Logging
import ObjectGraph
import Synchronization

/// One list the app shows — spots, a spot's photos, recents, photographers, a photographer's
/// photos, search results — kept current by fetched results controllers on a long-lived
/// context that merges every save.
///
/// ``current`` is its content at its latest version, read without waiting for the database:
/// once ``SPoTStore/waitForLiveLists()`` returns it reflects every earlier save.
/// ``subscribe()`` gives that content and then every change as a ``LiveChangeSet`` (inserts,
/// deletes, moves and updates with row values), ready to send to a browser. A background
/// refresh that adds photos reaches an open list as inserts, without a refetch.
///
/// A list that loses track of the database (its controller cannot place a change, and
/// fetching again fails) logs why, reports it in ``LiveSnapshot/problem`` and in a change set,
/// and fetches again with growing delays until it succeeds.
public final class LiveList<Row: LiveRow>: LiveListProtocol {
    /// The list, its title and back link.
    public let info: ListInfo
    let context: ManagedObjectContext
    private let tracking = Tracking()
    private let retryDelay: @Sendable (Int) -> Duration
    private let state: Mutex<State>
    private let logger = Logger(label: "spot.live-lists")

    private struct State {
        var snapshot: LiveSnapshot<Row>
        var subscribers: [Int: AsyncStream<LiveChangeSet<Row>>.Continuation] = [:]
        var nextSubscriber = 0
        var closed = false
    }

    /// What only the context's queue touches.
    private final class Tracking: @unchecked Sendable {
        // @unchecked Sendable: every property is read and written inside `context.perform`.
        var sources: [any LiveListSource<Row>] = []
        var failures = 0
        /// Why the list is behind, while it is.
        var problem: String?
    }

    /// Creates the list on `context`'s queue from sources `makeSources` builds there, and
    /// fetches. After a lost track, the `n`th attempt to fetch again waits `retryDelay(n)`.
    init(
        info: ListInfo,
        context: ManagedObjectContext,
        retryDelay: @escaping @Sendable (Int) -> Duration = { .seconds(min(30, 1 << min($0, 5))) },
        makeSources: @escaping @Sendable () -> [any LiveListSource<Row>]
    ) async throws {
        self.info = info
        self.context = context
        self.retryDelay = retryDelay
        state = Mutex(State(snapshot: LiveSnapshot(version: 0, sections: [])))
        try await context.perform { [self] in
            tracking.sources = makeSources()
            for source in tracking.sources {
                try source.start(
                    publish: { [weak self] changes in self?.publish(&changes) },
                    lost: { [weak self, weak source] error in
                        guard let self, let source else { return }
                        self.lost(source, error)
                    }
                )
            }
            let sections = tracking.sources.flatMap { $0.sections() }
            state.withLock { $0.snapshot.sections = sections }
        }
    }

    deinit {
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.finish() }
        }
    }

    /// A name for logs, e.g. `tags/hoovertower`.
    public var name: String { info.id.address }

    /// The content at the latest version, without waiting: current once
    /// ``SPoTStore/waitForLiveLists()`` returns.
    public var current: LiveSnapshot<Row> { state.withLock { $0.snapshot } }

    /// The content once every save made before the call has reached the list.
    public func snapshot() async -> LiveSnapshot<Row> {
        await context.perform {}
        return current
    }

    /// The content once every earlier save has reached the list and, from exactly that version
    /// on, every change — nothing is missed between the two. The sequence ends when the list is
    /// closed.
    public func subscribe() async -> (snapshot: LiveSnapshot<Row>, changes: AsyncStream<LiveChangeSet<Row>>) {
        await context.perform {}
        let (stream, continuation) = AsyncStream<LiveChangeSet<Row>>.makeStream()
        let snapshot = state.withLock { state in
            if state.closed {
                continuation.finish()
            } else {
                let id = state.nextSubscriber
                state.nextSubscriber += 1
                state.subscribers[id] = continuation
                continuation.onTermination = { [weak self] _ in
                    _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
                }
            }
            return state.snapshot
        }
        return (snapshot, stream)
    }

    /// How many subscribers are listening.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Stops tracking and ends every subscriber's sequence.
    public func close() async {
        await context.perform { [tracking] in
            for source in tracking.sources { source.stop() }
            tracking.sources = []
        }
        let continuations = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    // MARK: On the context's queue

    /// Gives `changes` the next version and hands it to every subscriber with the new content
    /// (the controllers', unless `sections` is given), under one lock: a subscriber's snapshot
    /// and its first change always meet.
    private func publish(_ changes: inout LiveChangeSet<Row>, sections: [LiveSection<Row>]? = nil) {
        let sections = sections ?? tracking.sources.flatMap { $0.sections() }
        if changes.reload != nil { changes.reload = sections }
        changes.problem = tracking.problem
        let problem = changes.problem
        state.withLock { state in
            changes.version = state.snapshot.version + 1
            state.snapshot = LiveSnapshot(version: changes.version, sections: sections, problem: problem)
            for continuation in state.subscribers.values { continuation.yield(changes) }
        }
    }

    /// `source` stopped tracking: fetch it again.
    private func lost(_ source: any LiveListSource<Row>, _ error: any Error) {
        logger.warning("live list lost track of the database; fetching again", metadata: ["list": "\(name)", "error": "\(error)"])
        refetch(source)
    }

    /// Fetches `source` again and sends the whole content; when that fails, says why (in the
    /// log and in a change set) and tries again later.
    private func refetch(_ source: any LiveListSource<Row>) {
        do {
            try source.refetch()
        } catch {
            tracking.failures += 1
            let delay = retryDelay(tracking.failures)
            logger.error(
                "live list cannot fetch again; retrying",
                metadata: ["list": "\(name)", "error": "\(error)", "attempt": "\(tracking.failures)", "retry in": "\(delay)"]
            )
            tracking.problem = "This list could not be updated (\(error)). Trying again…"
            var changes = LiveChangeSet<Row>(version: 0)
            publish(&changes, sections: current.sections)
            let id = ObjectIdentifier(source)
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                await self?.context.perform { [weak self] in
                    guard let self, let source = tracking.sources.first(where: { ObjectIdentifier($0) == id }) else { return }
                    refetch(source)
                }
            }
            return
        }
        if tracking.failures > 0 {
            logger.notice("live list fetched again after \(tracking.failures) failed attempts", metadata: ["list": "\(name)"])
        }
        tracking.failures = 0
        tracking.problem = nil
        var changes = LiveChangeSet<Row>(version: 0)
        changes.reload = []
        publish(&changes)
    }
}

/// A ``LiveList`` whatever its row type, for code that serves every list alike (a web server's
/// pages and event streams).
public protocol LiveListProtocol<Row>: AnyObject, Sendable {
    /// The list's row type.
    associatedtype Row: LiveRow
    /// The list, its title and back link.
    var info: ListInfo { get }
    /// The content at the latest version, without waiting.
    var current: LiveSnapshot<Row> { get }
    /// The content and every change from there on.
    func subscribe() async -> (snapshot: LiveSnapshot<Row>, changes: AsyncStream<LiveChangeSet<Row>>)
    /// How many subscribers are listening.
    var subscriberCount: Int { get }
    /// Stops tracking and ends every subscriber's sequence.
    func close() async
}

extension LiveList: RefetchableList {
    /// Fetches every source again and sends the whole content: after a database outage,
    /// whatever the list missed is in it (``SPoTStore`` calls this when the database answers
    /// again).
    func refetch() async {
        await context.perform { [self] in
            for source in tracking.sources { refetch(source) }
        }
    }
}
