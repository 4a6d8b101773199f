public import ObjectGraph

/// A spot: one Flickr tag, or "All", which every photo is in.
///
/// ``name`` is the lower-cased Flickr tag; "All" is stored under ``Tag/allName``, which no
/// Flickr tag can be, so a Flickr tag spelled `all` is a spot of its own.
public final class Tag: ManagedObject {
    /// The store's key for "All": empty, which no Flickr tag is (tags are split on spaces).
    public static let allName = ""
    /// How "All" is addressed in the CLI and in URLs.
    public static let allAddress = "all"
    /// The prefix that addresses a Flickr tag even when its name is `all`: `tag:all`.
    public static let tagAddressPrefix = "tag:"

    /// The Flickr tag, lower-cased (unique); ``Tag/allName`` for "All".
    @Managed public var name: String?
    /// The tag capitalized for people, e.g. "Hoovertower"; "All" for "All".
    @Managed public var displayName: String?
    /// 0 for "All", 1 for every Flickr tag: lists sort by rank first, so "All" leads whatever
    /// the other spots are called.
    @Managed public var rank: Int16
    /// How many visible (not hidden) photos the spot has, kept by the importer and by hiding.
    @Managed public var photoCount: Int64
    /// The photos in the spot.
    @Managed public var photos: Set<Photo>

    /// Whether this is "All".
    public var isAll: Bool { rank == 0 }

    /// How the spot is addressed in the CLI and in URLs: `all` for "All", the tag itself
    /// otherwise, and `tag:all` for a Flickr tag spelled `all`.
    public var address: String {
        if isAll { return Self.allAddress }
        let name = self.name ?? ""
        return name == Self.allAddress ? Self.tagAddressPrefix + name : name
    }

    /// The row a live list shows for this spot.
    public var row: SpotRow {
        SpotRow(id: address, name: displayName ?? "", photoCount: Int(photoCount))
    }
}
