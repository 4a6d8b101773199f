import Hummingbird
import SPoTKit
import Synchronization

/// One browser's event stream written from a response body's task: how an in-memory router
/// answers `/events`, and a running server when ``EventStreamHandler`` passes a request on.
///
/// A connection owns no buffer and no task of its own: it holds an ``EventCursor`` into the
/// shared logs and one ``Wakeup`` they raise, and writes from the response's own task. Writes
/// wait for the channel (NIO's high-water mark), so a browser that stops reading parks this
/// connection alone; when it reads again more than the logs keep behind, it gets a fresh
/// snapshot instead of what it missed.
final class EventConnection: Sendable {
    private let feed: (any ListFeed)?
    private let statuses: ChangeLog<EventBytes>
    private let keepAlives: ChangeLog<EventBytes>
    private let wakeup: Wakeup
    private let stopped = Mutex(false)

    /// A connection to `feed`'s events, woken by `wakeup` (already registered with the
    /// feed's log by ``ListHub/feed(_:reader:)``, or not: ``run(_:)`` registers it).
    init(feed: (any ListFeed)?, wakeup: Wakeup, statuses: ChangeLog<EventBytes>, keepAlives: ChangeLog<EventBytes>) {
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
        var cursor = EventCursor(feed: feed, statuses: statuses, keepAlives: keepAlives)
        let logs = cursor.logs
        for log in logs { log.register(wakeup) }
        defer { for log in logs { log.unregister(wakeup) } }
        while true {
            switch cursor.due() {
            case .bytes(let events):
                for event in events { try await writer.write(event.text) }
            case .ended(let events):
                for event in events { try await writer.write(event.text) }
                return
            case .nothing:
                if stopped.withLock({ $0 }) || Task.isCancelled { return }
                await wakeup.wait()
            }
        }
    }
}
