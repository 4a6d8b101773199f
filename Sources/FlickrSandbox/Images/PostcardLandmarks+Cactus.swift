import Foundation

/// The Arizona Cactus Garden.
extension PostcardLandmarks {
    /// The Arizona Cactus Garden: branching saguaros, ribbed barrel cacti crowned with yellow
    /// flowers, spiky agaves and prickly pears spread over a gravel bed, a path winding through,
    /// palms behind. Plants stand at different depths, smaller towards the horizon.
    static func cactusGarden(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        for k in 0..<4 {
            let x = w * (0.08 + 0.28 * Float(k)) + random.float(-0.04, 0.04) * w
            PostcardScenery.palm(
                canvas,
                x: x,
                base: horizon + 1,
                height: h * random.float(0.22, 0.32),
                lean: random.float(-0.05, 0.05),
                palette: c,
                random: &random
            )
        }
        PostcardScenery.oak(
            canvas,
            x: w * random.float(0.2, 0.8),
            base: horizon + 1,
            size: h * 0.12,
            sunOnLeft: stage.sunOnLeft,
            palette: c,
            random: &random
        )
        let path = PostcardPath.curve(
            PostcardPoint(w * 0.5, h + 2),
            PostcardPoint(w * (0.5 + 0.3 * p.flip), horizon + (h - horizon) * 0.45),
            PostcardPoint(w * 0.45, horizon + 1),
            segments: 24
        )
        canvas.fill(PostcardPath.stroke(path, width: w * 0.2, endWidth: w * 0.015), c.groundFar.mixed(with: RGB(246, 236, 214), 0.45))

        /// One plant of the garden and its proportions.
        enum Plant {
            case saguaro(Float, [(Float, Float, Float)])
            case barrel(Float)
            case agave(Float)
            case pear
            case rock(Float)
        }
        let garden: [(x: Float, depth: Float, plant: Plant)] = [
            (0.1, 0.0, .saguaro(0.7, [(1, 0.4, 0.7)])), (0.62, 0.06, .saguaro(0.5, [(-1, 0.35, 0.6), (1, 0.5, 0.75)])),
            (0.88, 0.1, .barrel(0.08)), (0.22, 0.25, .agave(0.16)), (0.78, 0.3, .saguaro(0.62, [(1, 0.3, 0.55)])),
            (0.4, 0.35, .rock(0.05)), (0.12, 0.42, .barrel(0.07)), (0.3, 0.55, .saguaro(0.95, [(-1, 0.32, 0.64), (1, 0.46, 0.76)])),
            (0.66, 0.6, .pear), (0.92, 0.72, .agave(0.2)), (0.46, 0.78, .barrel(0.08)), (0.55, 0.82, .barrel(0.06)),
            (0.06, 0.92, .agave(0.22)), (0.8, 0.95, .rock(0.06)),
        ]
        let reach = h * 0.78
        for item in garden {
            let x = w * (0.5 + p.flip * (item.x - 0.5))
            let pen = LandmarkPen(
                canvas: canvas,
                originX: x,
                baseY: horizon + (h - horizon) * item.depth + h * 0.01,
                unit: reach * (0.35 + 0.65 * item.depth),
                flip: p.flip
            )
            pen.ellipse(0.02, 0, 0.12, 0.015, c.groundNear.scaled(0.8), alpha: 0.35)
            switch item.plant {
            case .saguaro(let height, let arms): saguaro(pen, height: height, arms: arms, palette: c)
            case .barrel(let r): barrel(pen, r: r, palette: c)
            case .agave(let size): agave(pen, size: size, palette: c)
            case .pear: pricklyPear(pen, palette: c)
            case .rock(let size): pen.ellipse(0, size * 0.4, size * 1.8, size, RGB(176, 168, 156).lit(by: c.light))
            }
        }
    }

    /// A barrel cactus of radius `r`: ribbed, shaded away from the sun, crowned with flowers.
    static func barrel(_ p: LandmarkPen, r: Float, palette c: PostcardPalette) {
        p.ellipse(0, r * 0.9, r, r * 1.05, c.accentShade)
        p.ellipse(-r * 0.15, r * 0.95, r * 0.75, r * 0.95, c.accent)
        if p.shows(r, pixels: 8) {
            let ribs = [-0.6, -0.2, 0.2, 0.6].map { (t: Float) in
                p.strokeShape(p.curve((t * r * 0.7, 0.02), (t * r * 1.3, r), (t * r * 0.5, r * 1.85)), width: p.pixel)
            }
            p.union(ribs, c.accentLight, alpha: 0.6)
        }
        p.union([-0.4, 0, 0.4].map { (t: Float) in p.ellipseShape(t * r, r * 1.9, r * 0.22, r * 0.18) }, RGB(250, 200, 40).lit(by: c.light))
    }

    /// An agave: a rosette of pointed blue-green leaves.
    static func agave(_ p: LandmarkPen, size: Float, palette c: PostcardPalette) {
        let colour = c.accent.mixed(with: RGB(120, 160, 160).lit(by: c.light), 0.5)
        var back: [[PostcardPoint]] = []
        var front: [[PostcardPoint]] = []
        for k in 0..<11 {
            let a = Float.pi * (0.06 + 0.88 * Float(k) / 10)
            let length = size * (k % 2 == 0 ? 1 : 0.75)
            let tip = (cos(a) * length, sin(a) * length * 1.1)
            let side = (-sin(a) * size * 0.11, cos(a) * size * 0.11)
            let leaf = p.points([(side.0, side.1), tip, (-side.0, -side.1)])
            if k % 2 == 0 { back.append(leaf) } else { front.append(leaf) }
        }
        p.union(back, colour.scaled(0.8))
        p.union(front, colour)
    }

    /// A prickly pear: flat oval pads stacked at angles, with magenta fruit.
    static func pricklyPear(_ p: LandmarkPen, palette c: PostcardPalette) {
        let pads: [(Float, Float, Float)] = [(-0.02, 0.09, 0.2), (0.06, 0.2, -0.4), (-0.09, 0.21, 0.6), (0.02, 0.31, 0.1), (0.12, 0.1, -0.3)]
        p.union(pads.map { p.ellipseShape($0.0, $0.1, 0.06, 0.085, rotation: $0.2) }, c.accent.mixed(with: RGB(150, 170, 80), 0.3))
        p.union(pads.map { p.ellipseShape($0.0 - 0.012, $0.1 + 0.01, 0.035, 0.06, rotation: $0.2) }, c.accentLight, alpha: 0.35)
        p.union(
            [(Float(0.05), Float(0.4)), (-0.07, 0.29), (0.16, 0.27)].map { p.ellipseShape($0.0, $0.1, 0.015, 0.018) },
            RGB(200, 40, 110).lit(by: c.light)
        )
    }

    /// A saguaro `height` units tall with upturned arms (side, height it branches at, height it
    /// reaches), shaded on the side away from the sun and ribbed with light lines.
    static func saguaro(_ p: LandmarkPen, height: Float, arms: [(Float, Float, Float)], palette c: PostcardPalette) {
        let trunk: Float = 0.1 * height + 0.03
        let armWidth = trunk * 0.72
        func outline(width scale: Float, dx: Float) -> [[PostcardPoint]] {
            var parts = [p.strokeShape([(dx, 0), (dx, height - trunk / 2)], width: trunk * scale)]
            parts.append(p.ellipseShape(dx, height - trunk / 2, trunk * scale / 2, trunk / 2))
            for (side, from, to) in arms {
                let out = side * trunk * 1.7
                let elbow = p.curve((0, from * height), (out + dx, from * height), (out + dx, from * height + trunk * 1.2), segments: 8)
                parts.append(p.strokeShape(elbow + [(out + dx, to * height - armWidth / 2)], width: armWidth * scale))
                parts.append(p.ellipseShape(out + dx, to * height - armWidth / 2, armWidth * scale / 2, armWidth / 2))
            }
            return parts
        }
        p.union(outline(width: 1, dx: 0), c.accentShade)
        p.union(outline(width: 0.6, dx: -trunk * 0.15), c.accent)
        if p.shows(trunk, pixels: 10) {
            let ribs = [-0.28, 0.08].map { (t: Float) in p.strokeShape([(t * trunk, 0.02), (t * trunk, height - trunk * 0.6)], width: p.pixel) }
            p.union(ribs, c.accentLight, alpha: 0.55)
        }
    }
}
