import Flickr
import Foundation
import Logging
import SPoTKit

/// What a subscriber of a list feed receives.
enum FeedEvent: Sendable {
    /// The whole list, first on every subscription.
    case snapshot(RenderedSnapshot)
    /// One change after it, in order.
    case change(RenderedChange)
}

/// A live list as pages and event streams need it, whatever its row type.
protocol ListFeed: AnyObject, Sendable {
    var key: ListKey { get }
    /// The current content, rendered. Never waits for the database: the content is kept up
    /// to date by the feed as changes arrive.
    func snapshot() -> RenderedSnapshot
    /// The current content, then every change from exactly there on; the stream ends when
    /// the feed closes.
    func subscribe() -> AsyncStream<FeedEvent>
    /// The current content with typed rows, as JSON: `{"version": …, "sections": [{"name",
    /// "indexTitle", "rows"}]}`.
    func encodedSnapshot() throws -> Data
    /// The photos before and after photo `id` in the list, for a viewer's previous / next.
    func neighbors(ofPhoto id: String) -> (previous: String?, next: String?)
    /// How many event streams are open.
    var subscriberCount: Int { get }
    /// Stops tracking and ends every subscriber's stream.
    func close() async
}

/// A ``LiveList`` with its content mirrored in memory and rendered on demand, fanning its
/// changes out to any number of event streams.
///
/// The server keeps one feed per list, so a thousand open pages of one spot cost one fetched
/// results controller; page requests read the mirrored content under a lock and never queue
/// behind the list's context (which is busy merging while a refresh imports).
final class LiveListFeed<Row: LiveRow>: ListFeed {
    let key: ListKey
    private let list: LiveList<Row>
    private let rendering: ListRendering<Row>
    private let photoID: @Sendable (Row) -> String?
    private let instance = UUID().uuidString
    private let logger: Logger
    private let state: Locked<State>

    private struct State {
        var version: Int
        var sections: [LiveSection<Row>]
        /// The content as pages show it, rendered on the list's queue as changes arrive, so
        /// page requests never render a list (under load, many would render the same one).
        var rendered: RenderedSnapshot
        /// Each row's HTML by row id, kept across changes: only changed rows are rendered again.
        var rowHTML: [String: String] = [:]
        var subscribers: [UUID: AsyncStream<FeedEvent>.Continuation] = [:]
        var closed = false
    }

    /// Starts mirroring `list`: its changes are applied here as they happen, on the list's
    /// queue, so the mirror is current once ``SPoTStore/waitForLiveLists()`` returns.
    init(
        key: ListKey,
        list: LiveList<Row>,
        rendering: ListRendering<Row>,
        logger: Logger,
        photoID: @escaping @Sendable (Row) -> String?
    ) async {
        self.key = key
        self.list = list
        self.rendering = rendering
        self.photoID = photoID
        self.logger = logger
        state = Locked(State(version: 0, sections: [], rendered: RenderedSnapshot(listKey: key.description, instance: "", version: 0, sections: [])))
        // Every event arrives on the list's queue, the snapshot first.
        await list.observe { [weak self] event in
            guard let self else { return }
            switch event {
            case .snapshot(let snapshot):
                let rowHTML = Dictionary(snapshot.rows.map { ($0.id, rendering.row($0)) }, uniquingKeysWith: { first, _ in first })
                let rendered = render(snapshot.sections, version: snapshot.version, rowHTML: rowHTML)
                state.withLock { state in
                    state.version = snapshot.version
                    state.sections = snapshot.sections
                    state.rowHTML = rowHTML
                    state.rendered = rendered
                }
            case .change(let change): receive(change)
            case .closed: finishSubscribers()
            }
        }
    }

    func snapshot() -> RenderedSnapshot {
        state.withLock { $0.rendered }
    }

    func subscribe() -> AsyncStream<FeedEvent> {
        let (stream, continuation) = AsyncStream<FeedEvent>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        // The snapshot is taken under the same lock that registers the subscriber, so the
        // first change it receives is the one right after the snapshot.
        state.withLock { state in
            continuation.yield(.snapshot(state.rendered))
            if state.closed {
                continuation.finish()
            } else {
                state.subscribers[id] = continuation
            }
        }
        return stream
    }

    func encodedSnapshot() throws -> Data {
        let snapshot = state.withLock { LiveSnapshot(version: $0.version, sections: $0.sections) }
        return try JSONResponse.data(snapshot)
    }

    func neighbors(ofPhoto id: String) -> (previous: String?, next: String?) {
        let ids = state.withLock { $0.sections.flatMap { $0.rows.compactMap(photoID) } }
        guard let index = ids.firstIndex(of: id) else { return (nil, nil) }
        return (index > 0 ? ids[index - 1] : nil, index + 1 < ids.count ? ids[index + 1] : nil)
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func close() async {
        await list.close()
        finishSubscribers()
    }

    // MARK: Mirroring

    /// Applies one change set (on the list's queue) and hands it, rendered, to every stream.
    private func receive(_ change: LiveChangeSet<Row>) {
        let (version, current, currentHTML) = state.withLock { ($0.version, $0.sections, $0.rowHTML) }
        guard change.version > version else { return }
        let renderedChange: RenderedChange
        let sections: [LiveSection<Row>]
        do {
            guard change.version == version + 1 else {
                throw FeedOutOfStep(description: "change set \(change.version) does not follow version \(version)")
            }
            sections = try change.apply(to: current)
            renderedChange = rendering.change(change)
        } catch {
            // Should never happen; if it does, browsers get the whole list again from the
            // list's own content, read asynchronously.
            logger.error("live list out of step, reloading", metadata: ["list": "\(key)", "error": "\(error)"])
            Task { [weak self] in await self?.reload() }
            return
        }
        var rowHTML = currentHTML
        if let reload = renderedChange.reload {
            rowHTML = Dictionary(reload.flatMap(\.rows).map { ($0.id, $0.html) }, uniquingKeysWith: { first, _ in first })
        } else {
            for position in change.deletedRows where current.indices.contains(position.section) {
                let rows = current[position.section].rows
                if rows.indices.contains(position.row) { rowHTML[rows[position.row].id] = nil }
            }
            for row in renderedChange.insertedRows { rowHTML[row.id] = row.html }
            for row in renderedChange.movedRows { rowHTML[row.id] = row.html }
            for row in renderedChange.updatedRows { rowHTML[row.id] = row.html }
        }
        publish(renderedChange, sections: sections, rowHTML: rowHTML)
    }

    private func reload() async {
        let fresh = await list.snapshot()
        let version = state.withLock { max($0.version + 1, fresh.version) }
        publish(.reload(version: version, sections: fresh.sections.map { rendering.section($0) }), sections: fresh.sections, rowHTML: [:])
    }

    private func render(_ sections: [LiveSection<Row>], version: Int, rowHTML: [String: String]) -> RenderedSnapshot {
        rendering.snapshot(sections, key: key, instance: instance, version: version, rowHTML: rowHTML)
    }

    private func publish(_ change: RenderedChange, sections: [LiveSection<Row>], rowHTML: [String: String]) {
        let rendered = render(sections, version: change.version, rowHTML: rowHTML)
        let continuations = state.withLock { state -> [AsyncStream<FeedEvent>.Continuation] in
            state.version = change.version
            state.sections = sections
            state.rowHTML = rowHTML
            state.rendered = rendered
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.yield(.change(change)) }
    }

    private func finishSubscribers() {
        let continuations = state.withLock { state -> [AsyncStream<FeedEvent>.Continuation] in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// A change set that does not follow the mirrored version.
private struct FeedOutOfStep: Error, CustomStringConvertible {
    let description: String
}
