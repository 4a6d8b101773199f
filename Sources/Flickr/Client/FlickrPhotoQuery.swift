/// A Flickr method that returns a standard photos response, with its parameters (paging
/// aside): what to ask for, built by the static functions below.
///
/// ```swift
/// let photos = try await client.allPhotos(.stanfordSpots())
/// ```
public struct FlickrPhotoQuery: Sendable, Hashable {
    /// The Flickr user who posts the Stanford spot photos: `48247111@N07`.
    public static let stanfordUserID = "48247111@N07"
    /// The tag on every spot photo: `cs193pspot`.
    public static let spotTag = "cs193pspot"
    /// The extras SPoT needs: `original_format,tags,description,geo,date_upload,owner_name`.
    public static let spotExtras = "original_format,tags,description,geo,date_upload,owner_name"
    /// Flickr's largest page: 500 photos.
    public static let maxPerPage = 500

    /// The Flickr method, e.g. `flickr.photos.search`.
    public var method: String
    /// The method's parameters, without `page`, `per_page`, the key or the format.
    public var parameters: [String: String]

    /// A query for any method and parameters.
    public init(method: String, parameters: [String: String]) {
        self.method = method
        self.parameters = parameters
    }

    /// Stanford's spot photos: `flickr.photos.search` for `userID` with ``spotExtras``.
    public static func stanfordSpots(userID: String = stanfordUserID) -> Self {
        .init(method: "flickr.photos.search", parameters: ["user_id": userID, "extras": spotExtras])
    }

    /// Photos carrying `tag` (by default ``spotTag``), from any user, with ``spotExtras``.
    public static func tagged(_ tag: String = spotTag) -> Self {
        .init(method: "flickr.photos.search", parameters: ["tags": tag, "extras": spotExtras])
    }

    /// Recent georeferenced photos, newest first (Photomania's source).
    public static func recentGeoreferenced() -> Self {
        .init(
            method: "flickr.photos.search",
            parameters: [
                "has_geo": "1", "sort": "date-posted-desc", "license": "1,2,4,7",
                "extras": "original_format,description,geo,date_upload,owner_name",
            ]
        )
    }

    /// `perPage` clamped to Flickr's range, 1...500.
    package static func clampedPerPage(_ perPage: Int) -> Int {
        min(max(1, perPage), maxPerPage)
    }
}
