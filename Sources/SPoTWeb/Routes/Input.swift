import Foundation
import Hummingbird
import SPoTKit

/// Validation of what requests carry: every path parameter and query value is untrusted.
/// Each check throws a 400 with the reason, naming the offending parameter.
enum Input {
    /// The longest search text accepted.
    static let maxSearchLength = 200

    /// A Flickr photo id: 1 to 32 letters, digits, `_` or `-` (Flickr's are digits).
    static func photoID(_ context: BasicRequestContext, _ name: String = "id") throws -> String {
        try photoID(name: try text(context, name, what: "photo id"))
    }

    /// A photo id taken from part of a path parameter.
    static func photoID(name id: String) throws -> String {
        guard !id.isEmpty, id.count <= 32, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw WebError(.badRequest, "“\(id.prefix(40))” is not a photo id (Flickr photo ids are digits)")
        }
        return id
    }

    /// A Flickr user id (NSID), e.g. `12345678@N01`.
    static func userID(_ context: BasicRequestContext) throws -> String {
        let id = try text(context, "id", what: "photographer id")
        guard id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "@_-.".contains($0)) }) else {
            throw WebError(.badRequest, "“\(id.prefix(40))” is not a photographer id (Flickr ids look like 12345678@N01)")
        }
        return id
    }

    /// A path parameter, percent-decoded by the router, non-empty and of reasonable length
    /// (counted in Unicode scalars, as JSON Schema's `maxLength` counts).
    static func text(_ context: BasicRequestContext, _ name: String, what: String) throws -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else {
            throw WebError(.badRequest, "The \(what) is missing")
        }
        let decoded = value.removingPercentEncoding ?? value
        guard decoded.unicodeScalars.count <= ListID.maxArgumentLength, !decoded.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw WebError(.badRequest, "The \(what) is too long or contains control characters")
        }
        return decoded
    }

    /// `?q=`: the search text, whitespace collapsed; empty when absent. At most
    /// ``maxSearchLength`` Unicode scalars (JSON Schema's `maxLength`, as the API document says).
    static func searchText(_ request: Request) throws -> String {
        let raw = request.uri.queryParameters["q"].map(String.init) ?? ""
        guard raw.unicodeScalars.count <= maxSearchLength else {
            throw WebError(.badRequest, "The search text is longer than \(maxSearchLength) characters")
        }
        guard !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) else {
            throw WebError(.badRequest, "The search text contains control characters")
        }
        return raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `?list=`: the list a photo was opened from, or `nil` when absent.
    static func listID(_ request: Request) throws -> ListID? {
        guard let raw = request.uri.queryParameters["list"].map(String.init), !raw.isEmpty else { return nil }
        guard let id = ListID(address: raw) else {
            throw WebError(
                .badRequest,
                "“\(raw.prefix(60))” is not a list (expected spots, tags/NAME, recents, photographers, photographers/ID or search/TEXT)"
            )
        }
        return id
    }

    /// A same-origin path to go back to after a form post: the `Referer`'s path and query
    /// when it is this server, else `fallback`.
    static func returnPath(_ request: Request, fallback: String) -> String {
        guard let referer = request.headers[.referer], let host = request.head.authority,
            OriginCheckMiddleware<BasicRequestContext>.isSameOrigin(referer, as: host),
            let url = URL(string: referer), url.path.hasPrefix("/")
        else { return fallback }
        return url.path + (url.query.map { "?" + $0 } ?? "")
    }
}
