/// What the sandbox has been asked since it started or was last reset.
///
/// Served as JSON at `GET /__sandbox/stats`; reset by `POST /__sandbox/stats/reset` or
/// ``FlickrSandbox/resetStats()``. Admin routes are not counted.
///
/// ```json
/// {"requests": 3, "routes": {"rest flickr.photos.search": 2, "image q": 1},
///  "photos": {"40585000001": {"q": 1}}, "faults": {}}
/// ```
public struct SandboxStats: Sendable, Hashable, Codable {
    /// Requests answered, all routes together.
    public var requests: Int
    /// Requests per route: `rest <method>` for REST calls, `image <suffix>` for images
    /// (`-` for the suffix-less 500 size), `other` for anything else.
    public var routes: [String: Int]
    /// Image requests per photo id, then per size suffix — the proof that a thumbnail was
    /// fetched once.
    public var photos: [String: [String: Int]]
    /// Faults injected, by ``SandboxFault`` raw value.
    public var faults: [String: Int]

    /// Creates empty counters.
    public init(requests: Int = 0, routes: [String: Int] = [:], photos: [String: [String: Int]] = [:], faults: [String: Int] = [:]) {
        self.requests = requests
        self.routes = routes
        self.photos = photos
        self.faults = faults
    }

    /// Requests of the REST `method`, e.g. `"flickr.photos.search"`.
    public func restCalls(_ method: String) -> Int { routes["rest \(method)"] ?? 0 }

    /// Requests for photo `id` at `format` (all sizes when `nil`).
    public func imageRequests(photoID id: String, suffix: String? = nil) -> Int {
        guard let sizes = photos[id] else { return 0 }
        guard let suffix else { return sizes.values.reduce(0, +) }
        return sizes[suffix.isEmpty ? "-" : suffix] ?? 0
    }
}
