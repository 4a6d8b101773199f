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
    /// How many of the latest change sets a list keeps for subscribers that fall behind; one
    /// further behind resynchronises with a reload (see ``LiveChanges``).
    public static var keptChangeSets: Int { 128 }

    /// The list, its title and back link.
    public let info: ListInfo
    let context: ManagedObjectContext
    private let tracking = Tracking()
    private let retryDelay: @Sendable (Int) -> Duration
    private let state: Mutex<LiveSnapshot<Row>>
    /// The latest change sets, shared by every subscriber (each holds only a cursor).
    let changeLog: ChangeLog<LiveChangeSet<Row>>
    private let logger = Logger(label: "spot.live-lists")

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
        state = Mutex(LiveSnapshot(version: 0, sections: []))
        changeLog = ChangeLog(capacity: Self.keptChangeSets)
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
            state.withLock { $0.sections = sections }
        }
    }

    deinit {
        changeLog.close()
    }

    /// A name for logs, e.g. `tags/hoovertower`.
    public var name: String { info.id.address }

    /// The content at the latest version, without waiting: current once
    /// ``SPoTStore/waitForLiveLists()`` returns.
    public var current: LiveSnapshot<Row> { state.withLock { $0 } }

    /// The content once every save made before the call has reached the list.
    public func snapshot() async -> LiveSnapshot<Row> {
        await context.perform {}
        return current
    }

    /// Every change after `version`, in order, without waiting for the database: a
    /// subscriber that holds ``current`` reads on from its version. See ``LiveChanges``.
    public func changes(after version: Int) -> LiveChanges<Row> {
        LiveChanges(list: self, cursor: version)
    }

    /// The content once every earlier save has reached the list and, from exactly that version
    /// on, every change — nothing is missed between the two. The sequence ends when the list is
    /// closed.
    public func subscribe() async -> (snapshot: LiveSnapshot<Row>, changes: LiveChanges<Row>) {
        await context.perform {}
        let snapshot = current
        return (snapshot, changes(after: snapshot.version))
    }

    /// How many subscribers are reading changes.
    public var subscriberCount: Int { changeLog.readerCount }

    /// Stops tracking and ends every subscriber's sequence.
    public func close() async {
        // Subscribers end at once, not after the merges queued on the context.
        changeLog.close()
        await context.perform { [tracking] in
            for source in tracking.sources { source.stop() }
            tracking.sources = []
        }
    }

    // MARK: On the context's queue

    /// Gives `changes` the next version, applies it to the content (or, for a reload, takes
    /// the controllers' content, or `sections` when given) and hands it to subscribers. It
    /// costs what changed, not the list's length; the version makes a subscriber's snapshot
    /// and its first change meet.
    private func publish(_ changes: inout LiveChangeSet<Row>, sections given: [LiveSection<Row>]? = nil) {
        changes.problem = tracking.problem
        let previous = current
        let sections: [LiveSection<Row>]
        if let given {
            sections = given
        } else if changes.reload != nil {
            sections = tracking.sources.flatMap { $0.sections() }
            changes.reload = sections
        } else {
            do {
                sections = try changes.apply(to: previous.sections)
            } catch {
                // Never expected: the controllers know best, and subscribers reload.
                logger.error("live list could not apply its own change set; reloading", metadata: ["list": "\(name)", "error": "\(error)"])
                sections = tracking.sources.flatMap { $0.sections() }
                changes = LiveChangeSet(version: 0)
                changes.reload = sections
                changes.problem = tracking.problem
            }
        }
        let problem = changes.problem
        let version = state.withLock { snapshot in
            snapshot = LiveSnapshot(version: snapshot.version + 1, sections: sections, problem: problem)
            return snapshot.version
        }
        changes.version = version
        changeLog.append(changes, version: version)
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
    func subscribe() async -> (snapshot: LiveSnapshot<Row>, changes: LiveChanges<Row>)
    /// Every change after `version`, without waiting for the database.
    func changes(after version: Int) -> LiveChanges<Row>
    /// How many subscribers are reading changes.
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
