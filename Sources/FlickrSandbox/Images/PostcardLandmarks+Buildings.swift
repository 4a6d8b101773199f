import Foundation

/// The sandstone buildings: Hoover Tower, the Main Quad, Memorial Church, Green Library,
/// the Cantor Arts Center and Bing Concert Hall.
extension PostcardLandmarks {
    /// Hoover Tower: a tall sandstone shaft with recessed window bands, an arcaded belfry and a
    /// red-tiled dome, rising from the low library wings around its base.
    static func tower(_ p: LandmarkPen, _ c: PostcardPalette) {
        // The low wings at the foot, so the tower stands on something.
        tiledRoof(p, c, x0: -0.5, x1: 0.5, y0: 0.15, y1: 0.2, inset: 0.03)
        p.rect(-0.47, 0, 0.47, 0.155, c.accent)
        p.rect(0.3, 0, 0.47, 0.155, c.accentShade, alpha: 0.35)
        var windows: [[PostcardPoint]] = []
        for i in [-4, -3, -2, 2, 3, 4] {
            let x = Float(i) * 0.1
            windows.append(p.archShape(x - 0.02, x + 0.02, 0.03, top: 0.11))
        }
        p.union(windows, c.accentDeep)

        // The shaft: lit front face and a narrow shaded side give it volume.
        p.rect(-0.115, 0, 0.075, 0.7, c.accent)
        p.rect(0.075, 0, 0.118, 0.7, c.accentShade)
        var bands: [[PostcardPoint]] = []
        for x: Float in [-0.07, -0.02, 0.03] {
            bands.append(p.rectangle(x - 0.011, 0.2, x + 0.011, 0.66))
        }
        p.union(bands, c.accentShade)
        if p.shows(0.02, pixels: 4) {
            var panes: [[PostcardPoint]] = []
            for x: Float in [-0.07, -0.02, 0.03] {
                for k in 0..<9 {
                    let y = 0.22 + Float(k) * 0.05
                    panes.append(p.rectangle(x - 0.006, y, x + 0.006, y + 0.03))
                }
            }
            p.union(panes, c.accentDeep, alpha: 0.7)
        }
        // Cornice, belfry with its open arches, balustrade.
        p.rect(-0.135, 0.69, 0.135, 0.715, c.accentLight)
        p.rect(-0.112, 0.715, 0.08, 0.825, c.accent)
        p.rect(0.08, 0.715, 0.112, 0.825, c.accentShade)
        p.union([-0.065, -0.018, 0.03].map { x in p.archShape(x - 0.016, x + 0.016, 0.73, top: 0.805) }, c.accentDeep)
        p.rect(-0.128, 0.82, 0.128, 0.84, c.accentLight)

        // The dome, shaded on the side away from the sun, with tile ribs.
        p.poly(domePoints(cx: 0, base: 0.84, rx: 0.104, ry: 0.095, from: 0, to: 1), c.tile)
        p.poly(domePoints(cx: 0, base: 0.84, rx: 0.104, ry: 0.095, from: 0.62, to: 1) + [(0.02, 0.84)], c.tileShade)
        if p.shows(0.1, pixels: 12) {
            let ribs = [-0.6, -0.2, 0.2, 0.6].map { (t: Float) -> [PostcardPoint] in
                let x = t * 0.104
                return p.strokeShape(p.curve((x, 0.84), (x * 0.9, 0.9), (0, 0.935)), width: p.pixel * 1.3)
            }
            p.union(ribs, c.tileShade, alpha: 0.8)
        }
        // Lantern and finial.
        p.rect(-0.024, 0.925, 0.024, 0.962, c.accentLight)
        p.poly(domePoints(cx: 0, base: 0.962, rx: 0.028, ry: 0.022, from: 0, to: 1), c.tile)
        p.line([(0, 0.98), (0, 1.0)], width: 0.006, c.accentShade)
    }

    /// Points of the upper half of an ellipse from fraction `from` to `to` of the way left to right.
    static func domePoints(cx: Float, base: Float, rx: Float, ry: Float, from: Float, to: Float) -> [(Float, Float)] {
        (0...16).map { i in
            let a = Float.pi * (1 - (from + (to - from) * Float(i) / 16))
            return (cx + cos(a) * rx, base + sin(a) * ry)
        }
    }

    /// The Main Quad seen from the Oval: a long arcade of round arches under red tiles, the central
    /// gateway, and Memorial Church's golden mosaic gable rising behind it.
    static func arcade(_ p: LandmarkPen, _ c: PostcardPalette) {
        // Church gable behind the gateway.
        p.poly([(-0.3, 0.4), (0.3, 0.4), (0, 0.63)], c.accentShade)
        p.poly([(-0.22, 0.42), (0.22, 0.42), (0, 0.59)], top: c.mosaic.mixed(with: RGB(255, 240, 190), 0.25), bottom: c.mosaic.scaled(0.85))
        p.line([(-0.32, 0.39), (0, 0.645), (0.32, 0.39)], width: 0.025, c.tile)

        tiledRoof(p, c, x0: -1.07, x1: 1.07, y0: 0.29, y1: 0.38, inset: 0.06)
        p.rect(-1.02, 0, 1.02, 0.3, c.accent)
        p.rect(-1.02, 0.27, 1.02, 0.3, c.accentShade, alpha: 0.7)
        let bays = 12
        let pitch: Float = 2.0 / Float(bays)
        var openings: [[PostcardPoint]] = []
        var floors: [[PostcardPoint]] = []
        for i in 0..<bays {
            let x = -1 + pitch * (Float(i) + 0.5)
            guard abs(x) > 0.25 else { continue }
            let half = pitch * 0.34
            openings.append(p.archShape(x - half, x + half, 0, top: 0.21))
            floors.append(p.rectangle(x - half, 0, x + half, 0.05))
        }
        p.union(openings, c.accentDeep)
        p.union(floors, c.accentShade, alpha: 0.6)

        // The gateway pavilion, slightly proud of the arcade.
        tiledRoof(p, c, x0: -0.3, x1: 0.3, y0: 0.43, y1: 0.52, inset: 0.1)
        p.rect(-0.27, 0, 0.27, 0.44, c.accent)
        p.rect(0.2, 0, 0.27, 0.44, c.accentShade, alpha: 0.6)
        p.arch(-0.13, 0.13, 0, top: 0.32, c.accentLight)
        p.arch(-0.11, 0.11, 0, top: 0.3, c.accentDeep)
        p.union([-0.2, 0.2].map { x in p.archShape(x - 0.025, x + 0.025, 0.2, top: 0.3) }, c.accentDeep)
        p.rect(-0.29, 0.4, 0.29, 0.43, c.accentLight)
    }

    /// Memorial Church: a sandstone facade whose whole gable is a gold mosaic of figures with halos,
    /// over three entrance arches, with the crossing dome behind.
    static func church(_ p: LandmarkPen, _ c: PostcardPalette, random: inout PostcardRandom) {
        p.rect(-0.14, 0.5, 0.14, 0.84, c.accentShade)
        p.poly(domePoints(cx: 0, base: 0.84, rx: 0.16, ry: 0.1, from: 0, to: 1), c.tile)
        p.rect(-0.025, 0.93, 0.025, 0.97, c.accentLight)
        for side: Float in [-1, 1] {
            p.poly([(side * 0.43, 0.34), (side * 0.72, 0.3), (side * 0.72, 0.34), (side * 0.43, 0.4)], c.tile)
            p.rect(side * 0.43, 0, side * 0.7, 0.31, side < 0 ? c.accent : c.accentShade)
            p.union([0.52, 0.62].map { x in p.archShape(side * x - 0.025, side * x + 0.025, 0.08, top: 0.22) }, c.accentDeep)
        }
        p.rect(-0.46, 0, 0.46, 0.53, c.accent)
        p.poly([(-0.48, 0.52), (0.48, 0.52), (0, 0.81)], c.accent)
        p.line([(-0.5, 0.51), (0, 0.825), (0.5, 0.51)], width: 0.03, c.tile)

        // The mosaic: a gold field, tesserae shimmer where they are big enough, a row of robed figures.
        let gold = c.mosaic
        let mosaic: [(Float, Float)] = [(-0.37, 0.3), (0.37, 0.3), (0.37, 0.55), (0, 0.75), (-0.37, 0.55)]
        p.poly(mosaic, top: gold.mixed(with: RGB(255, 236, 170), 0.4), bottom: gold)
        let cell: Float = 0.03
        if p.shows(cell, pixels: 5) {
            var lighter: [[PostcardPoint]] = []
            var darker: [[PostcardPoint]] = []
            var y: Float = 0.3
            while y < 0.74 {
                let halfWidth: Float = y < 0.55 ? 0.37 : 0.37 * (0.75 - y) / 0.2
                var x = -halfWidth
                while x + cell <= halfWidth {
                    let r = random.unit()
                    let tile = p.rectangle(x + 0.003, y + 0.003, x + cell - 0.003, y + cell - 0.003)
                    if r < 0.3 { lighter.append(tile) } else if r < 0.55 { darker.append(tile) }
                    x += cell
                }
                y += cell
            }
            p.union(lighter, RGB(255, 236, 170), alpha: 0.35)
            p.union(darker, RGB(150, 96, 30), alpha: 0.25)
        }
        let robes = [RGB(40, 96, 120), RGB(150, 40, 40), RGB(236, 232, 220), RGB(52, 70, 140)]
        for i in -3...3 {
            let x = Float(i) * 0.095
            let tall: Float = i == 0 ? 0.2 : 0.15
            let y0: Float = i == 0 ? 0.36 : 0.34
            let robe = i == 0 ? RGB(236, 232, 220) : robes[(i + 3) % robes.count]
            p.ellipse(x, y0 + tall + 0.02, 0.032, 0.032, RGB(255, 240, 180), alpha: 0.9)
            p.poly([(x - 0.03, y0), (x + 0.03, y0), (x + 0.018, y0 + tall), (x - 0.018, y0 + tall)], robe.lit(by: c.light))
            p.ellipse(x, y0 + tall + 0.018, 0.016, 0.018, RGB(214, 170, 130).lit(by: c.light))
        }
        p.line(mosaic + [mosaic[0]], width: 0.012, c.accentLight)

        // Entrance arches under the mosaic.
        p.union([(-0.26, 0.075), (0, 0.09), (0.26, 0.075)].map { a in p.archShape(a.0 - a.1, a.0 + a.1, 0, top: 0.26) }, c.accentDeep)
        p.rect(-0.5, -0.03, 0.5, 0, c.accentLight)
    }

    /// Green Library's Bing Wing: a long tiled block of tall arched windows with a central
    /// entrance tower, a rose window above its great arch.
    static func library(_ p: LandmarkPen, _ c: PostcardPalette) {
        tiledRoof(p, c, x0: -0.86, x1: 0.86, y0: 0.35, y1: 0.45, inset: 0.07)
        p.rect(-0.82, 0, 0.82, 0.36, c.accent)
        p.rect(0.55, 0, 0.82, 0.36, c.accentShade, alpha: 0.3)
        p.rect(-0.82, 0.33, 0.82, 0.36, c.accentLight)
        p.rect(-0.82, 0, 0.82, 0.05, c.accentShade, alpha: 0.6)
        let xs: [Float] = [-0.72, -0.58, -0.44, -0.3, 0.3, 0.44, 0.58, 0.72]
        p.union(xs.map { x in p.archShape(x - 0.045, x + 0.045, 0.08, top: 0.29) }, c.glass)
        if p.shows(0.01, pixels: 1.5) {
            var mullions: [[PostcardPoint]] = []
            for x in xs {
                mullions.append(p.strokeShape([(x, 0.08), (x, 0.28)], width: p.pixel))
                mullions.append(p.strokeShape([(x - 0.045, 0.2), (x + 0.045, 0.2)], width: p.pixel))
            }
            p.union(mullions, c.accentLight, alpha: 0.7)
        }
        // Central tower and entrance.
        tiledRoof(p, c, x0: -0.22, x1: 0.22, y0: 0.56, y1: 0.68, inset: 0.14)
        p.rect(-0.19, 0, 0.19, 0.57, c.accent)
        p.rect(0.14, 0, 0.19, 0.57, c.accentShade)
        p.rect(-0.2, 0.54, 0.2, 0.57, c.accentLight)
        p.arch(-0.11, 0.11, 0, top: 0.3, c.accentLight)
        p.arch(-0.09, 0.09, 0, top: 0.28, c.accentDeep)
        p.ellipse(0, 0.42, 0.065, 0.065, c.accentLight)
        p.ellipse(0, 0.42, 0.05, 0.05, c.glass)
        if p.shows(0.05, pixels: 8) {
            let spokes = (0..<4).map { i -> [PostcardPoint] in
                let a = Float(i) * .pi / 4
                return p.strokeShape([(cos(a) * 0.05, 0.42 + sin(a) * 0.05), (-cos(a) * 0.05, 0.42 - sin(a) * 0.05)], width: p.pixel * 1.2)
            }
            p.union(spokes, c.accentLight)
        }
        p.rect(-0.3, -0.03, 0.3, 0, c.accentLight)
    }

    /// The Cantor Arts Center: a neoclassical portico of six columns under a pediment, steps
    /// leading up, long windowed wings and exhibition banners.
    static func museum(_ p: LandmarkPen, _ c: PostcardPalette) {
        p.rect(-0.88, 0, 0.88, 0.4, c.accent)
        p.rect(0.5, 0, 0.88, 0.4, c.accentShade, alpha: 0.3)
        p.rect(-0.9, 0.4, 0.9, 0.44, c.accentLight)
        p.rect(-0.88, 0.44, 0.88, 0.47, c.accent)
        let windows: [Float] = [-0.8, -0.66, -0.52, 0.52, 0.66, 0.8]
        p.union(windows.map { x in p.rectangle(x - 0.035, 0.1, x + 0.035, 0.3) }, c.accentLight)
        p.union(windows.map { x in p.rectangle(x - 0.025, 0.11, x + 0.025, 0.29) }, c.glass)
        for (x, colour) in [(Float(-0.4), c.trim), (0.4, RGB(26, 90, 110).lit(by: c.light))] {
            p.rect(x - 0.03, 0.14, x + 0.03, 0.38, colour)
            p.rect(x - 0.03, 0.33, x + 0.03, 0.35, c.accentLight, alpha: 0.8)
        }
        // Portico.
        p.rect(-0.33, 0.06, 0.33, 0.4, c.accentDeep)
        p.rect(-0.06, 0.06, 0.06, 0.25, c.trim.scaled(0.7))
        p.rect(-0.36, 0.4, 0.36, 0.47, c.accentLight)
        p.poly([(-0.39, 0.47), (0.39, 0.47), (0, 0.63)], c.accent)
        p.poly([(-0.31, 0.49), (0.31, 0.49), (0, 0.6)], c.accentShade)
        var columns: [[PostcardPoint]] = []
        for i in 0..<6 {
            let x = -0.28 + Float(i) * 0.112
            columns.append(p.rectangle(x - 0.021, 0.07, x + 0.021, 0.38))
            columns.append(p.rectangle(x - 0.031, 0.375, x + 0.031, 0.4))
            columns.append(p.rectangle(x - 0.028, 0.06, x + 0.028, 0.075))
        }
        p.union(columns, c.accentLight)
        p.rect(-0.42, 0, 0.42, 0.02, c.accentLight)
        p.rect(-0.39, 0.02, 0.39, 0.04, c.accent)
        p.rect(-0.36, 0.04, 0.36, 0.06, c.accentLight)
    }

    /// Bing Concert Hall: an elliptical drum with a swept roof, standing on a glass lobby under a
    /// thin white canopy.
    static func hall(_ p: LandmarkPen, _ c: PostcardPalette) {
        // The drum, shaded in vertical strips as a cylinder lit from the left.
        let rx: Float = 0.5
        let bottom: Float = 0.19
        let top: Float = 0.6
        let strips = 28
        for i in 0..<strips {
            let a0 = Float.pi * Float(i) / Float(strips)
            let a1 = Float.pi * Float(i + 1) / Float(strips)
            let x0 = -cos(a0) * rx
            let x1 = -cos(a1) * rx
            let light = max(0, cos((a0 + a1) / 2 - 0.9))
            let colour = c.accentShade.mixed(with: c.accentLight, light * 0.9)
            p.poly([(x0, bottom - sin(a0) * 0.04), (x1, bottom - sin(a1) * 0.04), (x1, top + sin(a1) * 0.03), (x0, top + sin(a0) * 0.03)], colour)
        }
        if p.shows(0.05, pixels: 6) {
            let courses = (1..<7).map { k -> [PostcardPoint] in
                let y = bottom + (top - bottom) * Float(k) / 7
                return p.strokeShape(
                    (0...20).map { i in
                        let a = Float.pi * Float(i) / 20
                        return (-cos(a) * rx, y - sin(a) * 0.035 * (1 - Float(k) / 7) + sin(a) * 0.03 * Float(k) / 7)
                    },
                    width: p.pixel
                )
            }
            p.union(courses, c.accentShade, alpha: 0.35)
        }
        // The swept roof: a tilted lid, higher at the back.
        p.poly([(-0.56, 0.6), (-0.2, 0.66), (0.3, 0.75), (0.56, 0.7), (0.52, 0.63), (0.1, 0.6)], c.accentLight)
        p.poly([(-0.56, 0.6), (0.1, 0.6), (0.52, 0.63), (0.5, 0.61), (0.1, 0.585), (-0.52, 0.585)], c.accentShade, alpha: 0.6)

        // Glass lobby with mullions, under the canopy.
        p.poly([(-0.8, 0), (0.8, 0), (0.8, 0.17), (-0.8, 0.17)], top: c.glass.mixed(with: c.skyHorizon, 0.45), bottom: c.glass)
        if p.shows(0.05, pixels: 3) {
            var mullions: [[PostcardPoint]] = []
            var x: Float = -0.78
            while x < 0.8 {
                mullions.append(p.strokeShape([(x, 0), (x, 0.17)], width: p.pixel))
                x += 0.07
            }
            p.union(mullions, c.accentLight, alpha: 0.6)
        }
        p.rect(-0.9, 0.17, 0.9, 0.2, RGB(244, 242, 236).lit(by: c.light))
        p.rect(-0.9, 0.165, 0.9, 0.175, c.accentShade, alpha: 0.5)
    }
}
