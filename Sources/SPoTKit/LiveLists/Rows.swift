public import Foundation

/// A row value of a snapshot or change set: it can cross threads and be encoded, and is
/// identified by a string (a live list's row, or the same row rendered for a browser).
public protocol RowValue: Sendable, Hashable, Codable, Identifiable where ID == String {}

/// A row of a live list, with what it shows.
public protocol LiveRow: RowValue {
    /// What the row shows, whatever the list: how screens present it.
    var content: RowContent { get }
}

/// What a row shows: screens present every list's rows from this.
public enum RowContent: Sendable, Hashable {
    /// A name with a count of photos, opening another list (a spot's, a photographer's).
    case list(ListID, name: String, photoCount: Int)
    /// A photo, opening the photo viewer.
    case photo(PhotoRow)

    /// The photo's id, for a photo.
    public var photoID: String? {
        if case .photo(let photo) = self { return photo.id }
        return nil
    }
}

/// A spot in the spots list: "All" or a Flickr tag, with its count of visible photos.
public struct SpotRow: LiveRow {
    /// How the spot is addressed in the CLI and URLs (`all`, a tag, or `tag:all`).
    public var id: String
    /// The display name, e.g. "Hoovertower".
    public var name: String
    /// Visible photos in the spot.
    public var photoCount: Int

    /// Creates a row.
    public init(id: String, name: String, photoCount: Int) {
        self.id = id
        self.name = name
        self.photoCount = photoCount
    }

    /// "1 photo", "12 photos".
    public var photoCountText: String { photoCount == 1 ? "1 photo" : "\(photoCount) photos" }

    /// The spot, opening its photos.
    public var content: RowContent { .list(.spot(id), name: name, photoCount: photoCount) }
}

/// A photo in a list: what a table row shows and what a viewer needs to open it.
public struct PhotoRow: LiveRow {
    /// Flickr's photo id.
    public var id: String
    /// The title (plain text, untrusted: escape it).
    public var title: String
    /// The description as plain text (untrusted: escape it).
    public var subtitle: String
    /// The alphabetical section: first letter, folded and upper-cased, or `#`.
    public var sectionTitle: String
    /// The display name of the photo's first spot.
    public var spotTitle: String
    /// The photographer's name.
    public var photographer: String
    /// When it was uploaded.
    public var uploadDate: Date?
    /// Whether Flickr offers the original size.
    public var hasOriginal: Bool

    /// Creates a row.
    public init(
        id: String,
        title: String,
        subtitle: String,
        sectionTitle: String,
        spotTitle: String,
        photographer: String,
        uploadDate: Date?,
        hasOriginal: Bool
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.sectionTitle = sectionTitle
        self.spotTitle = spotTitle
        self.photographer = photographer
        self.uploadDate = uploadDate
        self.hasOriginal = hasOriginal
    }

    /// The photo.
    public var content: RowContent { .photo(self) }
}

/// A recently viewed photo.
public struct RecentRow: LiveRow {
    /// The photo's id (a photo is in recents at most once).
    public var id: String { photo.id }
    /// The photo.
    public var photo: PhotoRow
    /// When it was last viewed.
    public var lastViewed: Date

    /// Creates a row.
    public init(photo: PhotoRow, lastViewed: Date) {
        self.photo = photo
        self.lastViewed = lastViewed
    }

    /// The photo.
    public var content: RowContent { .photo(photo) }
}

/// A photographer with their count of visible photos.
public struct PhotographerRow: LiveRow {
    /// The Flickr NSID.
    public var id: String
    /// The display name.
    public var name: String
    /// Visible photos.
    public var photoCount: Int

    /// Creates a row.
    public init(id: String, name: String, photoCount: Int) {
        self.id = id
        self.name = name
        self.photoCount = photoCount
    }

    /// The photographer, opening their photos.
    public var content: RowContent { .list(.photographer(id), name: name, photoCount: photoCount) }
}

/// A search result: a spot or a photo.
public enum SearchResultRow: LiveRow {
    /// A spot whose name contains the text.
    case spot(SpotRow)
    /// A photo whose title or subtitle contains the text.
    case photo(PhotoRow)

    /// `spot:<address>` or `photo:<id>`, so the two kinds never share an id.
    public var id: String {
        switch self {
        case .spot(let spot): "spot:" + spot.id
        case .photo(let photo): "photo:" + photo.id
        }
    }

    /// The spot's or the photo's.
    public var content: RowContent {
        switch self {
        case .spot(let spot): spot.content
        case .photo(let photo): photo.content
        }
    }
}
