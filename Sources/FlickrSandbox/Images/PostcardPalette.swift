import Foundation

/// When a postcard is "photographed": picked from the scene's seed so a catalogue shows a mix.
enum PostcardTimeOfDay: Sendable, CaseIterable {
    /// Low sun on the left, cool top and peach horizon.
    case dawn
    /// High sun, clear blue.
    case day
    /// Low warm sun, long golden light.
    case goldenHour
    /// Sun setting on the right, deep blue top and orange horizon.
    case dusk
    /// A dark sky with moon and stars, the landmark under lamplight. Only chosen for scenes whose
    /// sky colour is itself dark (a night game at the stadium), never by the seed alone.
    case night

    /// The time of day for a uniform random `u` in 0..<1, weighted towards daylight; a dark `sky`
    /// always means night.
    static func pick(_ u: Float, sky: RGB) -> PostcardTimeOfDay {
        if sky.luminance < 0.22 { return .night }
        return switch u {
        case ..<0.2: .dawn
        case ..<0.62: .day
        case ..<0.84: .goldenHour
        default: .dusk
        }
    }
}

/// Every colour a postcard uses, derived once from the scene's three colours and the time of day
/// so that all parts of the picture agree on the light.
struct PostcardPalette {
    /// Sky colour at the top of the picture.
    let skyTop: RGB
    /// Sky colour at the horizon.
    let skyHorizon: RGB
    /// The sun's disc.
    let sun: RGB
    /// The sun's halo.
    let sunGlow: RGB
    /// Sunlit side of clouds.
    let cloud: RGB
    /// Underside of clouds.
    let cloudShade: RGB
    /// Distant hills, washed out by air.
    let haze: RGB
    /// Ground at the horizon.
    let groundFar: RGB
    /// Ground in the foreground.
    let groundNear: RGB
    /// The landmark's lit faces.
    let accent: RGB
    /// Highlights, cornices and trims on the landmark.
    let accentLight: RGB
    /// The landmark's faces turned away from the sun.
    let accentShade: RGB
    /// Deep openings: arches, doors, windows in shadow.
    let accentDeep: RGB
    /// Red clay roof tiles, Stanford's other signature colour.
    let tile: RGB
    /// Roof tiles in shadow.
    let tileShade: RGB
    /// Tree foliage.
    let foliage: RGB
    /// Foliage in shadow.
    let foliageDark: RGB
    /// Sunlit foliage.
    let foliageLight: RGB
    /// Tree trunks and palm stems.
    let trunk: RGB
    /// Open water.
    let water: RGB
    /// Window glass.
    let glass: RGB
    /// The golden ground of a mosaic (Memorial Church's facade).
    let mosaic: RGB
    /// Flower beds (the Oval's "S").
    let flowers: RGB
    /// Small strong details: banners, doors.
    let trim: RGB
    /// The postcard's paper border and caption band.
    let paper: RGB
    /// Caption lettering: the accent darkened until it reads on paper.
    let ink: RGB
    /// The colour of the light itself, for the final grade.
    let light: RGB
    /// Where the sun is, as a fraction of the scene (x across, y down from the top).
    let sunPosition: (x: Float, y: Float)

    /// The palette for `scene` at `time`; `sunOnLeft` mirrors the light for variety.
    init(scene: PostcardScene, time: PostcardTimeOfDay, sunOnLeft: Bool, sunHeight: Float) {
        let white = RGB(255, 255, 255)
        let sky = scene.sky
        let skyTop: RGB
        let skyHorizon: RGB
        let light: RGB
        let brightness: Float
        switch time {
        case .dawn:
            skyTop = sky.mixed(with: RGB(78, 96, 164), 0.45)
            skyHorizon = sky.mixed(with: RGB(255, 198, 172), 0.62)
            light = RGB(255, 226, 206)
            brightness = 0.95
        case .day:
            skyTop = sky.scaled(0.8).mixed(with: RGB(40, 96, 178), 0.2)
            skyHorizon = sky.mixed(with: white, 0.5)
            light = RGB(255, 250, 240)
            brightness = 1
        case .goldenHour:
            skyTop = sky.mixed(with: RGB(62, 112, 180), 0.3)
            skyHorizon = sky.mixed(with: RGB(255, 212, 146), 0.62)
            light = RGB(255, 218, 160)
            brightness = 0.97
        case .dusk:
            skyTop = sky.mixed(with: RGB(38, 44, 104), 0.6)
            skyHorizon = sky.mixed(with: RGB(250, 146, 92), 0.66)
            light = RGB(255, 178, 132)
            brightness = 0.8
        case .night:
            skyTop = sky.scaled(0.7)
            skyHorizon = sky.mixed(with: RGB(104, 106, 146), 0.5)
            light = RGB(255, 232, 196)
            brightness = 0.74
        }
        self.skyTop = skyTop
        self.skyHorizon = skyHorizon
        self.light = light
        func lit(_ c: RGB) -> RGB { c.lit(by: light).mixed(with: c, 0.35).scaled(brightness) }
        func shade(_ c: RGB, _ f: Float) -> RGB { c.scaled(f * brightness).mixed(with: skyTop, 0.16) }

        let low = time != .day && time != .night
        sunPosition = (sunOnLeft ? 0.2 : 0.8, low ? 0.42 + 0.22 * sunHeight : 0.1 + 0.14 * sunHeight)
        switch time {
        case .day: (sun, sunGlow) = (RGB(255, 253, 238), RGB(255, 250, 225))
        case .night: (sun, sunGlow) = (RGB(238, 238, 224), RGB(150, 160, 205))
        default: (sun, sunGlow) = (RGB(255, 236, 190).mixed(with: light, 0.3), light.mixed(with: RGB(255, 200, 120), 0.3))
        }
        if time == .night {
            cloud = skyHorizon.mixed(with: white, 0.12)
            cloudShade = skyTop.mixed(with: skyHorizon, 0.4)
        } else {
            cloud = white.mixed(with: light, 0.5).mixed(with: skyHorizon, 0.12)
            cloudShade = white.mixed(with: skyTop, 0.42).mixed(with: light, 0.12).scaled(0.94)
        }

        let ground = scene.ground
        groundFar = lit(ground).mixed(with: skyHorizon, 0.22)
        groundNear = lit(ground).scaled(0.86)
        haze = ground.mixed(with: skyTop, 0.45).mixed(with: skyHorizon, 0.35)

        // The accent is the spot's signature colour; what it paints depends on the spot, so
        // Hoover Tower's terracotta goes on its dome, not over the whole sandstone shaft.
        let roles = MaterialRoles(scene: scene)
        let body = roles.body
        accent = lit(body)
        accentLight = lit(body).mixed(with: light, 0.35)
        accentShade = shade(body, 0.7)
        accentDeep = shade(body, 0.3).mixed(with: RGB(30, 24, 22), 0.4)
        tile = lit(roles.tile)
        tileShade = shade(roles.tile.scaled(0.8), 0.8)
        mosaic = lit(roles.mosaic)
        flowers = lit(roles.flowers)
        trim = lit(roles.trim)
        let green = RGB(76, 112, 58).mixed(with: ground, 0.15)
        foliage = lit(green)
        foliageDark = shade(green, 0.55)
        foliageLight = lit(green.mixed(with: RGB(176, 196, 96), 0.4))
        trunk = shade(RGB(112, 86, 62), 0.85)
        water = (roles.water ?? sky.mixed(with: skyTop, 0.6)).scaled(0.82 * brightness)
        glass = skyTop.mixed(with: RGB(30, 40, 58), 0.55)

        paper = RGB(248, 242, 228)
        // The caption must read on paper: darken the accent until its luminance is low; a greyish
        // accent (a white dish, marble) would give grey text, so fall back to Stanford cardinal.
        var ink = scene.accent.saturation < 0.25 ? RGB(140, 21, 21) : scene.accent
        while ink.luminance > 0.24 { ink = ink.scaled(0.85) }
        self.ink = ink
    }
}
