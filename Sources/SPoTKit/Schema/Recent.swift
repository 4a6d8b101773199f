public import Foundation
public import ObjectGraph

/// The last time the user viewed a photo: one per photo, at most ``SPoTModel/maxRecents``.
public final class Recent: ManagedObject {
    /// When the photo was last viewed.
    @Managed public var lastViewed: Date?
    /// The photo viewed.
    @Managed public var photo: Photo?
}
