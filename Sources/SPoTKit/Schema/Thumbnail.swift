public import Foundation
public import ObjectGraph

/// A photo's square thumbnail (Flickr's `q`, 150×150 JPEG), kept in the database.
///
/// An entity of its own rather than an attribute of ``Photo``, so lists that fetch photos by
/// the hundred never drag thumbnail bytes along; keyed by the photo's id rather than related
/// to it, so storing a downloaded thumbnail leaves the photo — and every list showing it —
/// unchanged.
public final class Thumbnail: ManagedObject {
    /// The photo's Flickr id (unique).
    @Managed public var photoID: String?
    /// The JPEG bytes.
    @Managed public var data: Data?
}
