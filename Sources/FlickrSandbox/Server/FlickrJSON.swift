/// JSON exactly as Flickr writes it: keys in a fixed order, numbers or strings as each field
/// has them on Flickr, and PHP's escaping (`\/`, non-ASCII as `\uXXXX`, emoji as surrogate
/// pairs) — so clients are tested against the real thing, not a tidier cousin.
indirect enum FlickrJSON: Sendable {
    case string(String)
    case int(Int)
    case object([(String, FlickrJSON)])
    case array([FlickrJSON])

    /// `{"_content": text}`, Flickr's wrapper for text values.
    static func content(_ text: String) -> FlickrJSON { .object([("_content", .string(text))]) }

    /// The encoded text.
    var encoded: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let text):
            Self.writeString(text, to: &output)
        case .int(let value):
            output += String(value)
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x2F: output += "\\/"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x20..<0x7F: output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        output += "\""
    }
}
