public import Foundation

/// A Flickr API key: sent with every REST call, never shown.
///
/// Its `description` and `debugDescription` are redacted, so a key that ends up in string
/// interpolation, a log line or an error message shows as `<redacted>`. Read the real value
/// only through ``value`` when building a request.
///
/// ```swift
/// let key = FlickrAPIKey(environment: ProcessInfo.processInfo.environment)  // FLICKR_API_KEY
/// print(key)  // FlickrAPIKey(<redacted>)
/// ```
public struct FlickrAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The name of the environment variable that holds the key: `FLICKR_API_KEY`.
    public static let environmentVariable = "FLICKR_API_KEY"

    /// The text that stands for the key wherever it would otherwise appear.
    public static let redactionMarker = "<redacted>"

    /// The key itself. Only request building should read it.
    public let value: String

    /// Wraps `value`; leading and trailing whitespace is removed.
    public init(_ value: String) {
        self.value = value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The key from `FLICKR_API_KEY` in `environment`, or `nil` when it is unset or blank.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let raw = environment[Self.environmentVariable] else { return nil }
        let key = FlickrAPIKey(raw)
        guard !key.value.isEmpty else { return nil }
        self = key
    }

    /// `FlickrAPIKey(<redacted>)`, whatever the key.
    public var description: String { "FlickrAPIKey(\(Self.redactionMarker))" }

    /// Same as ``description``: the key never shows in debug output either.
    public var debugDescription: String { description }

    /// A mirror without children, so `dump` and reflection do not show the key.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// `text` with every occurrence of the key (raw or percent-encoded) replaced by the marker.
    package func redact(_ text: String) -> String {
        guard value.count >= 3 else { return text }
        var result = text.replacingOccurrences(of: value, with: Self.redactionMarker)
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: .flickrQueryValueAllowed), encoded != value {
            result = result.replacingOccurrences(of: encoded, with: Self.redactionMarker)
        }
        return result
    }
}

extension CharacterSet {
    /// RFC 3986 unreserved characters: everything else in a query value is percent-encoded.
    package static let flickrQueryValueAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
