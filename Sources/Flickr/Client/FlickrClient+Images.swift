public import Foundation

extension FlickrClient {
    /// Downloads `photo` at `format` from the configured photo host.
    ///
    /// Not rate limited (images are not API calls) but retried like API calls. The answer
    /// must be an image (`Content-Type: image/…`), no larger than
    /// ``FlickrConfiguration/maxImageBytes``, and a JPEG must be complete.
    /// - Throws: ``FlickrError`` — ``FlickrError/Kind/formatUnavailable`` when the photo has no
    ///   URL at that size, ``FlickrError/Kind/httpStatus`` (404 for an unknown photo),
    ///   ``FlickrError/Kind/unexpectedContentType``, ``FlickrError/Kind/tooLarge``,
    ///   ``FlickrError/Kind/truncatedImage``, timeouts and connection failures.
    public func imageData(for photo: FlickrPhoto, format: FlickrPhotoFormat) async throws -> [UInt8] {
        guard let url = url(for: photo, format: format) else {
            throw FlickrError(
                kind: .formatUnavailable,
                request: "photo \(photo.id) size \(format.suffix.isEmpty ? "-" : format.suffix)",
                detail: "the photo lacks the secret this size needs",
                redacting: configuration.apiKey
            )
        }
        return try await imageData(at: url)
    }

    /// Downloads the image at `url`, which must be on the configured photo host (same
    /// scheme, host and port): the client fetches images from nowhere else.
    /// - Throws: ``FlickrError`` (``FlickrError/Kind/hostNotAllowed`` for another host).
    public func imageData(at url: URL) async throws -> [UInt8] {
        let host = configuration.photoHost
        let label = url.path
        guard url.scheme?.lowercased() == host.scheme?.lowercased(), url.host?.lowercased() == host.host?.lowercased(),
            url.port == host.port
        else {
            throw FlickrError(kind: .hostNotAllowed, request: label, detail: "not \(host.absoluteString)", redacting: configuration.apiKey)
        }
        return try await withRetries(request: label, page: nil) {
            let response = try await send(url: url, request: label, maxBytes: configuration.maxImageBytes, expectImage: true)
            guard response.status == 200 else {
                throw FlickrError(
                    kind: .httpStatus,
                    httpStatus: response.status,
                    body: String(decoding: response.body, as: UTF8.self),
                    request: label,
                    redacting: configuration.apiKey
                )
            }
            if response.contentType?.lowercased().hasPrefix("image/jpeg") == true, !Self.isCompleteJPEG(response.body) {
                throw FlickrError(
                    kind: .truncatedImage,
                    httpStatus: response.status,
                    request: label,
                    detail: "\(response.body.count) bytes without the JPEG end marker",
                    redacting: configuration.apiKey
                )
            }
            return response.body
        }
    }

    /// Whether `bytes` starts with a JPEG's start-of-image marker and ends with its
    /// end-of-image marker.
    static func isCompleteJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
    }
}
