import Hummingbird
import SPoTKit
import Synchronization

/// What every event stream of the server shares besides its list: the refresher's status as
/// a rendered `status` event, a keep-alive comment every ``keepAliveInterval``, and a count
/// of open streams.
///
/// One task follows the refresher and one ticks, for the whole server, however many streams
/// are open; each stream only reads the latest of each.
final class LiveStreams: Sendable {
    /// The time between keep-alive comments, which keep idle connections open through proxies
    /// and let the server notice browsers that went away.
    static let keepAliveInterval: Duration = .seconds(20)

    /// The latest `status` event.
    let statuses = ChangeLog<EventBytes>(capacity: 1)
    /// The latest keep-alive comment; its version counts the ticks.
    let keepAlives = ChangeLog<EventBytes>(capacity: 1)
    private let tasks: [Task<Void, Never>]
    private let open = Mutex(0)

    init(refresher: Refresher) {
        let statuses = self.statuses
        let keepAlives = self.keepAlives
        tasks = [
            Task {
                for await status in await refresher.statusUpdates() {
                    statuses.append(EventBytes(EventRoutes.message("status", (try? JSONResponse.encode(status)) ?? "{}")))
                }
            },
            Task {
                let comment = EventBytes(": keep-alive\n\n")
                while (try? await Task.sleep(for: Self.keepAliveInterval)) != nil {
                    keepAlives.append(comment)
                }
            },
        ]
    }

    /// How many event streams are open.
    var openStreams: Int { open.withLock { $0 } }

    /// Counts a stream that opened.
    func opened() { open.withLock { $0 += 1 } }

    /// Counts a stream that ended.
    func closed() { open.withLock { $0 -= 1 } }

    /// Stops following the refresher and ticking; every stream's shared logs end.
    func close() {
        for task in tasks { task.cancel() }
        statuses.close()
        keepAlives.close()
    }
}
