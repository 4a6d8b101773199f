import NIOCore

/// One server-sent event encoded once for every connection: framed as an HTTP/1.1 chunk, which
/// a stream beneath the router (``EventStreamHandler``) writes to its socket as it is, and its
/// text without the framing, which a response the router writes sends as a body part.
///
/// The text is a view of the chunk's bytes, not a copy. Framing once per event rather than once
/// per connection takes NIO's HTTP encoder (a chunk header made for each write) off the path of
/// a change fanned out to thousands of connections.
struct EventBytes: Sendable {
    /// `<size in hex>\r\n<text>\r\n`.
    let chunk: ByteBuffer
    /// The event's text.
    let text: ByteBuffer

    /// `text` (a complete event: `event: NAME\ndata: …\n\n`, or a comment) encoded once.
    init(_ text: String) {
        let size = text.utf8.count
        let header = String(size, radix: 16) + "\r\n"
        var chunk = ByteBuffer()
        chunk.reserveCapacity(header.utf8.count + size + 2)
        chunk.writeString(header)
        let textStart = chunk.writerIndex
        chunk.writeString(text)
        chunk.writeString("\r\n")
        self.chunk = chunk
        self.text = chunk.getSlice(at: textStart, length: size) ?? ByteBuffer(string: text)
    }
}
