public import ObjectGraph

/// A Flickr user whose photos are in SPoT (Photomania's photographers).
public final class Photographer: ManagedObject {
    /// The Flickr NSID, e.g. `48247111@N07` (unique).
    @Managed public var userID: String?
    /// The display name Flickr gives, else the NSID.
    @Managed public var name: String?
    /// How many visible photos they have, kept by the importer and by hiding.
    @Managed public var photoCount: Int64
    /// Their photos, hidden ones included.
    @Managed public var photos: Set<Photo>

    /// The row a live list shows for this photographer.
    public var row: PhotographerRow {
        PhotographerRow(id: userID ?? "", name: name ?? "", photoCount: Int(photoCount))
    }
}
