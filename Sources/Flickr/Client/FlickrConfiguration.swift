public import Foundation

/// Everything a ``FlickrClient`` needs: the key, where Flickr lives, and how to behave when
/// it misbehaves.
///
/// The hosts are configurable so the sandbox can stand in for Flickr; time comes from an
/// injected `Clock` and jitter from an injected random-number generator, so tests run
/// backoff and rate limiting on a ``ManualClock`` with a seeded ``SplitMix64``.
///
/// ```swift
/// // Real Flickr, key from FLICKR_API_KEY:
/// if let configuration = FlickrConfiguration.fromEnvironment() { … }
/// // The sandbox, in tests:
/// var configuration = FlickrConfiguration.sandbox(baseURL: url)
/// configuration.clock = ManualClock()
/// ```
public struct FlickrConfiguration: Sendable, CustomStringConvertible {
    /// Flickr's REST endpoint, `https://api.flickr.com/services/rest/`.
    public static let defaultRESTEndpoint = URL(string: "https://api.flickr.com/services/rest/")!

    /// The key sent with every REST call; redacted everywhere else.
    public var apiKey: FlickrAPIKey
    /// The REST endpoint the client calls.
    public var restEndpoint: URL
    /// The base URL of image URLs, and the only host the client downloads images from.
    public var photoHost: URL
    /// How failed calls are retried.
    public var retryPolicy: FlickrRetryPolicy
    /// The client-side call limit; `nil` for none (the sandbox does not need one).
    public var rateLimit: FlickrRateLimit?
    /// How long one attempt may take, measured on ``clock``; `nil` for no limit.
    public var requestTimeout: Duration?
    /// The largest image download accepted, in bytes.
    public var maxImageBytes: Int
    /// The clock for backoff delays, rate limiting and timeouts.
    public var clock: any Clock<Duration>
    /// Makes the generator that draws backoff jitter; called once per client.
    public var makeRandomNumberGenerator: @Sendable () -> any RandomNumberGenerator

    /// Creates a configuration for real Flickr unless the endpoints say otherwise.
    public init(
        apiKey: FlickrAPIKey,
        restEndpoint: URL = FlickrConfiguration.defaultRESTEndpoint,
        photoHost: URL = FlickrPhoto.defaultPhotoHost,
        retryPolicy: FlickrRetryPolicy = .default,
        rateLimit: FlickrRateLimit? = .flickr,
        requestTimeout: Duration? = .seconds(30),
        maxImageBytes: Int = 20 * 1024 * 1024,
        clock: any Clock<Duration> = ContinuousClock(),
        makeRandomNumberGenerator: @escaping @Sendable () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() }
    ) {
        self.apiKey = apiKey
        self.restEndpoint = restEndpoint
        self.photoHost = photoHost
        self.retryPolicy = retryPolicy
        self.rateLimit = rateLimit
        self.requestTimeout = requestTimeout
        self.maxImageBytes = maxImageBytes
        self.clock = clock
        self.makeRandomNumberGenerator = makeRandomNumberGenerator
    }

    /// Real Flickr with the key from `FLICKR_API_KEY`, or `nil` when that is unset or blank
    /// (the app then falls back to the sandbox).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> FlickrConfiguration? {
        FlickrAPIKey(environment: environment).map { FlickrConfiguration(apiKey: $0) }
    }

    /// A Flickr-compatible server at `baseURL` (the sandbox): REST at
    /// `{baseURL}/services/rest/`, images at `{baseURL}/{server}/…`, no rate limit.
    public static func sandbox(baseURL: URL, apiKey: FlickrAPIKey = FlickrAPIKey("sandbox-key")) -> FlickrConfiguration {
        FlickrConfiguration(
            apiKey: apiKey,
            restEndpoint: baseURL.appendingPathComponent("services/rest/", isDirectory: true),
            photoHost: baseURL,
            rateLimit: nil
        )
    }

    /// The full REST URL for `method` with `parameters`, the key, `format=json` and
    /// `nojsoncallback=1`. Contains the key: never log it.
    public func requestURL(method: String, parameters: [String: String]) -> URL {
        var all = parameters
        all["method"] = method
        all["api_key"] = apiKey.value
        all["format"] = "json"
        all["nojsoncallback"] = "1"
        let order = ["method", "api_key"]
        let names = order + all.keys.filter { !order.contains($0) }.sorted()
        let query = names.compactMap { name in
            all[name].map { "\(Self.encode(name))=\(Self.encode($0))" }
        }.joined(separator: "&")
        var components = URLComponents(url: restEndpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = query
        return components.url!
    }

    /// The full REST URL for one page of `query`. Contains the key: never log it.
    public func requestURL(for query: FlickrPhotoQuery, page: Int = 1, perPage: Int = 100) -> URL {
        var parameters = query.parameters
        parameters["page"] = String(max(1, page))
        parameters["per_page"] = String(FlickrPhotoQuery.clampedPerPage(perPage))
        return requestURL(method: query.method, parameters: parameters)
    }

    /// The endpoints and policies, with the key redacted.
    public var description: String {
        "FlickrConfiguration(apiKey: \(apiKey), restEndpoint: \(restEndpoint.absoluteString), "
            + "photoHost: \(photoHost.absoluteString), retryPolicy: \(retryPolicy), "
            + "rateLimit: \(rateLimit.map { "\($0.requests) per \($0.interval)" } ?? "none"), "
            + "requestTimeout: \(requestTimeout.map { "\($0)" } ?? "none"), maxImageBytes: \(maxImageBytes))"
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .flickrQueryValueAllowed) ?? text
    }
}
