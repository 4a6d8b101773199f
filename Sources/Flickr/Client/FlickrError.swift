/// Why a Flickr call failed, with what a reader needs to understand it.
///
/// Compare ``kind`` to tell failures apart; Flickr's own ``flickrCode`` and ``flickrMessage``,
/// the ``httpStatus`` and a short ``bodyExcerpt`` are kept when known. The API key is
/// redacted from every string an error holds, including its `description`.
///
/// ```swift
/// do { _ = try await client.photos(.stanfordSpots()) }
/// catch let error as FlickrError where error.kind == .api && error.flickrCode == 100 {
///     print("Bad FLICKR_API_KEY: \(error)")
/// }
/// ```
public struct FlickrError: Error, Sendable, CustomStringConvertible {
    /// The family of a ``FlickrError``. New kinds may be added; switch with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case api, httpStatus, timeout, connection, malformedResponse
            case unexpectedContentType, tooLarge, truncatedImage, formatUnavailable, hostNotAllowed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Flickr answered `"stat": "fail"`: see ``FlickrError/flickrCode`` (100 invalid key,
        /// 105 service unavailable, 111 unknown format, 112 unknown method, …).
        public static var api: Self { .init(.api) }
        /// The server answered with an HTTP status other than 2xx.
        public static var httpStatus: Self { .init(.httpStatus) }
        /// No complete answer arrived within the configured request timeout.
        public static var timeout: Self { .init(.timeout) }
        /// The connection failed or was dropped before a complete answer arrived.
        public static var connection: Self { .init(.connection) }
        /// The body was not the JSON Flickr sends (see ``FlickrError/bodyExcerpt``).
        public static var malformedResponse: Self { .init(.malformedResponse) }
        /// An image download returned something other than an image.
        public static var unexpectedContentType: Self { .init(.unexpectedContentType) }
        /// An image download was larger than the configured cap; it was not read to the end.
        public static var tooLarge: Self { .init(.tooLarge) }
        /// An image download ended before the image did (a JPEG without its end marker).
        public static var truncatedImage: Self { .init(.truncatedImage) }
        /// The photo lacks the secret this size needs, so it has no URL.
        public static var formatUnavailable: Self { .init(.formatUnavailable) }
        /// The URL is not on the configured photo host; the client fetches from nowhere else.
        public static var hostNotAllowed: Self { .init(.hostNotAllowed) }

        /// The kind's name, e.g. `api` or `timeout`.
        public var description: String { base.rawValue }
    }

    /// The family of the failure.
    public let kind: Kind
    /// Flickr's error code for ``Kind/api`` failures, e.g. 100 or 105.
    public let flickrCode: Int?
    /// Flickr's error message for ``Kind/api`` failures.
    public let flickrMessage: String?
    /// The HTTP status of the answer, when there was one.
    public let httpStatus: Int?
    /// The start of the body (at most ``excerptLimit`` characters), API key redacted.
    public let bodyExcerpt: String?
    /// The Flickr method (e.g. `flickr.photos.search`) or, for downloads, the image path.
    public let request: String?
    /// What went wrong below this layer (a transport error's description), API key redacted.
    public let detail: String?
    /// How many attempts were made before giving up (1 when nothing was retried).
    public internal(set) var attempts: Int

    /// The longest ``bodyExcerpt`` kept.
    public static let excerptLimit = 200

    package init(
        kind: Kind,
        flickrCode: Int? = nil,
        flickrMessage: String? = nil,
        httpStatus: Int? = nil,
        body: String? = nil,
        request: String? = nil,
        detail: String? = nil,
        attempts: Int = 1,
        redacting key: FlickrAPIKey?
    ) {
        func clean(_ text: String?) -> String? { text.map { key?.redact($0) ?? $0 } }
        self.kind = kind
        self.flickrCode = flickrCode
        self.flickrMessage = clean(flickrMessage)
        self.httpStatus = httpStatus
        self.bodyExcerpt = clean(body.map { String($0.prefix(Self.excerptLimit)) })
        self.request = clean(request)
        self.detail = clean(detail)
        self.attempts = attempts
    }

    /// Whether trying again later may succeed: HTTP 5xx, timeouts, dropped connections,
    /// truncated images and Flickr's code 105 (service unavailable). The client retries
    /// these, up to its policy.
    public var isRetryable: Bool {
        switch kind {
        case .timeout, .connection, .truncatedImage: true
        case .httpStatus: (httpStatus ?? 0) >= 500
        case .api: flickrCode == 105
        default: false
        }
    }

    /// One line: kind, Flickr code and message, status, request, attempts and excerpt.
    public var description: String {
        var parts = ["FlickrError.\(kind)"]
        if let flickrCode { parts.append("code \(flickrCode)") }
        if let flickrMessage { parts.append("\"\(flickrMessage)\"") }
        if let httpStatus { parts.append("HTTP \(httpStatus)") }
        if let request { parts.append("in \(request)") }
        if let detail { parts.append("(\(detail))") }
        if attempts > 1 { parts.append("after \(attempts) attempts") }
        if let bodyExcerpt { parts.append("body: \(bodyExcerpt.debugDescription)") }
        return parts.joined(separator: " ")
    }
}
