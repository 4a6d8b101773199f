import SPoTKit

extension ListID {
    /// The path of the page that shows the list, percent-encoded.
    var pagePath: String {
        switch self {
        case .spots: "/"
        case .spot(let name): "/tags/" + Self.percentEncoded(name)
        case .recents: "/recents"
        case .photographers: "/photographers"
        case .photographer(let id): "/photographers/" + Self.percentEncoded(id)
        case .search(let text): "/search?q=" + Self.percentEncoded(text)
        }
    }
}
