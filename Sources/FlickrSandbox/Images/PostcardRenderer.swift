import Foundation

/// A colour for the sandbox's generated pictures.
package struct RGB: Sendable, Hashable {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// What one generated sandbox photo shows: a postcard-like scene of a Stanford spot.
package struct PostcardScene: Sendable, Hashable {
    /// The silhouette the scene is built around.
    package enum Kind: String, Sendable, CaseIterable {
        case tower, arcade, church, library, lawn, sculpture, museum, lake, hills, stadium, hall,
            cactus, statue, amphitheater, fountain
    }
    /// Drawn as the postcard's caption, e.g. "Hoover Tower".
    package var spotName: String
    package var kind: Kind
    package var sky: RGB
    package var ground: RGB
    package var accent: RGB
    /// Per-photo variation (time of day, clouds, framing): the same seed gives the same picture.
    package var seed: UInt64

    package init(spotName: String, kind: Kind, sky: RGB, ground: RGB, accent: RGB, seed: UInt64) {
        self.spotName = spotName
        self.kind = kind
        self.sky = sky
        self.ground = ground
        self.accent = accent
        self.seed = seed
    }
}

/// Renders ``PostcardScene``s to image bytes, deterministically, in pure Swift.
package enum PostcardRenderer {
    /// Baseline JPEG bytes of `scene` at exactly `width`×`height` pixels.
    package static func jpeg(_ scene: PostcardScene, width: Int, height: Int, quality: Int = 85) -> [UInt8] {
        // Placeholder until the renderer lands: a 1×1 grey JPEG is not acceptable output.
        []
    }
}
