import Foundation

/// Which list a screen shows: the one definition of SPoT's lists, by SPoTKit, the web pages and
/// the CLI alike.
///
/// A list is addressed as `spots`, `tags/NAME`, `recents`, `photographers`,
/// `photographers/ID` or `search/TEXT` (``address``); ``SPoTStore/list(_:)`` opens one, resolving
/// its spot or photographer once, and the opened list carries its ``ListInfo`` (title, back
/// link, empty text). A new kind of list is one case here, its address, and its opening in
/// ``SPoTStore/list(_:)`` (and its page path in SPoTWeb).
public enum ListID: Hashable, Sendable {
    /// The spots, "All" first.
    case spots
    /// One spot's photos, by the spot's address (see ``SPoTStore/spot(_:)``).
    case spot(String)
    /// Recently viewed photos.
    case recents
    /// The photographers.
    case photographers
    /// One photographer's photos, by Flickr user id.
    case photographer(String)
    /// Spots and photos matching a text.
    case search(String)

    /// The longest spot, photographer or search text an address may carry.
    public static let maxArgumentLength = 200

    /// The lists that have a tab, in the tabs' order.
    public static let tabs: [ListID] = [.spots, .recents, .photographers]

    /// Parses an address (see ``address``); `nil` for anything that is not one. Addresses come
    /// from untrusted query strings: nothing else is accepted.
    public init?(address text: String) {
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

    /// How the list is written in a `?list=` query value (before percent-encoding), e.g.
    /// `tags/hoovertower`.
    public var address: String {
        switch self {
        case .spots: "spots"
        case .spot(let name): "tags/\(name)"
        case .recents: "recents"
        case .photographers: "photographers"
        case .photographer(let id): "photographers/\(id)"
        case .search(let text): "search/\(text)"
        }
    }

    /// What kind of screen it is, for styles and scripts: `spots`, `photos`, `recents`,
    /// `photographers`, `photographer` or `search`.
    public var kind: String {
        switch self {
        case .spots: "spots"
        case .spot: "photos"
        case .recents: "recents"
        case .photographers: "photographers"
        case .photographer: "photographer"
        case .search: "search"
        }
    }

    /// The tab the list belongs to (itself for the tabs' lists); `nil` for search.
    public var tab: ListID? {
        switch self {
        case .spots, .spot: .spots
        case .recents: .recents
        case .photographers, .photographer: .photographers
        case .search: nil
        }
    }

    /// The title of a tab's list ("Spots", "Recents", "Photographers"); `nil` for other lists.
    public var tabTitle: String? {
        switch self {
        case .spots: "Spots"
        case .recents: "Recents"
        case .photographers: "Photographers"
        case .spot, .photographer, .search: nil
        }
    }

    /// Whether a server keeps the list open for its lifetime (the tabs' lists); others may be
    /// closed when nobody shows them.
    public var isPinned: Bool { tab == self }

    /// The row id of photo `id` in this list (search results prefix theirs with `photo:`).
    public func rowID(ofPhoto id: String) -> String {
        if case .search = self { return "photo:" + id }
        return id
    }

    /// `text` with everything but unreserved characters percent-encoded: one path segment or
    /// query value.
    public static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// What a screen shows around an opened list: its title, where "back" goes, what an empty list
/// says.
public struct ListInfo: Sendable, Hashable {
    /// The list, with its spot named by its canonical address (`tags/HooverTower` opens
    /// `tags/hoovertower`), so that every screen of one list shares it.
    public var id: ListID
    /// The title, e.g. "Hoovertower" or "“hoover”" (untrusted text: escape it).
    public var title: String
    /// The tab's list "back" leads to (its title is ``ListID/tabTitle``); `nil` for the tabs' lists.
    public var back: ListID?
    /// What the screen says while the list is empty.
    public var emptyText: String
}
