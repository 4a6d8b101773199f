public import Foundation

/// One photo as a Flickr search returns it: identity, owner, text, tags, date and place.
///
/// Every string here comes from a stranger: ``title`` and ``descriptionHTML`` may carry HTML,
/// entities and scripts, so escape them before display. Fields backed by search `extras` are
/// `nil` (or empty) when the extra was not requested or Flickr had nothing to say.
public struct FlickrPhoto: Sendable, Hashable, Identifiable {
    /// Flickr's photo id, a string of digits such as `"53325959773"`.
    public var id: String
    /// The NSID of the uploader, e.g. `"48247111@N07"`.
    public var owner: String
    /// The secret used in the URLs of the ordinary sizes.
    public var secret: String
    /// The image server, part of every image URL.
    public var server: String
    /// The server farm (legacy; `live.staticflickr.com` URLs no longer use it).
    public var farm: Int?
    /// The title as typed by the owner; may be empty.
    public var title: String
    /// `description._content`: HTML as typed (links, entities, line breaks); `nil` when the
    /// `description` extra was absent.
    public var descriptionHTML: String?
    /// The owner's display name (`owner_name` extra).
    public var ownerName: String?
    /// The tags (`tags` extra), split from Flickr's space-separated string, case as given.
    public var tags: [String]
    /// When the photo was uploaded (`date_upload` extra).
    public var uploadDate: Date?
    /// Where the photo was taken (`geo` extra); `nil` when it is not geotagged.
    public var coordinate: FlickrCoordinate?
    /// The secret of the original (`original_format` extra); `nil` when the owner hides it.
    public var originalSecret: String?
    /// The file extension of the original, e.g. `"jpg"` (`original_format` extra).
    public var originalFormat: String?
    /// Secrets of `h` and `k`, known only from `url_h`/`url_k` extras.
    public var sizeSecrets: [FlickrPhotoFormat: String]

    /// Creates a photo; every extra defaults to absent.
    public init(
        id: String,
        owner: String,
        secret: String,
        server: String,
        farm: Int? = nil,
        title: String = "",
        descriptionHTML: String? = nil,
        ownerName: String? = nil,
        tags: [String] = [],
        uploadDate: Date? = nil,
        coordinate: FlickrCoordinate? = nil,
        originalSecret: String? = nil,
        originalFormat: String? = nil,
        sizeSecrets: [FlickrPhotoFormat: String] = [:]
    ) {
        self.id = id
        self.owner = owner
        self.secret = secret
        self.server = server
        self.farm = farm
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.ownerName = ownerName
        self.tags = tags
        self.uploadDate = uploadDate
        self.coordinate = coordinate
        self.originalSecret = originalSecret
        self.originalFormat = originalFormat
        self.sizeSecrets = sizeSecrets
    }
}

/// A latitude and longitude in degrees (WGS 84), with Flickr's accuracy level.
public struct FlickrCoordinate: Sendable, Hashable {
    /// Degrees north of the equator.
    public var latitude: Double
    /// Degrees east of Greenwich.
    public var longitude: Double
    /// Flickr's accuracy, 1 (world) to 16 (street); `nil` when not given.
    public var accuracy: Int?

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double, accuracy: Int? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}
