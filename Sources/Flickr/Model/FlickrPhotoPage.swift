/// One page of a standard photos response: the photos and where they sit in the whole list.
public struct FlickrPhotoPage: Sendable, Hashable {
    /// The page number, from 1.
    public var page: Int
    /// How many pages the whole list has (0 when it is empty).
    public var pages: Int
    /// The page size the server used (Flickr caps it at 500).
    public var perPage: Int
    /// How many photos the whole list has (Flickr sends it as a string).
    public var total: Int
    /// This page's photos, in the server's order.
    public var photos: [FlickrPhoto]

    /// Creates a page.
    public init(page: Int, pages: Int, perPage: Int, total: Int, photos: [FlickrPhoto]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }

    /// Whether a later page exists.
    public var hasMore: Bool { page < pages }
}

extension FlickrPhotoPage: Decodable {
    private enum CodingKeys: String, CodingKey { case page, pages, perpage, total, photo }

    /// Decodes the `photos` object of a standard photos response; counts may be numbers or
    /// strings, and an element that cannot be decoded is skipped rather than failing the page.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let elements = (try? c.decodeIfPresent([Lossy<FlickrPhoto>].self, forKey: .photo)) ?? []
        let photos = elements.compactMap(\.value)
        self.init(
            page: c.lossyInt(forKey: .page) ?? 1,
            pages: c.lossyInt(forKey: .pages) ?? 1,
            perPage: c.lossyInt(forKey: .perpage) ?? photos.count,
            total: c.lossyInt(forKey: .total) ?? photos.count,
            photos: photos
        )
    }
}

/// Decodes a value, or `nil` in its place when it cannot be decoded.
private struct Lossy<Value: Decodable>: Decodable {
    var value: Value?
    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}
