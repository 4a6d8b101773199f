package import Flickr

/// One photo of the sandbox's catalogue, with everything Flickr would say about it.
package struct SandboxPhoto: Sendable, Hashable, Identifiable {
    package var id: String
    package var owner: SandboxPhotographer
    package var secret: String
    package var server: String
    package var farm: Int
    /// `nil` when the owner hides the original (no `o` URL).
    package var originalSecret: String?
    package var originalFormat: String?
    /// Secrets of the `h` and `k` sizes, which Flickr gives their own.
    package var sizeSecrets: [FlickrPhotoFormat: String]
    package var title: String
    package var descriptionHTML: String
    /// The tags as written by the owner, case kept.
    package var tags: [String]
    /// Upload time in seconds since 1970.
    package var uploaded: Int
    /// `nil` when the photo is not geotagged.
    package var latitude: Double?
    package var longitude: Double?
    /// The spots the photo belongs to (its tags that name a spot), first one drawn.
    package var spots: [SandboxSpot]
    /// Varies the generated picture.
    package var seed: UInt64
    package var isPortrait: Bool

    /// The original's pixel size: 2400×1800 (or 1800×2400 when portrait).
    package var originalSize: (width: Int, height: Int) { isPortrait ? (1800, 2400) : (2400, 1800) }

    /// The secret an image URL of `format` must carry, `nil` if the size has no URL.
    package func secret(for format: FlickrPhotoFormat) -> String? {
        switch format.secretSource {
        case .photo: secret
        case .sizeSpecific: sizeSecrets[format]
        case .original: originalSecret
        }
    }

    /// The scene the sandbox draws for this photo.
    package var scene: PostcardScene {
        spots[0].scene(seed: seed)
    }

    /// Whether the photo carries `tag`, compared without regard to case.
    package func hasTag(_ tag: String) -> Bool {
        let wanted = tag.lowercased()
        return tags.contains { $0.lowercased() == wanted }
    }
}
