import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Many EventSource connections to one server, on SwiftNIO event loops of their own (not the
/// concurrency pool's threads): opened a window at a time, held, and closed.
final class EventStreamClient: Sendable {
    /// An open connection: its channel, and its handler (used on the channel's loop only).
    struct Connection: Sendable {
        let channel: any Channel
        let handler: NIOLoopBound<EventStreamHandler>

        /// Closes it on purpose (FIN, or a reset when the handler says so).
        func close() {
            let handler = handler
            channel.eventLoop.execute {
                if let context = try? channel.pipeline.syncOperations.context(handler: handler.value) {
                    handler.value.close(context: context)
                }
            }
        }
    }

    let group: MultiThreadedEventLoopGroup
    let port: Int
    let log: StreamLog
    /// Connection attempts at once while opening: the server's listen backlog is 256.
    let window: Int

    init(threads: Int, port: Int, log: StreamLog, window: Int = 128) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        self.port = port
        self.log = log
        self.window = window
    }

    func shutdown() async {
        try? await group.shutdownGracefully()
    }

    /// The event stream of list `address` (`tags/NAME`), percent-encoded as a browser sends it.
    static func path(list address: String) -> String {
        "/events?list=" + (address.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? address)
    }

    /// Opens one connection; the returned future completes when it is connected (its
    /// snapshot comes later, through `snapshotReceived`).
    func connect(
        index: Int, list: Int, path: String, drop: EventStreamHandler.Drop = .never, reset: Bool = false,
        snapshotReceived: EventLoopPromise<Void>? = nil
    ) -> (EventLoopFuture<Connection>, snapshot: EventLoopFuture<Void>) {
        let loop = group.next()
        let promise = snapshotReceived ?? loop.makePromise(of: Void.self)
        let log = log
        let host = "127.0.0.1:\(port)"
        // The handler is handed over by the initializer, not looked up in the pipeline once
        // connected: a connection the server (or a drop at the head) closes at once has an
        // empty pipeline by then, and the lookup failed with `notFound`.
        let installed = NIOLoopBoundBox.makeEmptyBox(valueType: EventStreamHandler.self, eventLoop: loop)
        let future = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = EventStreamHandler(
                        index: Int32(index), list: Int32(list), path: path, host: host, log: log, drop: drop, reset: reset,
                        snapshotReceived: promise
                    )
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(handler)
                    installed.value = handler
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .flatMapThrowing { channel in
                guard let handler = installed.value else { throw ChannelPipelineError.notFound }
                return Connection(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
            }
        future.whenFailure { error in
            log.failed("connect: \(error)")
            promise.fail(error)
        }
        return (future, promise.futureResult)
    }

    /// Opens `count` connections numbered from `first`, `lists(i)` giving connection i's list
    /// (index and path), at most ``window`` being set up at once, and waits until each has its
    /// snapshot (or failed).
    /// - Returns: the connections that got their snapshot.
    func open(count: Int, first: Int = 0, lists: @Sendable (Int) -> (index: Int, path: String)) async -> [Connection] {
        await withTaskGroup(of: Connection?.self) { group in
            var opened: [Connection] = []
            opened.reserveCapacity(count)
            var next = first
            var finished = 0
            let end = first + count
            while next < end || !group.isEmpty {
                while next < end, next - first - finished < window {
                    let (index, list) = (next, lists(next))
                    group.addTask {
                        let (connection, snapshot) = self.connect(index: index, list: list.index, path: list.path)
                        do {
                            let open = try await connection.get()
                            try await snapshot.get()
                            return open
                        } catch {
                            return nil
                        }
                    }
                    next += 1
                }
                guard let result = await group.next() else { break }
                finished += 1
                if let result { opened.append(result) }
            }
            return opened
        }
    }

    /// Closes every connection and waits (up to 10 s) for them to be closed.
    static func close(_ connections: [Connection]) async {
        for connection in connections { connection.close() }
        let deadline = ContinuousClock.now + .seconds(10)
        for connection in connections {
            guard ContinuousClock.now < deadline else { return }
            _ = try? await connection.channel.closeFuture.get()
        }
    }
}
