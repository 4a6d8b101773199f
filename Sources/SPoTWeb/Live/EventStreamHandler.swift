import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import SPoTKit
import Synchronization

/// Serves `GET /events` on the connection's own event loop, beneath the router: an open event
/// stream costs its channel, an ``EventCursor`` and a ``Wakeup``, and no task.
///
/// Tens of thousands of browsers keep a stream open, idle nearly all the time. Served by the
/// router, each holds a response task suspended under every middleware (about 24 KB of task
/// frames), and a change wakes every one of those tasks to write. Here a change schedules one
/// drain per connection on its event loop, which writes the shared event bytes and flushes.
///
/// The handler takes a request only when it is a `GET /events` for the status or a well-formed
/// list, and no earlier response on the connection is still being written. Everything else goes
/// on to the router untouched, and so does a stream whose list cannot be opened (unknown, the
/// database unreachable, the server stopping): the router's `/events` route answers it with the
/// error page it gives everywhere. A browser that stops reading parks its stream when the
/// channel stops being writable (NIO's high-water mark); when it reads again, it gets what the
/// logs still hold, or a fresh snapshot. The stream ends, with its chunked response completed,
/// when the list closes or the server quiesces.
final class EventStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// Requests go on to the router.
        case passing
        /// An events request waits for its list to open; its parts go to the router if it
        /// cannot be had.
        case opening([HTTPRequestPart])
        /// This connection is an event stream.
        case streaming
        /// The stream ended or the connection closed; nothing more is read or written here.
        case ended
    }

    private let web: SPoTWebApp
    private var state = State.passing
    /// Requests passed to the router whose response has not ended: a stream may not start
    /// while one is being written.
    private var unansweredRequests = 0
    private var cursor: EventCursor?
    private var wakeup: Wakeup?
    private var context: ChannelHandlerContext?
    /// NIO's HTTP response encoder's context, once the stream's head went through it: events
    /// are written from there, already framed as chunks (``EventBytes/chunk``), straight to
    /// the socket. `nil` when the pipeline has no such encoder: events then go through it as
    /// body parts.
    private var encoderContext: ChannelHandlerContext?

    init(web: SPoTWebApp) {
        self.web = web
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
        encoderContext = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch state {
        case .passing:
            if case .head(let head) = part, unansweredRequests == 0, let stream = Self.stream(head) {
                open(stream, from: part, context: context)
            } else {
                pass(part, context: context)
            }
        case .opening(var parts):
            parts.append(part)
            state = .opening(parts)
        case .streaming, .ended:
            // Nothing sent after a request for an endless response can be answered.
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unansweredRequests -= 1 }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { drain(context) }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        switch state {
        case .streaming:
            end(context, last: [])
        case .opening:
            finish()
            context.close(promise: nil)
        case .passing, .ended:
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Requests

    /// What an events request asks for.
    private enum Stream {
        case status
        case list(ListID)
    }

    /// The stream `head` asks for, or `nil` when the router should answer it (another route,
    /// another method, a list that is missing or malformed).
    private static func stream(_ head: HTTPRequest) -> Stream? {
        guard head.method == .get, let path = head.path, path == "/events" || path.hasPrefix("/events?") else { return nil }
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        guard let raw = request.uri.queryParameters["list"].map(String.init), raw != "status" else { return .status }
        guard let id = try? Input.listID(request) else { return nil }
        return .list(id)
    }

    private func pass(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        if case .head = part { unansweredRequests += 1 }
        context.fireChannelRead(wrapInboundOut(part))
    }

    private func open(_ stream: Stream, from head: HTTPRequestPart, context: ChannelHandlerContext) {
        let wakeup = makeWakeup(on: context.eventLoop)
        self.wakeup = wakeup
        switch stream {
        case .status:
            start(nil, context: context)
        case .list(let id):
            state = .opening([head])
            let hub = web.hub
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            Task {
                let opened: Result<any ListFeed, any Error>
                do {
                    // Registered as the list's reader at once, so the list stays open.
                    opened = .success(try await hub.feed(id, reader: wakeup))
                } catch {
                    opened = .failure(error)
                }
                handler.eventLoop.execute { handler.value.listOpened(opened) }
            }
        }
    }

    private func listOpened(_ opened: Result<any ListFeed, any Error>) {
        guard case .opening(let parts) = state, let context else {
            if case .success(let feed) = opened, let wakeup { feed.events.unregister(wakeup) }
            return
        }
        switch opened {
        case .success(let feed):
            start(feed, context: context)
        case .failure:
            // The router's route tries again and answers with the reason.
            state = .passing
            wakeup = nil
            for part in parts { pass(part, context: context) }
            context.fireChannelReadComplete()
        }
    }

    // MARK: Streaming

    private func start(_ feed: (any ListFeed)?, context: ChannelHandlerContext) {
        guard let wakeup else { return }
        state = .streaming
        web.live.opened()
        let cursor = EventCursor(feed: feed, statuses: web.live.statuses, keepAlives: web.live.keepAlives)
        for log in cursor.logs { log.register(wakeup) }
        self.cursor = cursor
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: EventRoutes.headers))), promise: nil)
        // The head sets the encoder to chunked framing (a response with a body and no length
        // is always chunked: the head goes out as HTTP/1.1), so pre-framed chunks written past
        // it are what the encoder would have written, and its end marker closes them.
        encoderContext = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        drain(context)
    }

    /// Writes what is due, if the channel takes it, and flushes.
    ///
    /// One read of the logs is enough: the wake-up was lowered before this drain ran, so an
    /// append made since schedules the next one, and a channel that was full drains again when
    /// it becomes writable.
    private func drain(_ context: ChannelHandlerContext) {
        guard case .streaming = state, context.channel.isWritable, let due = cursor?.due() else { return }
        switch due {
        case .bytes(let events):
            if let encoderContext {
                for event in events { encoderContext.write(NIOAny(IOData.byteBuffer(event.chunk)), promise: nil) }
                encoderContext.flush()
            } else {
                for event in events { context.write(wrapOutboundOut(.body(event.text)), promise: nil) }
                context.flush()
            }
        case .nothing:
            break
        case .ended(let events):
            end(context, last: events)
        }
    }

    /// Completes the response and closes the connection: the list closed or the server is
    /// stopping, and the browser reconnects by itself.
    private func end(_ context: ChannelHandlerContext, last events: [EventBytes]) {
        finish()
        for event in events { context.write(wrapOutboundOut(.body(event.text)), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Leaves the logs and the count of open streams; idempotent.
    private func finish() {
        if let wakeup {
            for log in cursor?.logs ?? [] { log.unregister(wakeup) }
        }
        if case .streaming = state { web.live.closed() }
        state = .ended
        cursor = nil
        // A list still opening unregisters the wake-up when it is handed out (listOpened).
    }

    /// A wake-up that schedules one drain on `eventLoop` however many logs signal before it
    /// runs. It holds the handler weakly: a closed connection's handler goes with its channel.
    private func makeWakeup(on eventLoop: any EventLoop) -> Wakeup {
        let handler = NIOLoopBound(WeakHandler(self), eventLoop: eventLoop)
        let scheduled = DrainScheduled()
        return Wakeup {
            guard scheduled.raise() else { return }
            eventLoop.execute {
                scheduled.lower()
                guard let handler = handler.value.handler, let context = handler.context else { return }
                handler.drain(context)
            }
        }
    }

    private final class WeakHandler {
        weak var handler: EventStreamHandler?
        init(_ handler: EventStreamHandler) { self.handler = handler }
    }

    /// Whether a drain is already scheduled, raised by any thread and lowered on the loop.
    private final class DrainScheduled: Sendable {
        private let flag = Atomic(false)

        /// Raises the flag; `true` when it was down (the caller schedules the drain).
        func raise() -> Bool {
            flag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }

        func lower() {
            flag.store(false, ordering: .releasing)
        }
    }
}
