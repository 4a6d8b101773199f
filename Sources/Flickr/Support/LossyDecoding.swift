/// Decoding helpers for Flickr's loosely typed JSON: numbers that arrive as strings and
/// strings that arrive as numbers, depending on the field and the year of the endpoint.
extension KeyedDecodingContainer {
    /// An integer given as a JSON number (`3`, `3.0`) or a string (`"3"`); `nil` if absent,
    /// `null`, empty, or not a number.
    package func lossyInt(forKey key: Key) -> Int? {
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Double.self, forKey: key), value.isFinite { return Int(value) }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            let trimmed = text.trimmingWhitespace
            return Int(trimmed) ?? Double(trimmed).flatMap { $0.isFinite ? Int($0) : nil }
        }
        return nil
    }

    /// A floating-point number given as a JSON number or a string; `nil` if absent or invalid.
    package func lossyDouble(forKey key: Key) -> Double? {
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return Double(text.trimmingWhitespace) }
        return nil
    }

    /// A string given as a JSON string or number (`12345` becomes `"12345"`); `nil` if absent.
    package func lossyString(forKey key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return String(value) }
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return String(value) }
        return nil
    }

    /// Flickr's `{"_content": "…"}` wrapper (or a bare string); `nil` if absent.
    package func contentString(forKey key: Key) -> String? {
        if let wrapped = try? decodeIfPresent(FlickrContent.self, forKey: key) { return wrapped.content }
        return lossyString(forKey: key)
    }
}

/// Flickr's wrapper for text values in JSON: `{"_content": "…"}`.
package struct FlickrContent: Decodable, Sendable {
    package var content: String

    private enum CodingKeys: String, CodingKey { case content = "_content" }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let content = container.lossyString(forKey: .content) else {
            throw DecodingError.keyNotFound(
                CodingKeys.content,
                .init(codingPath: decoder.codingPath, debugDescription: "no _content")
            )
        }
        self.content = content
    }
}

extension String {
    package var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
