/// A way the sandbox can fail a request on purpose.
public enum SandboxFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// Answer HTTP 500 with a short HTML error page.
    case http500
    /// Answer HTTP 503 with a short HTML error page.
    case http503
    /// Answer HTTP 200 with `{"stat":"fail","code":105,"message":"Service currently unavailable"}`.
    case serviceUnavailable
    /// Answer HTTP 200 with a body cut off in the middle of its JSON.
    case malformedJSON
    /// Send an image's headers, then close the connection without the body.
    case dropConnection
    /// Answer an image request with only the first half of the JPEG (a complete HTTP answer
    /// whose image lacks its end).
    case truncatedImage

    /// Whether the fault can happen to a REST call (`/services/rest/`).
    public var appliesToREST: Bool { self != .truncatedImage }

    /// Whether the fault can happen to an image request.
    public var appliesToImages: Bool {
        switch self {
        case .http500, .http503, .dropConnection, .truncatedImage: true
        case .serviceUnavailable, .malformedJSON: false
        }
    }
}
