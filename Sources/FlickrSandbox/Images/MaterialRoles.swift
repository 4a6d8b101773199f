import Foundation

/// Which of a landmark's materials the scene's accent colour stands for.
///
/// The catalogue gives each spot one accent: sometimes the whole landmark (bronze, marble, a
/// cactus), sometimes its most telling detail (Hoover Tower's red tiles, Memorial Church's gold
/// mosaic, the Oval's red flowers, Lake Lagunita's blue water). The landmark's body then falls back
/// to sandstone, so every scene still looks like Stanford.
struct MaterialRoles {
    /// The landmark's main material.
    var body: RGB
    /// Roof tiles.
    var tile = RGB(184, 78, 48)
    /// Mosaic gold.
    var mosaic = RGB(232, 186, 80)
    /// Flower beds.
    var flowers = RGB(176, 28, 36)
    /// Banners and doors.
    var trim = RGB(150, 24, 30)
    /// Water, when the accent is the water's colour.
    var water: RGB? = nil

    /// Stanford's buff sandstone.
    static let sandstone = RGB(216, 188, 144)

    /// The roles for `scene`'s kind and accent.
    init(scene: PostcardScene) {
        let accent = scene.accent
        body = accent
        // Terracotta and cardinal read as tiles; a strong colour on a church reads as its mosaic;
        // a dark colour on a pale building reads as its trim.
        let reddish = Int(accent.r) > Int(accent.g) + 50 && accent.saturation > 0.4
        switch scene.kind {
        case .tower where reddish, .arcade where reddish, .library where reddish:
            body = Self.sandstone
            tile = accent
        case .church where accent.saturation > 0.45:
            body = Self.sandstone
            if reddish { tile = accent } else { mosaic = accent }
        case .museum where accent.luminance < 0.45:
            body = RGB(228, 216, 192)
            trim = accent
        case .lawn:
            body = Self.sandstone
            if accent.saturation > 0.3 { flowers = accent }
        case .lake:
            body = RGB(150, 112, 80)
            water = accent.mixed(with: scene.sky, 0.12)
        default:
            break
        }
    }
}
