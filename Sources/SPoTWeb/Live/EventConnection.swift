import Hummingbird
import SPoTKit
import Synchronization

/// One browser's event stream: its list's snapshot, then the list's change events, the
/// refresher's status and keep-alives — read from logs every connection shares.
///
/// A connection owns no buffer and no task of its own: it holds cursors into the shared
/// ``ChangeLog``s and one ``Wakeup`` they raise, and writes from the response's own task.
/// Writes wait for the channel (NIO's high-water mark), so a browser that stops reading parks
/// this connection alone; when it reads again more than the logs keep behind, it gets a fresh
/// snapshot instead of what it missed.
final class EventConnection: Sendable {
    private let feed: (any ListFeed)?
    private let statuses: ChangeLog<ByteBuffer>
    private let keepAlives: ChangeLog<ByteBuffer>
    private let wakeup = Wakeup()
    private let stopped = Mutex(false)

    init(feed: (any ListFeed)?, statuses: ChangeLog<ByteBuffer>, keepAlives: ChangeLog<ByteBuffer>) {
        self.feed = feed
        self.statuses = statuses
        self.keepAlives = keepAlives
    }

    /// Ends the stream at its next turn: the browser went away or the server is stopping.
    func stop() {
        stopped.withLock { $0 = true }
        wakeup.signal()
    }

    /// Writes events to `writer` until the list closes, ``stop()`` or cancellation.
    func run(_ writer: inout any ResponseBodyWriter) async throws {
        let logs = [feed?.events, statuses, keepAlives].compactMap { $0 }
        for log in logs { log.register(wakeup) }
        defer { for log in logs { log.unregister(wakeup) } }

        var out = ByteBuffer(string: "retry: 2000\n\n")
        var listCursor = 0
        if let feed {
            let (version, event) = feed.snapshotEvent()
            out.writeImmutableBuffer(event)
            listCursor = version
        }
        var statusCursor = -1
        var keepAliveCursor = keepAlives.latestVersion
        while true {
            if let feed {
                switch feed.events.read(after: listCursor) {
                case .entries(let events, let through):
                    for event in events { out.writeImmutableBuffer(event) }
                    listCursor = through
                case .behind:
                    let (version, event) = feed.snapshotEvent()
                    out.writeImmutableBuffer(event)
                    listCursor = version
                case .closed:
                    // The list closed: the server is going away; the browser reconnects.
                    if out.readableBytes > 0 { try await writer.write(out) }
                    return
                case .upToDate:
                    break
                }
            }
            // Only the latest status matters; it follows the snapshot on a new connection.
            if let status = statuses.latest, status.version > statusCursor {
                out.writeImmutableBuffer(status.element)
                statusCursor = status.version
            }
            if keepAlives.latestVersion > keepAliveCursor {
                keepAliveCursor = keepAlives.latestVersion
                if out.readableBytes == 0, let comment = keepAlives.latest { out.writeImmutableBuffer(comment.element) }
            }
            if out.readableBytes > 0 {
                try await writer.write(out)
                out.clear()
                continue
            }
            if stopped.withLock({ $0 }) || Task.isCancelled { return }
            await wakeup.wait()
        }
    }
}
