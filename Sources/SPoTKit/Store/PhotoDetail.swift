public import Foundation

/// Everything SPoT knows about one photo, for a photo page or `spot` output.
public struct PhotoDetail: Sendable, Hashable, Codable, Identifiable {
    /// The row values (id, title, subtitle, section, spot, photographer, upload date).
    public var row: PhotoRow
    /// Flickr's photo id.
    public var id: String { row.id }
    /// Degrees north, when geotagged.
    public var latitude: Double?
    /// Degrees east, when geotagged.
    public var longitude: Double?
    /// Whether the user hid it.
    public var isHidden: Bool
    /// Its spots, "All" first.
    public var spots: [SpotRow]
    /// The photographer's Flickr id.
    public var photographerID: String
    /// When the user last viewed it, if ever.
    public var lastViewed: Date?
}
