import Foundation
import NIOCore
import ObjectGraph

/// COPY's text format, written straight into a buffer's memory: one bound check per row
/// instead of a ByteBuffer call (and its capacity and exclusivity checks) per byte or field.
///
/// A field is `\N` for NULL; text with backslash, tab, newline and carriage return escaped;
/// bytes as `\\x` and hex (bytea's hex input, its backslash escaped); doubles in Swift's
/// shortest form that reads back to the same bits.
struct CopyText {
    /// Where the next byte goes.
    private var next: UnsafeMutablePointer<UInt8>
    private let start: UnsafeMutablePointer<UInt8>

    /// A writer at the start of `memory`, which must hold what the caller writes (see
    /// ``bound(_:)-swift.type.method``).
    init(_ memory: UnsafeMutableRawBufferPointer) {
        start = memory.baseAddress!.assumingMemoryBound(to: UInt8.self)
        next = start
    }

    /// Bytes written so far.
    var count: Int { next - start }

    /// The most bytes `value` takes as a field; `nil` for a decimal, whose text is not known
    /// without making it.
    static func bound(_ value: SQLValue) -> Int? {
        switch value {
        case .null: 2
        case .integer: 20
        case .real: 32  // Swift's shortest form is at most 24: "-2.2250738585072014e-308"
        case .text(let text): text.utf8.count * 2
        case .blob(let data): 3 + data.count * 2
        case .decimal: nil
        }
    }

    /// The most bytes `value`'s storage form (``Value/sqlValue``) takes as a field; `nil` when
    /// that form is costly to make twice (a URL's text) or has no bound (a decimal).
    static func bound(_ value: Value) -> Int? {
        switch value {
        case .null, .array: 2
        case .bool, .int, .objectID: 20
        case .double, .date: 32
        case .string(let text): text.utf8.count * 2
        case .data(let data): 3 + data.count * 2
        case .uuid: 3 + 32
        case .decimal, .url: nil
        }
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        next.pointee = byte
        next += 1
    }

    mutating func tab() { byte(UInt8(ascii: "\t")) }

    /// Writes `value`, whose ``bound(_:)-swift.type.method`` must not be `nil`.
    mutating func field(_ value: SQLValue) {
        switch value {
        case .null:
            null()
        case .integer(let integer):
            self.integer(integer)
        case .real(let double):
            // As the bound value: NaN is stored as NULL.
            if double.isNaN {
                null()
            } else if double.isInfinite {
                ascii(double < 0 ? "-Infinity" : "Infinity")
            } else {
                ascii(double.description)
            }
        case .text(let text):
            self.text(text)
        case .blob(let data):
            ascii(#"\\x"#)
            hex(data)
        case .decimal(let decimal):
            preconditionFailure("CopyText: a decimal (\(decimal)) has no bound; write it with ByteBuffer.writeCopyField")
        }
    }

    mutating func null() {
        byte(UInt8(ascii: "\\"))
        byte(UInt8(ascii: "N"))
    }

    /// Writes `value` in decimal digits.
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        next += digits
        var position = next
        repeat {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
            magnitude /= 10
        } while magnitude > 0
    }

    /// Writes `text` with COPY's four special bytes escaped; text without them (nearly all) in
    /// one copy.
    mutating func text(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.contains(where: Self.isSpecial) else {
                if let base = bytes.baseAddress { next.update(from: base, count: bytes.count) }
                next += bytes.count
                return
            }
            for byte in bytes { escaped(byte) }
        }
        if written == nil {
            for byte in text.utf8 { escaped(byte) }
        }
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func escaped(_ byte: UInt8) {
        switch byte {
        case 0x5C: ascii(#"\\"#)
        case 0x09: ascii(#"\t"#)
        case 0x0A: ascii(#"\n"#)
        case 0x0D: ascii(#"\r"#)
        default: self.byte(byte)
        }
    }

    /// Writes `data` as lowercase hex digits.
    private mutating func hex(_ data: Data) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for byte in data {
                self.byte(digits[Int(byte >> 4)])
                self.byte(digits[Int(byte & 0x0F)])
            }
        }
    }

    /// Writes `ascii`'s bytes (short, known text).
    private mutating func ascii(_ ascii: String) {
        for byte in ascii.utf8 { self.byte(byte) }
    }
}

extension ByteBuffer {
    /// Writes one row's fields, tab-separated, as `fields` passes them to its argument: in one
    /// pass over the buffer's memory when `bound` (the most bytes they take, tabs included) is
    /// known, else field by field.
    @inline(__always)
    mutating func writeCopyRow(bound: Int?, _ fields: (_ write: (SQLValue) -> Void) -> Void) {
        var first = true
        guard let bound else {
            fields { value in
                if !first { self.writeInteger(UInt8(ascii: "\t")) }
                first = false
                self.writeCopyField(value)
            }
            return
        }
        writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { memory in
            var text = CopyText(memory)
            fields { value in
                if !first { text.tab() }
                first = false
                text.field(value)
            }
            return text.count
        }
    }

    /// Writes `value` as one field of COPY's text format (see ``CopyText``).
    mutating func writeCopyField(_ value: SQLValue) {
        guard let bound = CopyText.bound(value) else {
            // A decimal: its text, made once.
            guard case .decimal(let decimal) = value, !decimal.isNaN else {
                writeStaticString(#"\N"#)
                return
            }
            writeString(decimal.description)
            return
        }
        writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { memory in
            var text = CopyText(memory)
            text.field(value)
            return text.count
        }
    }
}
