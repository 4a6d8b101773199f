import Foundation

/// A colour for the sandbox's generated pictures.
package struct RGB: Sendable, Hashable {
    /// Red, 0–255.
    package var r: UInt8
    /// Green, 0–255.
    package var g: UInt8
    /// Blue, 0–255.
    package var b: UInt8
    /// A colour from its three 8-bit sRGB channels.
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
        /// A tall sandstone tower with a red-tiled cap (Hoover Tower).
        case tower
        /// A long sandstone arcade of round arches under a tiled roof (Main Quad).
        case arcade
        /// A church facade with a golden mosaic (Memorial Church).
        case church
        /// A tiled-roof library with arched windows (Green Library).
        case library
        /// A wide oval lawn lined with palms (the Oval).
        case lawn
        /// Bronze figures and a great sculpted gate (Rodin Sculpture Garden).
        case sculpture
        /// A columned museum portico (Cantor Arts Center).
        case museum
        /// Still water reflecting the foothills (Lake Lagunita).
        case lake
        /// Golden rolling hills with a radio dish (the Dish).
        case hills
        /// A stadium bowl around a green field (Stanford Stadium).
        case stadium
        /// A modern oval concert hall (Bing Concert Hall).
        case hall
        /// Saguaros, barrels and agaves (Arizona Cactus Garden).
        case cactus
        /// A marble angel draped over an altar (the Angel of Grief).
        case statue
        /// Grassy terraces stepping down to a stage (Frost Amphitheater).
        case amphitheater
        /// A bronze sculpture spraying water into a round pool (White Plaza fountain).
        case fountain
    }
    /// Drawn as the postcard's caption, e.g. "Hoover Tower".
    package var spotName: String
    /// Which silhouette the scene is built around.
    package var kind: Kind
    /// The sky's base colour; the time of day shifts it towards dawn, day or dusk tones.
    package var sky: RGB
    /// The ground's base colour (lawn, hills, plaza paving).
    package var ground: RGB
    /// The landmark's own colour (sandstone, bronze, marble, cardinal seats…).
    package var accent: RGB
    /// Per-photo variation (time of day, clouds, framing): the same seed gives the same picture.
    package var seed: UInt64

    /// A scene from its caption, silhouette, colours and variation seed.
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
    ///
    /// Sizes are clamped to 1…65 535, the range a JPEG frame header can carry, and `quality` to 1…100
    /// (libjpeg's scale). The output depends only on the arguments, so callers may cache it freely.
    package static func jpeg(_ scene: PostcardScene, width: Int, height: Int, quality: Int = 85) -> [UInt8] {
        let width = min(max(width, 1), 65_535)
        let height = min(max(height, 1), 65_535)
        let canvas = PostcardComposer(scene: scene, width: width, height: height).render()
        // Chroma subsampling halves the colour detail: invisible on photo-sized images and a third
        // smaller, but on thumbnails it smears the red caption into the paper, so keep 4:4:4 there.
        let subsample = max(width, height) >= 400
        return JPEGEncoder.encode(canvas, quality: quality, subsampleChroma: subsample)
    }
}
