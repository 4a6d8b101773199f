import NIOCore
import Testing

@testable import SPoTWeb

@Suite("Events framed once as HTTP/1.1 chunks")
struct EventBytesTests {
    @Test("the chunk is the text's size in hex, CRLF, the text, CRLF; the text is the event as written")
    func framing() {
        let event = EventBytes("event: change\ndata: {\"title\":\"Café ☕︎\"}\n\n")
        let text = "event: change\ndata: {\"title\":\"Café ☕︎\"}\n\n"
        #expect(String(buffer: event.text) == text)
        // The size counts UTF-8 bytes, not characters.
        #expect(String(buffer: event.chunk) == String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n")
        #expect(text.utf8.count != text.count)
    }

    @Test("an event of 4,096 bytes or more gets a size of several hex digits")
    func largeEvent() {
        let text = "data: " + String(repeating: "x", count: 70_000) + "\n\n"
        let event = EventBytes(text)
        #expect(String(buffer: event.chunk).hasPrefix("11178\r\ndata: xxx"))
        #expect(event.text.readableBytes == 70_008)
    }
}
