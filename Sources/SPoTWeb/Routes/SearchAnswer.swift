import Foundation
import SPoTKit

/// `GET /api/search?q=TEXT`: `{"query": …, "version": …, "spots": [SpotRow…], "photos": [PhotoRow…]}`.
///
/// Spots whose name contains the text, then photos whose title or description does, ignoring
/// case and accents, in the order the search page lists them; both empty for an empty query.
/// `version` is the live search list's, as `/events?list=search/TEXT` counts it.
struct SearchAnswer: Encodable, Sendable {
    var query: String
    var version: Int
    var spots: [SpotRow]
    var photos: [PhotoRow]

    /// The answer for `query` from the search list's content.
    init(query: String, snapshot: LiveSnapshot<SearchResultRow>) {
        self.init(query: query, version: snapshot.version, rows: snapshot.rows)
    }

    /// The answer with `rows` split by kind, each kind in the list's order.
    init(query: String, version: Int, rows: [SearchResultRow]) {
        self.query = query
        self.version = version
        spots = []
        photos = []
        for row in rows {
            switch row {
            case .spot(let spot): spots.append(spot)
            case .photo(let photo): photos.append(photo)
            }
        }
    }
}
