import Foundation
import Mustache
import SPoTKit

/// What `row-photo.mustache` shows: a thumbnail, the title and the subtitle, linking to the
/// photo page within the list it belongs to.
struct PhotoRowView {
    let id: String
    let href: String
    let thumbnail: String
    let title: String
    let subtitle: String
    /// Whether it is the photo shown beside the list (`aria-current`).
    let current: Bool
}

/// What `row-count.mustache` shows: a name and a count of photos, linking to a list.
struct CountRowView {
    let kind: String
    let id: String
    let href: String
    let name: String
    let countText: String
}

// Rows are rendered per row and again whenever a row changes (an import changes every spot's
// count): naming the fields spares the template engine a `Mirror` of each view per variable,
// which was most of a list's rendering time.
extension PhotoRowView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "href": self.href
        case "thumbnail": self.thumbnail
        case "title": self.title
        case "subtitle": self.subtitle
        case "current": self.current
        default: nil
        }
    }
}

extension CountRowView: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "kind": self.kind
        case "id": self.id
        case "href": self.href
        case "name": self.name
        case "countText": self.countText
        default: nil
        }
    }
}

extension PageRenderer {
    /// The HTML of a row with id `id` (its `data-id`) showing `content` in list `list`;
    /// `current` marks the photo shown beside the list.
    func rowHTML(id: String, _ content: RowContent, in list: ListID, current: Bool = false) -> String {
        switch content {
        case .list(let target, let name, let count):
            let view = CountRowView(
                kind: target.kind,
                id: id,
                href: target.pagePath,
                name: name,
                countText: count == 1 ? "1 photo" : "\(count) photos"
            )
            return render(view, .rowCount)
        case .photo(let photo):
            let view = PhotoRowView(
                id: id,
                href: Links.photo(photo.id, in: list),
                thumbnail: Links.thumbnail(photo.id),
                title: photo.title,
                subtitle: photo.subtitle,
                current: current
            )
            return render(view, .rowPhoto)
        }
    }

    /// A section as `section.mustache` wraps it: the header (none for an unnamed section)
    /// and the rows.
    func sectionHTML(name: String, indexTitle: String, rowsHTML: String) -> String {
        let anchor = Self.anchor(forSection: name)
        let header = name.isEmpty ? "" : render(["name": name, "anchor": anchor], .sectionHeader)
        return render(["name": name, "indexTitle": indexTitle, "anchor": anchor, "headerHTML": header, "rowsHTML": rowsHTML], .section)
    }

    /// An element id for a section header: `section-` and the name with every character
    /// outside `A-Z a-z 0-9` written as `_` and its UTF-8 bytes in hex, so names never clash.
    /// (`app.js` computes the same for sections that arrive in events.)
    static func anchor(forSection name: String) -> String {
        var anchor = "section-"
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                anchor.append(Character(Unicode.Scalar(byte)))
            default:
                anchor += "_" + String(byte, radix: 16, uppercase: true)
            }
        }
        return anchor
    }
}

/// The app's URLs, in one place.
enum Links {
    static func photo(_ id: String, in list: ListID?) -> String {
        let path = "/photos/" + URLPath.segment(id)
        guard let list else { return path }
        return path + "?list=" + URLPath.queryComponent(list.address)
    }

    static func thumbnail(_ id: String) -> String { "/thumbnails/" + URLPath.segment(id) + ".jpg" }
    static func large(_ id: String) -> String { "/images/" + URLPath.segment(id) + "/large.jpg" }
    static func original(_ id: String) -> String { "/images/" + URLPath.segment(id) + "/original.jpg" }
    static func hide(_ id: String) -> String { "/photos/" + URLPath.segment(id) + "/hide" }
    static func unhide(_ id: String) -> String { "/photos/" + URLPath.segment(id) + "/unhide" }
    static func events(_ list: ListID?) -> String { "/events?list=" + (list.map { URLPath.queryComponent($0.address) } ?? "status") }
}

/// Percent-encoding for the parts of URLs the server writes into pages.
enum URLPath {
    /// `text` as one path segment: everything but unreserved characters encoded.
    static func segment(_ text: String) -> String { ListID.percentEncoded(text) }

    /// `text` as a query component value.
    static func queryComponent(_ text: String) -> String { ListID.percentEncoded(text) }
}
