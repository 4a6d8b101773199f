import Foundation
import Hummingbird
import SPoTKit
import Synchronization

/// A live list as pages, the API and event streams need it, whatever its row type.
protocol ListFeed: AnyObject, Sendable {
    /// The list, its title and back link.
    var info: ListInfo { get }
    /// Identifies this server's list: pages rendered by an earlier server resynchronise.
    var instance: String { get }
    /// The list pane's content at the list's current version, rendered once per version;
    /// `currentPhoto`'s row (the photo shown beside the list) marked `aria-current`.
    func pane(currentPhoto: String?) -> ListPaneContent
    /// The current content with typed rows, as JSON: `{"version": …, "sections": [{"name",
    /// "indexTitle", "rows"}]}`, encoded once per version.
    func encodedSnapshot() throws -> Data
    /// The content at the list's current version with its typed rows, when they are `R`s
    /// (`nil` for another row type).
    func snapshot<R: LiveRow>(of type: R.Type) -> LiveSnapshot<R>?
    /// The photos before and after photo `id` in the list, for a viewer's previous / next.
    func neighbors(ofPhoto id: String) -> (previous: String?, next: String?)
    /// The list's `change` events, rendered once for every connection: a connection reads on
    /// from the version of its ``snapshotEvent()``; the log closes with the list.
    var events: ChangeLog<EventBytes> { get }
    /// The `snapshot` event at the list's current version and that version, rendered once
    /// per version for every connection.
    func snapshotEvent() -> (version: Int, event: EventBytes)
    /// A whole page for `key` (which names everything the page shows), rendered by `render`
    /// only when the last page this list served had another key.
    func page(_ key: String, render: () -> String) -> ByteBuffer
    /// How many event streams are open.
    var subscriberCount: Int { get }
    /// Stops tracking and ends every event stream.
    func close() async
}

/// What the list pane shows at one version.
struct ListPaneContent: Sendable {
    var version: Int
    var problem: String?
    var sectionsHTML: String
    var isEmpty: Bool
    var sectionIndex: [SectionIndexEntry]
}

/// A ``LiveList`` with what only the web adds: each row's HTML, kept per row across versions
/// (only new and changed rows are rendered), the list rendered once per version, and its
/// change sets rendered as events once, by one task per list, whatever the number of streams.
final class LiveListFeed<List: LiveListProtocol>: ListFeed {
    typealias Row = List.Row
    let list: List
    let instance = UUID().uuidString
    let events: ChangeLog<EventBytes>
    private let renderer: PageRenderer
    private let cache = Mutex(Cache())
    /// The latest snapshot event; its own lock, held while one is rendered, so that many
    /// connections arriving at once render it once.
    private let snapshotCache = Mutex<(version: Int, event: EventBytes)?>(nil)
    /// Renders each change set of the list into ``events``.
    private let pump: Task<Void, Never>

    private struct Cache {
        /// Each row's HTML by id, with the row it was rendered from.
        var rows: [String: (row: Row, html: String)] = [:]
        var content: RenderedContent<Row>?
        var json: (version: Int, data: Data)?
        var page: (key: String, body: ByteBuffer)?
    }

    init(list: List, renderer: PageRenderer) {
        self.list = list
        self.renderer = renderer
        let start = list.current.version
        let events = ChangeLog<EventBytes>(capacity: LiveList<Row>.keptChangeSets, version: start)
        self.events = events
        pump = Task { [list, renderer] in
            for await change in list.changes(after: start) {
                events.append(Self.changeEvent(change, in: list.info.id, renderer: renderer), version: change.version)
            }
            events.close()
        }
    }

    deinit {
        pump.cancel()
        events.close()
    }

    var info: ListInfo { list.info }
    var subscriberCount: Int { events.readerCount }

    func close() async {
        await list.close()
        pump.cancel()
        events.close()
    }

    func pane(currentPhoto: String?) -> ListPaneContent {
        let content = self.content()
        var sectionsHTML = content.sectionsHTML
        let currentRow = currentPhoto.map { info.id.rowID(ofPhoto: $0) }
        if let currentRow, let index = content.snapshot.sections.firstIndex(where: { $0.rows.contains { $0.id == currentRow } }) {
            // Only the section holding the current row is rendered again, with the row marked.
            var sections = content.sectionHTML
            let section = content.snapshot.sections[index]
            let rowsHTML = zip(section.rows, content.rendered.sections[index].rows).map { row, rendered in
                row.id == currentRow ? renderer.rowHTML(id: row.id, row.content, in: info.id, current: true) : rendered.html
            }
            sections[index] = renderer.sectionHTML(name: section.name, indexTitle: section.indexTitle, rowsHTML: rowsHTML.joined())
            sectionsHTML = sections.joined(separator: "\n")
        }
        return ListPaneContent(
            version: content.snapshot.version,
            problem: content.snapshot.problem,
            sectionsHTML: sectionsHTML,
            isEmpty: content.rowCount == 0,
            sectionIndex: content.sectionIndex
        )
    }

    func encodedSnapshot() throws -> Data {
        let snapshot = list.current
        if let json = cache.withLock({ $0.json }), json.version == snapshot.version { return json.data }
        let data = try JSONResponse.data(snapshot)
        cache.withLock { if ($0.json?.version ?? -1) < snapshot.version { $0.json = (snapshot.version, data) } }
        return data
    }

    func snapshot<R: LiveRow>(of type: R.Type) -> LiveSnapshot<R>? {
        list.current as? LiveSnapshot<R>
    }

    func neighbors(ofPhoto id: String) -> (previous: String?, next: String?) {
        let ids = list.current.rows.compactMap(\.content.photoID)
        guard let index = ids.firstIndex(of: id) else { return (nil, nil) }
        return (index > 0 ? ids[index - 1] : nil, index + 1 < ids.count ? ids[index + 1] : nil)
    }

    func snapshotEvent() -> (version: Int, event: EventBytes) {
        snapshotCache.withLock { cached in
            let snapshot = list.current
            if let cached, cached.version == snapshot.version { return cached }
            let rendered = content(of: snapshot).rendered
            let event = SnapshotEvent(list: info.id.address, instance: instance, snapshot: rendered)
            let made = (snapshot.version, EventBytes(EventRoutes.message("snapshot", (try? JSONResponse.encode(event)) ?? "{}")))
            cached = made
            return made
        }
    }

    func page(_ key: String, render: () -> String) -> ByteBuffer {
        if let page = cache.withLock({ $0.page }), page.key == key { return page.body }
        let body = ByteBuffer(string: render())
        cache.withLock { $0.page = (key, body) }
        return body
    }

    // MARK: Rendering

    /// The content at the list's current version, rendered once per version.
    private func content() -> RenderedContent<Row> {
        content(of: list.current)
    }

    /// `snapshot` rendered, from the cache when it holds that version.
    private func content(of snapshot: LiveSnapshot<Row>) -> RenderedContent<Row> {
        if let cached = cache.withLock({ $0.content }), cached.snapshot.version == snapshot.version { return cached }
        let known = cache.withLock { $0.rows }
        var rows: [String: (row: Row, html: String)] = [:]
        let rendered = snapshot.map { row in
            let html = known[row.id].flatMap { $0.row == row ? $0.html : nil } ?? renderer.rowHTML(id: row.id, row.content, in: info.id)
            rows[row.id] = (row, html)
            return RenderedRow(id: row.id, html: html)
        }
        let sectionHTML = rendered.sections.map { section in
            renderer.sectionHTML(name: section.name, indexTitle: section.indexTitle, rowsHTML: section.rows.map(\.html).joined())
        }
        let content = RenderedContent(
            snapshot: snapshot,
            rendered: rendered,
            sectionHTML: sectionHTML,
            sectionsHTML: sectionHTML.joined(separator: "\n")
        )
        cache.withLock { cache in
            // Rows no longer in the list leave the row cache here.
            if (cache.content?.snapshot.version ?? -1) < snapshot.version {
                cache.content = content
                cache.rows = rows
            }
        }
        return content
    }

    /// `change` as an event with its rows rendered: done once per version, by the feed's
    /// pump, whatever the number of streams (a change set holds only the rows that changed).
    private static func changeEvent(_ change: LiveChangeSet<Row>, in list: ListID, renderer: PageRenderer) -> EventBytes {
        let rendered = change.map { RenderedRow(id: $0.id, html: renderer.rowHTML(id: $0.id, $0.content, in: list)) }
        return EventBytes(EventRoutes.message("change", (try? JSONResponse.encode(rendered)) ?? "{}"))
    }
}

/// A row as a page shows it: its id and its HTML, rendered (and escaped) by a template. Events
/// carry the list's own snapshots and change sets with rows in this form.
struct RenderedRow: RowValue {
    var id: String
    var html: String
}

/// A live list's content at one version, rendered: what list pages show, computed once per
/// version whatever the number of requests.
struct RenderedContent<Row: LiveRow>: Sendable {
    /// The content with its rows' values.
    let snapshot: LiveSnapshot<Row>
    /// The same with each row's HTML.
    let rendered: LiveSnapshot<RenderedRow>
    /// Each section's HTML, header and rows.
    let sectionHTML: [String]
    /// Every section's HTML, as the page's `<ol class="sections">` holds it.
    let sectionsHTML: String

    /// How many rows the list holds.
    let rowCount: Int
    /// The section index: each non-empty index title of a named section once, in order, with
    /// its anchor.
    let sectionIndex: [SectionIndexEntry]

    /// Computes what every request for this version shows besides the HTML, once.
    init(snapshot: LiveSnapshot<Row>, rendered: LiveSnapshot<RenderedRow>, sectionHTML: [String], sectionsHTML: String) {
        self.snapshot = snapshot
        self.rendered = rendered
        self.sectionHTML = sectionHTML
        self.sectionsHTML = sectionsHTML
        rowCount = rendered.sections.reduce(0) { $0 + $1.rows.count }
        var seen: Set<String> = []
        sectionIndex = rendered.sections.compactMap { section in
            guard !section.indexTitle.isEmpty, !section.name.isEmpty, seen.insert(section.indexTitle).inserted else { return nil }
            return SectionIndexEntry(title: section.indexTitle, anchor: PageRenderer.anchor(forSection: section.name))
        }
    }
}

/// A letter of a section index and the header it jumps to.
struct SectionIndexEntry: Sendable, Hashable {
    var title: String
    var anchor: String
}

/// The first event of every subscription: the list's content, rendered, and which server's
/// list it is (a page rendered by another server instance resynchronises whatever the
/// versions say).
struct SnapshotEvent: Encodable {
    var list: String
    var instance: String
    var snapshot: LiveSnapshot<RenderedRow>
}
