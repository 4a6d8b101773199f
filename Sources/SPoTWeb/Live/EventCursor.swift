import SPoTKit

/// Where one event stream stands in the logs it reads: its list's change events, the
/// refresher's status and the keep-alives, all shared by every connection.
///
/// A stream asks ``due()`` for what it should write next whenever its ``Wakeup`` is raised;
/// the cursor holds only versions, never a copy of an event. Both ways a stream is served use
/// it: ``EventStreamHandler`` on the connection's event loop (every event stream of a running
/// server) and ``EventConnection`` in a response body's task (in-memory router tests, and a
/// request the handler passes on).
struct EventCursor {
    /// What a stream writes next.
    enum Due {
        /// These events' bytes, in order, then ask again.
        case bytes([EventBytes])
        /// Nothing yet: wait for the wake-up.
        case nothing
        /// The list closed (the server is going away): these last events (perhaps none), then
        /// end the response; the browser reconnects by itself.
        case ended([EventBytes])
    }

    private let feed: (any ListFeed)?
    private let statuses: ChangeLog<EventBytes>
    private let keepAlives: ChangeLog<EventBytes>
    private var started = false
    private var listCursor = 0
    private var statusCursor = -1
    private var keepAliveCursor: Int

    /// A stream of `feed`'s events (none: the status alone), starting with its snapshot.
    init(feed: (any ListFeed)?, statuses: ChangeLog<EventBytes>, keepAlives: ChangeLog<EventBytes>) {
        self.feed = feed
        self.statuses = statuses
        self.keepAlives = keepAlives
        keepAliveCursor = keepAlives.latestVersion
    }

    /// The logs whose appends should raise the stream's wake-up.
    var logs: [ChangeLog<EventBytes>] { [feed?.events, statuses, keepAlives].compactMap { $0 } }

    /// Everything due now: on the first call the reconnect delay and the list's
    /// snapshot, then the changes after the cursor (or a fresh snapshot when the log no longer
    /// holds them), the latest status when it is new, and a keep-alive when nothing else goes.
    ///
    /// What is due goes out as the logs' own bytes, shared by every connection and never
    /// copied: joined into one buffer, a list's whole snapshot would be copied for every
    /// connection that opens. The cursor keeps nothing between calls but versions.
    mutating func due() -> Due {
        var out: [EventBytes] = []
        if !started {
            started = true
            out.append(Self.retry)
            if let feed {
                let (version, event) = feed.snapshotEvent()
                out.append(event)
                listCursor = version
            }
        }
        // The logs' versions are read without their locks first: a drain finds most logs
        // unchanged (a change to one list wakes no other list's streams, but every status and
        // keep-alive wakes them all).
        if let feed, feed.events.latestVersion != listCursor || feed.events.isClosed {
            switch feed.events.read(after: listCursor) {
            case .entries(let events, let through):
                for event in events { out.append(event) }
                listCursor = through
            case .behind:
                let (version, event) = feed.snapshotEvent()
                out.append(event)
                listCursor = version
            case .closed:
                return .ended(out)
            case .upToDate:
                break
            }
        }
        // Only the latest status matters; it follows the snapshot on a new connection.
        if statuses.latestVersion > statusCursor, let status = statuses.latest, status.version > statusCursor {
            out.append(status.element)
            statusCursor = status.version
        }
        if keepAlives.latestVersion > keepAliveCursor {
            keepAliveCursor = keepAlives.latestVersion
            if out.isEmpty, let comment = keepAlives.latest { out.append(comment.element) }
        }
        return out.isEmpty ? .nothing : .bytes(out)
    }

    private static let retry = EventBytes("retry: 2000\n\n")
}
