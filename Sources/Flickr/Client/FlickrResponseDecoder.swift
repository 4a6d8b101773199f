import Foundation

/// Turns a REST body into a value or a ``FlickrError``: unwraps `jsonFlickrApi(…)`, checks
/// `stat`, maps `stat: fail` to Flickr's code and message, and reports anything else it
/// cannot read as malformed with an excerpt of the body.
package struct FlickrResponseDecoder: Sendable {
    package var apiKey: FlickrAPIKey?

    package init(apiKey: FlickrAPIKey?) {
        self.apiKey = apiKey
    }

    private struct Status: Decodable {
        var stat: String?
        var code: Int?
        var message: String?

        private enum CodingKeys: String, CodingKey { case stat, code, message }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            stat = c.lossyString(forKey: .stat)
            code = c.lossyInt(forKey: .code)
            message = c.lossyString(forKey: .message)
        }
    }

    private struct PhotosEnvelope: Decodable {
        var photos: FlickrPhotoPage
    }

    /// The JSON inside `body`: the body itself, or the argument of a `callback(…)` wrapper.
    package static func unwrapJSONP(_ body: [UInt8]) -> [UInt8] {
        var start = body.startIndex
        var end = body.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while start < end, isSpace(body[start]) { start += 1 }
        while end > start, isSpace(body[end - 1]) { end -= 1 }
        if end > start, body[end - 1] == UInt8(ascii: ";") { end -= 1 }
        guard start < end, body[start] != UInt8(ascii: "{"), body[end - 1] == UInt8(ascii: ")"),
            let open = body[start..<end].firstIndex(of: UInt8(ascii: "("))
        else { return Array(body[start..<end]) }
        let name = body[start..<open]
        let isIdentifier = name.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x24 || $0 == 0x2E
        }
        guard isIdentifier, !name.isEmpty else { return Array(body[start..<end]) }
        return Array(body[(open + 1)..<(end - 1)])
    }

    /// Checks `stat` and returns the unwrapped JSON of a successful answer.
    /// - Throws: ``FlickrError`` of kind ``FlickrError/Kind/api`` for `stat: fail`, or
    ///   ``FlickrError/Kind/malformedResponse``.
    package func checkedJSON(_ body: [UInt8], method: String, httpStatus: Int?) throws -> [UInt8] {
        let json = Self.unwrapJSONP(body)
        guard let status = try? JSONDecoder().decode(Status.self, from: Data(json)) else {
            throw malformed(body, method: method, httpStatus: httpStatus, detail: "not JSON")
        }
        switch status.stat {
        case "ok":
            return json
        case "fail":
            throw FlickrError(
                kind: .api,
                flickrCode: status.code,
                flickrMessage: status.message,
                httpStatus: httpStatus,
                request: method,
                redacting: apiKey
            )
        default:
            throw malformed(body, method: method, httpStatus: httpStatus, detail: "no \"stat\"")
        }
    }

    /// Decodes a standard photos response (`{"photos": {…}, "stat": "ok"}`).
    package func photoPage(from body: [UInt8], method: String, httpStatus: Int? = 200) throws -> FlickrPhotoPage {
        let json = try checkedJSON(body, method: method, httpStatus: httpStatus)
        do {
            return try JSONDecoder().decode(PhotosEnvelope.self, from: Data(json)).photos
        } catch {
            throw malformed(body, method: method, httpStatus: httpStatus, detail: "no \"photos\" object")
        }
    }

    /// Decodes `flickr.test.echo`: every parameter echoed as `{"name": {"_content": "value"}}`.
    package func echo(from body: [UInt8], method: String, httpStatus: Int? = 200) throws -> [String: String] {
        let json = try checkedJSON(body, method: method, httpStatus: httpStatus)
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw malformed(body, method: method, httpStatus: httpStatus, detail: "not an object")
        }
        var result: [String: String] = [:]
        for (name, value) in object where name != "stat" {
            if let wrapped = value as? [String: Any], let content = wrapped["_content"] {
                result[name] = "\(content)"
            } else if let text = value as? String {
                result[name] = text
            }
        }
        return result
    }

    private func malformed(_ body: [UInt8], method: String, httpStatus: Int?, detail: String) -> FlickrError {
        FlickrError(
            kind: .malformedResponse,
            httpStatus: httpStatus,
            body: String(decoding: body, as: UTF8.self),
            request: method,
            detail: detail,
            redacting: apiKey
        )
    }
}
