/// A Stanford place in the sandbox's catalogue. On Flickr a spot is just a tag.
package struct SandboxSpot: Sendable, Hashable {
    /// The Flickr tag that puts a photo on this spot, lowercase, e.g. `"hoovertower"`.
    package var tag: String
    /// The display name, e.g. `"Hoover Tower"`: the caption of the spot's pictures.
    package var name: String
    /// The silhouette its pictures are drawn around.
    package var kind: PostcardScene.Kind
    package var sky: RGB
    package var ground: RGB
    package var accent: RGB
    /// Where the place is, in degrees.
    package var latitude: Double
    package var longitude: Double

    /// The scene of one photo of this spot.
    package func scene(seed: UInt64) -> PostcardScene {
        PostcardScene(spotName: name, kind: kind, sky: sky, ground: ground, accent: accent, seed: seed)
    }
}

/// A Flickr member who uploaded photos to the catalogue.
package struct SandboxPhotographer: Sendable, Hashable {
    /// The member's NSID, e.g. `"48247111@N07"`.
    package var nsid: String
    /// The `ownername` Flickr shows.
    package var name: String
}
