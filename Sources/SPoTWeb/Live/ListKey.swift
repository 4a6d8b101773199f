import Foundation

/// Which live list a page shows, as it appears in URLs: `spots`, `tags/NAME`, `recents`,
/// `photographers`, `photographers/ID` or `search/TEXT`.
///
/// A photo page carries the key of the list it was opened from (`?list=tags/hoovertower`), so
/// that previous / next and "back" follow that list. Keys come from untrusted query strings:
/// ``init(parsing:)`` refuses anything else.
enum ListKey: Hashable, Sendable, CustomStringConvertible {
    case spots
    case spot(String)
    case recents
    case photographers
    case photographer(String)
    case search(String)

    /// The longest spot, photographer or search text a key may carry.
    static let maxArgumentLength = 200

    /// Parses a key from a query string value; `nil` for anything that is not a key.
    init?(parsing text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count == 2 ? parts[1] : nil
        if let argument, argument.isEmpty || argument.count > Self.maxArgumentLength { return nil }
        switch (parts[0], argument) {
        case ("spots", nil): self = .spots
        case ("recents", nil): self = .recents
        case ("photographers", nil): self = .photographers
        case ("tags", let name?): self = .spot(name)
        case ("photographers", let id?): self = .photographer(id)
        case ("search", let text?): self = .search(text)
        default: return nil
        }
    }

    /// The key as written in `?list=` (not yet percent-encoded).
    var description: String {
        switch self {
        case .spots: "spots"
        case .spot(let name): "tags/\(name)"
        case .recents: "recents"
        case .photographers: "photographers"
        case .photographer(let id): "photographers/\(id)"
        case .search(let text): "search/\(text)"
        }
    }

    /// The key percent-encoded for a query string.
    var queryValue: String { URLPath.queryComponent(description) }

    /// The page that shows the list.
    var pagePath: String {
        switch self {
        case .spots: "/"
        case .spot(let name): "/tags/" + URLPath.segment(name)
        case .recents: "/recents"
        case .photographers: "/photographers"
        case .photographer(let id): "/photographers/" + URLPath.segment(id)
        case .search(let text): "/search?q=" + URLPath.queryComponent(text)
        }
    }

    /// The `data-id` of photo `id`'s row in this list (search results prefix theirs).
    func rowID(ofPhoto id: String) -> String {
        if case .search = self { return "photo:" + id }
        return id
    }

    /// Whether the list is kept open for the server's lifetime (the tabs' lists).
    var isPinned: Bool {
        switch self {
        case .spots, .recents, .photographers: true
        case .spot, .photographer, .search: false
        }
    }
}

/// Percent-encoding for the parts of URLs the server writes into pages.
enum URLPath {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` as one path segment: everything but unreserved characters encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `text` as a query component value.
    static func queryComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
