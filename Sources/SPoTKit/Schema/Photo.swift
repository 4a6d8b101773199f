public import Flickr
public import Foundation
public import ObjectGraph

/// One Flickr photo of a Stanford spot, as SPoT keeps it.
///
/// Filled by the importer from Flickr's `cs193pspot` search; ``unique`` is Flickr's photo id.
/// Text fields are plain text (HTML already removed) but still untrusted: escape them on output.
public final class Photo: ManagedObject {
    /// Flickr's photo id, unique in the store.
    @Managed public var unique: String?
    /// The Flickr title, else the description's first line, else "Unknown".
    @Managed public var title: String?
    /// The description as plain text, whitespace collapsed.
    @Managed public var subtitle: String?
    /// The title's first letter, folded and upper-cased ("É" → "E"), or `#`.
    @Managed public var sectionTitle: String?
    /// The display name of the photo's first spot, the section it has in "All".
    @Managed public var spotTitle: String?
    /// The photo's spots as last imported, space-separated, in Flickr's order.
    @Managed public var spotList: String?
    /// Flickr's image server, part of every image URL.
    @Managed public var server: String?
    /// The secret of the ordinary sizes.
    @Managed public var secret: String?
    /// Flickr's legacy farm number.
    @Managed public var farm: Int64
    /// The original's secret; `nil` when the owner hides the original.
    @Managed public var originalSecret: String?
    /// The original's file extension, e.g. `jpg`.
    @Managed public var originalFormat: String?
    /// When the photo was uploaded to Flickr.
    @Managed public var uploadDate: Date?
    /// Degrees north; `nil` when the photo is not geotagged.
    @Managed public var latitude: Double?
    /// Degrees east; `nil` when the photo is not geotagged.
    @Managed public var longitude: Double?
    /// Whether the user hid (deleted) the photo: it leaves every list and count, and a refresh
    /// never brings it back.
    @Managed public var hidden: Bool
    /// Every spot the photo is in, "All" included.
    @Managed public var tags: Set<Tag>
    /// Who took it.
    @Managed public var photographer: Photographer?
    /// When the user last viewed it, if they did.
    @Managed public var recent: Recent?

    /// The photo as the Flickr client knows it, enough to build its image URLs.
    public var flickrPhoto: FlickrPhoto {
        FlickrPhoto(
            id: unique ?? "",
            owner: photographer?.userID ?? "",
            secret: secret ?? "",
            server: server ?? "",
            farm: farm == 0 ? nil : Int(farm),
            title: title ?? "",
            ownerName: photographer?.name,
            originalSecret: originalSecret,
            originalFormat: originalFormat
        )
    }

    /// The row a live list shows for this photo.
    public var row: PhotoRow {
        PhotoRow(
            id: unique ?? "",
            title: title ?? "",
            subtitle: subtitle ?? "",
            sectionTitle: sectionTitle ?? "#",
            spotTitle: spotTitle ?? "",
            photographer: photographer?.name ?? "",
            uploadDate: uploadDate,
            hasOriginal: originalSecret != nil
        )
    }
}
