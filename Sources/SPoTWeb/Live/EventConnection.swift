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
    private let wakeup: Wakeup
    private let stopped = Mutex(false)

    /// A connection to `feed`'s events, woken by `wakeup` (already registered with the
    /// feed's log by ``ListHub/feed(_:reader:)``, or not: ``run(_:)`` registers it).
    init(feed: (any ListFeed)?, wakeup: Wakeup, statuses: ChangeLog<ByteBuffer>, keepAlives: ChangeLog<ByteBuffer>) {
        self.feed = feed
        self.wakeup = wakeup
        self.statuses = statuses
        self.keepAlives = keepAlives
    }

    deinit {
        // A response whose body never ran (the browser left first) leaves no reader behind.
        feed?.events.unregister(wakeup)
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

        var out = Outgoing()
        out.append(Self.retry)
        var listCursor = 0
        if let feed {
            let (version, event) = feed.snapshotEvent()
            out.append(event)
            listCursor = version
        }
        var statusCursor = -1
        var keepAliveCursor = keepAlives.latestVersion
        while true {
            if let feed {
                switch feed.events.read(after: listCursor) {
                case .entries(let events, let through):
                    for event in events { out.append(event) }
                    listCursor = through
                case .behind:
                    let (version, event) = feed.snapshotEvent()
                    out.append(event)
                    listCursor = version
                case .closed:
                    // The list closed: the server is going away; the browser reconnects.
                    if let bytes = out.take() { try await writer.write(bytes) }
                    return
                case .upToDate:
                    break
                }
            }
            // Only the latest status matters; it follows the snapshot on a new connection.
            if let status = statuses.latest, status.version > statusCursor {
                out.append(status.element)
                statusCursor = status.version
            }
            if keepAlives.latestVersion > keepAliveCursor {
                keepAliveCursor = keepAlives.latestVersion
                if out.isEmpty, let comment = keepAlives.latest { out.append(comment.element) }
            }
            if let bytes = out.take() {
                try await writer.write(bytes)
                continue
            }
            if stopped.withLock({ $0 }) || Task.isCancelled { return }
            await wakeup.wait()
        }
    }

    private static let retry = ByteBuffer(string: "retry: 2000\n\n")

    /// The events due on a connection, as the shared buffers the logs hold.
    ///
    /// A connection keeps no buffer between writes: one event goes out as the log's own bytes
    /// (shared by every connection, never copied), several are joined into a buffer of their
    /// size that the write releases. A buffer reused with `clear()` would keep the capacity of
    /// the largest batch it ever held (a list's whole snapshot) on every idle connection, and
    /// copy every event into it.
    private struct Outgoing {
        private var pending: [ByteBuffer] = []

        var isEmpty: Bool { pending.isEmpty }

        mutating func append(_ event: ByteBuffer) {
            pending.append(event)
        }

        /// What is due, as one buffer, and nothing due afterwards; `nil` when nothing is.
        mutating func take() -> ByteBuffer? {
            defer { pending.removeAll(keepingCapacity: true) }
            guard pending.count > 1 else { return pending.first }
            var joined = ByteBuffer()
            joined.reserveCapacity(pending.reduce(0) { $0 + $1.readableBytes })
            for event in pending { joined.writeImmutableBuffer(event) }
            return joined
        }
    }
}
