import NIOCore
import NIOHTTP1
import NIOPosix

/// An answer: status and body.
struct HTTPAnswer: Sendable {
    let status: Int
    let body: ByteBuffer

    var text: String { String(buffer: body) }
}

/// One keep-alive HTTP/1.1 connection on NIO, for the benchmark's own requests (the writes,
/// `/health`, `/` pages): requests go one after another, answers come back in order.
final class HTTPConnection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<AnswerCollector>
    let host: String

    private init(channel: any Channel, handler: NIOLoopBound<AnswerCollector>, host: String) {
        self.channel = channel
        self.handler = handler
        self.host = host
    }

    static func open(port: Int, on group: any EventLoopGroup) async throws -> HTTPConnection {
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(AnswerCollector())
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(try channel.pipeline.syncOperations.handler(type: AnswerCollector.self), eventLoop: channel.eventLoop)
        }.get()
        return HTTPConnection(channel: channel, handler: handler, host: "127.0.0.1:\(port)")
    }

    /// Sends one request and waits for its whole answer.
    func request(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = []) async throws -> HTTPAnswer {
        let promise = channel.eventLoop.makePromise(of: HTTPAnswer.self)
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: host)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if method == .POST { head.headers.add(name: "Content-Length", value: "0") }
        let handler = handler
        let request = head
        channel.eventLoop.execute { handler.value.send(request, answer: promise) }
        return try await promise.futureResult.get()
    }

    func close() async {
        try? await channel.close()
    }

    /// One request on a connection of its own, closed afterwards.
    static func once(
        _ method: HTTPMethod, _ path: String, port: Int, on group: any EventLoopGroup, headers: [(String, String)] = []
    ) async throws -> HTTPAnswer {
        let connection = try await open(port: port, on: group)
        do {
            let answer = try await connection.request(method, path, headers: headers)
            await connection.close()
            return answer
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// Collects each answer's head and body and completes the oldest waiting request.
private final class AnswerCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private var waiting: [EventLoopPromise<HTTPAnswer>] = []
    private var status = 0
    private var body = ByteBuffer()
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Writes a request (no body) whose answer completes `answer`.
    func send(_ head: HTTPRequestHead, answer: EventLoopPromise<HTTPAnswer>) {
        guard let context, context.channel.isActive else {
            answer.fail(HTTPConnectionClosed())
            return
        }
        waiting.append(answer)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body.clear()
        case .body(var buffer):
            body.writeBuffer(&buffer)
        case .end:
            guard !waiting.isEmpty else { return }
            waiting.removeFirst().succeed(HTTPAnswer(status: status, body: body))
            body = ByteBuffer()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(HTTPConnectionClosed())
        context.fireChannelInactive()
    }

    private func failAll(_ error: any Error) {
        let waiting = self.waiting
        self.waiting = []
        for promise in waiting { promise.fail(error) }
    }
}

struct HTTPConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the server closed the connection before answering" }
}
