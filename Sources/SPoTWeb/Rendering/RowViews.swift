import Foundation
import SPoTKit

/// What `row-photo.mustache` shows: a thumbnail, the title and the subtitle, linking to the
/// photo page within the list it belongs to.
struct PhotoRowView {
    let id: String
    let href: String
    let thumbnail: String
    let title: String
    let subtitle: String

    /// - Parameter domID: the row's `data-id` when it differs from the photo's id (search
    ///   results, where spots and photos share one list).
    init(_ row: PhotoRow, in list: ListKey, domID: String? = nil) {
        id = domID ?? row.id
        href = Links.photo(row.id, in: list)
        thumbnail = Links.thumbnail(row.id)
        title = row.title
        subtitle = row.subtitle
    }
}

/// What `row-count.mustache` shows: a name and a count of photos, linking to a list.
struct CountRowView {
    let kind: String
    let id: String
    let href: String
    let name: String
    let countText: String

    init(spot: SpotRow, domID: String? = nil) {
        kind = "spot"
        id = domID ?? spot.id
        href = ListKey.spot(spot.id).pagePath
        name = spot.name
        countText = spot.photoCountText
    }

    init(photographer: PhotographerRow) {
        kind = "photographer"
        id = photographer.id
        href = ListKey.photographer(photographer.id).pagePath
        name = photographer.name
        countText = photographer.photoCount == 1 ? "1 photo" : "\(photographer.photoCount) photos"
    }
}

/// The app's URLs, in one place.
enum Links {
    static func photo(_ id: String, in list: ListKey?) -> String {
        let path = "/photos/" + URLPath.segment(id)
        guard let list else { return path }
        return path + "?list=" + list.queryValue
    }

    static func thumbnail(_ id: String) -> String { "/thumbnails/" + URLPath.segment(id) + ".jpg" }
    static func large(_ id: String) -> String { "/images/" + URLPath.segment(id) + "/large.jpg" }
    static func original(_ id: String) -> String { "/images/" + URLPath.segment(id) + "/original.jpg" }
    static func hide(_ id: String) -> String { "/photos/" + URLPath.segment(id) + "/hide" }
    static func unhide(_ id: String) -> String { "/photos/" + URLPath.segment(id) + "/unhide" }
    static func events(_ list: ListKey?) -> String { "/events?list=" + (list?.queryValue ?? "status") }
}

extension PageRenderer {
    private func header() -> @Sendable (String, String) -> String {
        { name, anchor in self.render(["name": name, "anchor": anchor], .sectionHeader) }
    }

    /// How rows of each list are rendered.
    func spotRows() -> ListRendering<SpotRow> {
        ListRendering(row: { self.render(CountRowView(spot: $0), .rowCount) }, header: header(), wrap: { self.sectionHTML($0) })
    }

    func photographerRows() -> ListRendering<PhotographerRow> {
        ListRendering(row: { self.render(CountRowView(photographer: $0), .rowCount) }, header: header(), wrap: { self.sectionHTML($0) })
    }

    func photoRows(in list: ListKey) -> ListRendering<PhotoRow> {
        ListRendering(row: { self.render(PhotoRowView($0, in: list), .rowPhoto) }, header: header(), wrap: { self.sectionHTML($0) })
    }

    func recentRows() -> ListRendering<RecentRow> {
        ListRendering(row: { self.render(PhotoRowView($0.photo, in: .recents), .rowPhoto) }, header: header(), wrap: { self.sectionHTML($0) })
    }

    func searchRows(in list: ListKey) -> ListRendering<SearchResultRow> {
        ListRendering(
            row: { result in
                switch result {
                case .spot(let spot): self.render(CountRowView(spot: spot, domID: result.id), .rowCount)
                case .photo(let photo): self.render(PhotoRowView(photo, in: list, domID: result.id), .rowPhoto)
                }
            },
            header: header(),
            wrap: { self.sectionHTML($0) }
        )
    }

    /// A section as `section.mustache` wraps it: the header and the rows.
    func sectionHTML(_ section: RenderedSection) -> String {
        render(
            [
                "name": section.name, "indexTitle": section.indexTitle, "anchor": section.anchor, "headerHTML": section.headerHTML,
                "rowsHTML": section.rows.map(\.html).joined(),
            ],
            .section
        )
    }
}
