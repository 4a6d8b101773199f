import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client for talking to chromedriver on 127.0.0.1.
///
/// Why not `URLSession`: chromedriver writes header lines without a space after the colon
/// (`Content-Length:249`), which is valid HTTP, but FoundationNetworking up to Swift 6.3
/// rejects them and every request fails with `NSURLErrorDomain -1 "Failed writing header"`
/// (fixed upstream by swift-corelibs-foundation PR #5527 / #5529, for 6.4).
///
/// One connection per request (`Connection: close`), blocking socket I/O on a private
/// concurrent dispatch queue, bounded by `SO_RCVTIMEO` / `SO_SNDTIMEO`.
enum LoopbackHTTP {
    /// A reply: status code and body.
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    private static let queue = DispatchQueue(label: "WebDriverKit.LoopbackHTTP", attributes: .concurrent)

    /// Sends one request to `127.0.0.1:port` and returns the reply.
    static func request(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        try sendBlocking(port: port, method: method, path: path, body: body, timeout: timeout)
                    }
                )
            }
        }
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func sendBlocking(port: Int, method: String, path: String, body: Data?, timeout: TimeInterval) throws -> Response {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var limit = timeval()
        limit.tv_sec = .init(timeout.rounded(.down))
        limit.tv_usec = .init((timeout - timeout.rounded(.down)) * 1_000_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)") }

        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: application/json\r\nConnection: close\r\n"
        if let body {
            request += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
        }
        request += "\r\n"
        var bytes = Data(request.utf8)
        if let body { bytes.append(body) }
        try writeAll(fd, bytes)
        return try readResponse(fd, timeout: timeout)
    }

    private static func writeAll(_ fd: Int32, _ data: Data) throws {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)  // a closed peer must not SIGPIPE the test process
        #endif
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "send failed: errno \(errno)")
                }
                offset += sent
            }
        }
    }

    private static func readResponse(_ fd: Int32, timeout: TimeInterval) throws -> Response {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var headerEnd: Int?
        var status = 0
        var contentLength: Int?
        while true {
            if let end = headerEnd, let length = contentLength, buffer.count - end >= length { break }
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw Failure(description: "no reply within \(timeout) s")
                }
                throw Failure(description: "recv failed: errno \(errno)")
            }
            if received == 0 { break }
            buffer.append(contentsOf: chunk[0..<received])
            if headerEnd == nil, let range = buffer.range(of: Data("\r\n\r\n".utf8)) {
                headerEnd = range.upperBound
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                (status, contentLength) = try parseHead(head)
            }
        }
        guard let end = headerEnd else { throw Failure(description: "connection closed before headers") }
        var body = Data(buffer[end...])
        if let length = contentLength {
            guard body.count >= length else { throw Failure(description: "body cut short (\(body.count)/\(length) bytes)") }
            body = body.prefix(length)
        }
        return Response(status: status, body: body)
    }

    /// Parses the status line and `Content-Length` (with or without a space after the colon).
    private static func parseHead(_ head: String) throws -> (status: Int, contentLength: Int?) {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines.first ?? "")")
        }
        var contentLength: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { contentLength = Int(value) }
            if name == "transfer-encoding" && value.lowercased() != "identity" {
                throw Failure(description: "unsupported Transfer-Encoding: \(value)")
            }
        }
        return (status, contentLength)
    }
}
