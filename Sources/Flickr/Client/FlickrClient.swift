public import Foundation
public import Logging

/// Speaks Flickr's REST protocol: searches with paging, `flickr.test.echo`, image downloads.
///
/// Every call is rate limited (when the configuration has a limit), timed out on the
/// configuration's clock, and retried with backoff when the failure is transient; failures
/// are ``FlickrError``s. The same client talks to real Flickr or to the sandbox: only the
/// ``FlickrConfiguration`` differs. The API key never reaches a log line or an error.
///
/// ```swift
/// let client = FlickrClient(configuration: .sandbox(baseURL: sandboxURL))
/// for try await page in client.pages(of: .stanfordSpots(), perPage: 100) {
///     print(page.page, "of", page.pages, page.photos.map(\.title))
/// }
/// let thumbnail = try await client.imageData(for: photo, format: .square150)
/// ```
public actor FlickrClient {
    /// How this client reaches Flickr and behaves when Flickr misbehaves.
    public nonisolated let configuration: FlickrConfiguration

    let session: FlickrHTTPSession
    let logger: Logger
    let clock: ClockBox
    let rateLimiter: RateLimiter?
    let decoder: FlickrResponseDecoder
    var randomNumberGenerator: any RandomNumberGenerator

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: key, endpoints, retries, rate limit, clock.
    ///   - logger: where requests, retries and failures are logged (never with the key).
    ///
    /// Requests go through Foundation's `URLSession` (libcurl on Linux), one session for the
    /// process. Like `curl`, it honours the `http_proxy`, `https_proxy` and `no_proxy`
    /// environment variables, for loopback too: with `http_proxy` set, the built-in sandbox
    /// (127.0.0.1) is reached only if `no_proxy` lists it.
    public init(
        configuration: FlickrConfiguration,
        logger: Logger = Logger(label: "spot.flickr")
    ) {
        self.configuration = configuration
        self.session = .shared
        self.logger = logger
        self.clock = ClockBox(configuration.clock)
        self.rateLimiter = configuration.rateLimit.map { RateLimiter(limit: $0, clock: ClockBox(configuration.clock)) }
        self.decoder = FlickrResponseDecoder(apiKey: configuration.apiKey)
        self.randomNumberGenerator = configuration.makeRandomNumberGenerator()
    }

    /// One page of `query`.
    /// - Parameters:
    ///   - page: the page number, from 1.
    ///   - perPage: the page size, clamped to 1...500.
    /// - Throws: ``FlickrError``.
    public func photos(_ query: FlickrPhotoQuery, page: Int = 1, perPage: Int = 100) async throws -> FlickrPhotoPage {
        let url = configuration.requestURL(for: query, page: page, perPage: perPage)
        // The decoder checks `stat` once, inside the retry loop (so code 105 is retried).
        return try await callREST(url: url, method: query.method, page: page) { [decoder] body in
            try decoder.photoPage(from: body, method: query.method)
        }
    }

    /// Every page of `query`, fetched one after another as the sequence is iterated, from
    /// page 1 until the `pages` Flickr reported (or an empty page).
    public nonisolated func pages(of query: FlickrPhotoQuery, perPage: Int = 100) -> FlickrPhotoPages {
        FlickrPhotoPages(client: self, query: query, perPage: perPage)
    }

    /// All photos of `query`, every page followed to the end, in server order; a photo that
    /// shows up on two pages (the list moved while paging) is kept once, where first seen.
    /// - Throws: ``FlickrError`` from any page.
    public func allPhotos(_ query: FlickrPhotoQuery, perPage: Int = 100) async throws -> [FlickrPhoto] {
        var seen: Set<String> = []
        var photos: [FlickrPhoto] = []
        for try await page in pages(of: query, perPage: perPage) {
            for photo in page.photos where seen.insert(photo.id).inserted {
                photos.append(photo)
            }
        }
        return photos
    }

    /// Calls `flickr.test.echo`: Flickr answers with every parameter it received.
    /// - Returns: the echoed parameters by name (including `method`, `format`, `api_key`).
    /// - Throws: ``FlickrError``.
    public func echo(_ parameters: [String: String] = [:]) async throws -> [String: String] {
        let method = "flickr.test.echo"
        let url = configuration.requestURL(method: method, parameters: parameters)
        return try await callREST(url: url, method: method, page: nil) { [decoder] body in
            try decoder.echo(from: body, method: method)
        }
    }

    /// The URL of `photo` at `format` on the configured photo host, or `nil` when the photo
    /// lacks the secret the format needs.
    public nonisolated func url(for photo: FlickrPhoto, format: FlickrPhotoFormat) -> URL? {
        photo.url(for: format, host: configuration.photoHost)
    }
}
