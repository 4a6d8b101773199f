import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif

/// One EventSource connection, as a browser's: `GET /events?list=…`, then the `text/event-stream`
/// body read event by event. Reports to a ``StreamLog``; completes `snapshotReceived` at the
/// first `snapshot` event (fails it if the stream ends or errs first).
///
/// Only the event's name, and the first `"version":` in its data, are read: the rows' HTML is
/// skipped, so a client thread keeps up with thousands of connections.
final class EventStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// When the client drops the connection by itself (the churn scenario).
    enum Drop {
        case never
        /// At the response's head, before the snapshot.
        case atHead
        /// Once the snapshot arrived, after `nanoseconds`.
        case afterSnapshot(nanoseconds: Int64)
    }

    let index: Int32
    let list: Int32
    let path: String
    let host: String
    let log: StreamLog
    let drop: Drop
    /// Drop with a TCP reset (SO_LINGER 0) rather than a FIN: a browser killed, a network gone.
    let reset: Bool
    let snapshotReceived: EventLoopPromise<Void>

    private var pending: [UInt8] = []
    /// Where the search for the end of the pending event resumes.
    private var scanned = 0
    private var lastVersion = -1
    private var closingOnPurpose = false
    /// `snapshotReceived` was completed (it is completed once).
    private var settled = false

    init(
        index: Int32, list: Int32, path: String, host: String, log: StreamLog, drop: Drop = .never, reset: Bool = false,
        snapshotReceived: EventLoopPromise<Void>
    ) {
        self.index = index
        self.list = list
        self.path = path
        self.host = host
        self.log = log
        self.drop = drop
        self.reset = reset
        self.snapshotReceived = snapshotReceived
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "Accept", value: "text/event-stream")
        head.headers.add(name: "Cache-Control", value: "no-cache")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.status == .ok else {
                log.failed("HTTP \(head.status.code) on \(path)")
                settle(StreamFailure.status(Int(head.status.code)))
                close(context: context)
                return
            }
            log.connected()
            if case .atHead = drop { close(context: context) }
        case .body(let buffer):
            log.received(bytes: buffer.readableBytes)
            pending.append(contentsOf: buffer.readableBytesView)
            readEvents(context: context)
        case .end:
            if !closingOnPurpose { log.endedByServer() }
            closingOnPurpose = true
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !closingOnPurpose { log.endedByServer() }
        settle(StreamFailure.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !closingOnPurpose { log.failed("\(type(of: error)): \(error)") }
        settle(error)
        closingOnPurpose = true
        context.close(promise: nil)
    }

    /// Closes the connection on the client's behalf (on the channel's event loop).
    func close(context: ChannelHandlerContext) {
        guard !closingOnPurpose else { return }
        closingOnPurpose = true
        log.dropped()
        if reset, let provider = context.channel as? any SocketOptionProvider {
            // A reset leaves no TIME_WAIT behind, as a killed browser's connection.
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in loopBound.value.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    /// Completes `snapshotReceived` with `error`, or with success when it is `nil`, once.
    private func settle(_ error: (any Error)?) {
        guard !settled else { return }
        settled = true
        if let error { snapshotReceived.fail(error) } else { snapshotReceived.succeed() }
    }

    /// Reads every complete event (ended by a blank line) out of `pending`.
    private func readEvents(context: ChannelHandlerContext) {
        var start = 0
        var index = max(scanned, 1)
        let count = pending.count
        var completed = false
        while index < count {
            if pending[index] == 10, pending[index - 1] == 10 {
                event(pending[start..<(index - 1)], context: context)
                start = index + 1
                index = start + 1
                completed = true
                if closingOnPurpose { return }
            } else {
                index += 1
            }
        }
        if completed {
            pending.removeSubrange(0..<start)
        }
        scanned = max(pending.count - 1, 0)
    }

    private func event(_ bytes: ArraySlice<UInt8>, context: ChannelHandlerContext) {
        // "event: NAME\ndata: JSON" or ": comment".
        guard let first = bytes.first else { return }
        if first == UInt8(ascii: ":") {
            log.keepAlive()
            return
        }
        guard bytes.starts(with: Self.eventPrefix) else { return }
        let nameStart = bytes.startIndex + Self.eventPrefix.count
        let nameEnd = bytes[nameStart...].firstIndex(of: 10) ?? bytes.endIndex
        let name = bytes[nameStart..<nameEnd]
        if name.elementsEqual(Self.snapshotName) {
            lastVersion = Self.version(in: bytes[nameEnd...]) ?? lastVersion
            log.snapshot()
            settle(nil)
            if case .afterSnapshot(let nanoseconds) = drop {
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                    let (handler, context) = loopBound.value
                    handler.close(context: context)
                }
            }
        } else if name.elementsEqual(Self.changeName) {
            let at = now()
            let version = Self.version(in: bytes[nameEnd...]) ?? -1
            log.change(.init(connection: index, list: list, version: version, at: at), inOrder: version > lastVersion)
            lastVersion = max(lastVersion, version)
        }
    }

    private static let eventPrefix = Array("event: ".utf8)
    private static let snapshotName = Array("snapshot".utf8)
    private static let changeName = Array("change".utf8)
    private static let versionKey = Array("\"version\":".utf8)

    /// The number after the first `"version":` in `bytes`.
    static func version(in bytes: ArraySlice<UInt8>) -> Int? {
        let key = versionKey
        var index = bytes.startIndex
        let end = bytes.endIndex - key.count
        while index <= end {
            if bytes[index] == key[0], bytes[index..<(index + key.count)].elementsEqual(key) {
                var cursor = index + key.count
                while cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                var value = 0
                var digits = 0
                while cursor < bytes.endIndex, (48...57).contains(bytes[cursor]) {
                    value = value * 10 + Int(bytes[cursor] - 48)
                    cursor += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            index += 1
        }
        return nil
    }
}

enum StreamFailure: Error, CustomStringConvertible {
    case status(Int)
    case closed

    var description: String {
        switch self {
        case .status(let code): "HTTP \(code)"
        case .closed: "the stream closed before its snapshot"
        }
    }
}
