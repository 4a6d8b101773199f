import Foundation

/// The sculptural spots: the Rodin Sculpture Garden, the Angel of Grief, the White Plaza
/// fountain and the Arizona Cactus Garden.
extension PostcardLandmarks {
    /// The Rodin Sculpture Garden: The Gates of Hell (a bronze portal alive with relief figures,
    /// The Thinker in its tympanum, three Shades on top) against a hedge, with figures on plinths.
    static func sculpture(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let stone = RGB(226, 220, 204).lit(by: c.light)
        var hedge = [p.rectangle(-1.0, 0, 1.0, 0.34)]
        var x: Float = -1.0
        while x <= 1.0 {
            hedge.append(p.ellipseShape(x, 0.34, 0.07, 0.035))
            x += 0.1
        }
        p.union(hedge, c.foliageDark)
        p.rect(-1.0, 0.3, 1.0, 0.33, c.foliage, alpha: 0.5)

        // The portal.
        p.rect(-0.36, 0, 0.36, 0.06, stone)
        p.rect(-0.3, 0.06, 0.3, 0.84, c.accent)
        p.rect(0.24, 0.06, 0.3, 0.84, c.accentShade, alpha: 0.6)
        p.rect(-0.33, 0.82, 0.33, 0.88, c.accentLight)
        p.rect(-0.33, 0.6, 0.33, 0.63, c.accentLight, alpha: 0.8)
        p.rect(-0.22, 0.08, 0.22, 0.57, c.accentShade)
        p.rect(-0.22, 0.64, 0.22, 0.8, c.accentDeep)
        // Relief: many small writhing figures, suggested by upright strokes of light and shadow.
        if p.shows(0.02, pixels: 3) {
            var lit: [[PostcardPoint]] = []
            var dark: [[PostcardPoint]] = []
            for k in 0..<90 {
                let fx = random.float(-0.28, 0.28)
                let fy = random.float(0.1, 0.8)
                let figure = p.ellipseShape(fx, fy, random.float(0.007, 0.012), random.float(0.02, 0.035), rotation: random.float(-0.5, 0.5))
                if k % 2 == 0 { lit.append(figure) } else { dark.append(figure) }
            }
            p.union(dark, c.accentDeep, alpha: 0.35)
            p.union(lit, c.accentLight, alpha: 0.3)
        }
        p.line([(0, 0.08), (0, 0.57)], width: 0.008, c.accentDeep)
        seatedThinker(p, x: -0.03, y: 0.64, size: 0.15, c.accentLight)
        for (i, fx) in [-0.08, 0, 0.08].enumerated() {
            standingFigure(p, x: Float(fx), y: 0.88, size: 0.13, lean: Float(i - 1) * 0.02, c.accent)
        }

        // Figures on plinths either side.
        for side: Float in [-1, 1] {
            let px = side * 0.72
            p.rect(px - 0.13, 0, px + 0.13, 0.18, stone)
            p.rect(px - 0.13, 0.16, px + 0.13, 0.18, stone.scaled(0.85))
            standingFigure(p, x: px - 0.05, y: 0.18, size: 0.36, lean: -0.03, c.accentShade)
            standingFigure(p, x: px + 0.06, y: 0.18, size: 0.33, lean: 0.02, c.accent)
        }
    }

    /// A robed standing figure with a bowed head, `size` units tall from its feet at (`x`, `y`).
    static func standingFigure(_ p: LandmarkPen, x: Float, y: Float, size s: Float, lean: Float, _ colour: RGB) {
        let body: [[PostcardPoint]] = [
            p.points([(x - 0.16 * s, y), (x + 0.16 * s, y), (x + 0.15 * s + lean, y + 0.78 * s), (x - 0.15 * s + lean, y + 0.78 * s)]),
            p.ellipseShape(x + lean * 1.5, y + 0.86 * s, 0.075 * s, 0.09 * s),
            p.strokeShape([(x - 0.14 * s + lean, y + 0.74 * s), (x - 0.22 * s, y + 0.45 * s), (x - 0.12 * s, y + 0.3 * s)], width: 0.07 * s),
            p.strokeShape([(x + 0.14 * s + lean, y + 0.74 * s), (x + 0.2 * s, y + 0.5 * s), (x + 0.06 * s + lean, y + 0.8 * s)], width: 0.07 * s),
        ]
        p.union(body, colour)
    }

    /// The Thinker, in profile: seated on a rock, leaning forward, chin on his hand, elbow on knee.
    static func seatedThinker(_ p: LandmarkPen, x: Float, y: Float, size s: Float, _ colour: RGB) {
        let hip = (x - 0.1 * s, y + 0.38 * s)
        let knee = (x + 0.25 * s, y + 0.45 * s)
        let shoulder = (x + 0.06 * s, y + 0.8 * s)
        let body: [[PostcardPoint]] = [
            p.rectangle(x - 0.25 * s, y, x + 0.05 * s, y + 0.34 * s),
            p.strokeShape([hip, knee], width: 0.17 * s),
            p.strokeShape([knee, (x + 0.28 * s, y + 0.02 * s)], width: 0.12 * s),
            p.strokeShape([hip, shoulder], width: 0.24 * s),
            p.ellipseShape(x + 0.2 * s, y + 0.83 * s, 0.1 * s, 0.11 * s),
            p.strokeShape([shoulder, (x + 0.24 * s, y + 0.5 * s), (x + 0.22 * s, y + 0.74 * s)], width: 0.09 * s),
        ]
        p.union(body, colour)
    }

    /// The Angel of Grief: a marble angel collapsed over an altar, face buried in her arm, one wing
    /// arching over her head and the other raised behind, set against dark cypresses and foliage.
    static func angel(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        // A dark bank of foliage behind, so the white marble stands out as it does in the Arboretum.
        var bank = [p.rectangle(-0.9, 0, 0.9, 0.5)]
        for k in 0..<10 {
            let x = -0.9 + Float(k) * 0.2
            bank.append(p.ellipseShape(x, 0.5 + random.float(0, 0.12), random.float(0.14, 0.2), random.float(0.12, 0.18)))
        }
        p.union(bank, c.foliageDark.mixed(with: c.haze, 0.15))
        for (dx, tall) in [(Float(-0.72), Float(1.0)), (-0.5, 0.82), (0.52, 0.92), (0.74, 0.78)] {
            let foot = p.point(dx, 0.05)
            PostcardScenery.cypress(p.canvas, x: foot.x, base: foot.y, height: tall * p.unit, palette: c)
        }
        let stone = c.accent.mixed(with: RGB(170, 166, 158), 0.35)
        p.rect(-0.6, 0, 0.6, 0.05, stone)
        p.rect(-0.52, 0.05, 0.52, 0.1, stone.mixed(with: c.accentLight, 0.4))

        // The far wing, raised behind her back.
        p.poly(wing(root: (0.16, 0.6), control: (0.32, 1.12), tip: (0.56, 0.58), depth: 0.2), c.accentShade)
        // The altar.
        p.rect(-0.3, 0.1, 0.3, 0.44, c.accent)
        p.rect(0.22, 0.1, 0.3, 0.44, c.accentShade)
        p.rect(-0.23, 0.17, 0.15, 0.36, c.accentShade, alpha: 0.3)
        if p.shows(0.01, pixels: 2) {
            let rows = [0.3, 0.26, 0.22].map { (y: Float) in p.strokeShape([(-0.17, y), (0.09, y)], width: 0.008) }
            p.union(rows, c.accentDeep, alpha: 0.45)
        }
        p.rect(-0.34, 0.44, 0.34, 0.48, c.accentLight)
        // Her body: kneeling at the altar's end, slumped across its top, robe falling to the step.
        p.poly(
            [
                (0.12, 0.47), (-0.12, 0.48), (-0.15, 0.53), (-0.04, 0.6), (0.1, 0.64), (0.26, 0.61), (0.37, 0.5),
                (0.43, 0.34), (0.47, 0.1), (0.3, 0.1), (0.31, 0.3), (0.26, 0.46),
            ],
            c.accent
        )
        let folds: [[(Float, Float)]] = [[(0.35, 0.46), (0.38, 0.12)], [(0.41, 0.4), (0.43, 0.12)], [(0.08, 0.6), (0.24, 0.5)]]
        p.union(folds.map { p.strokeShape($0, width: 0.012) }, c.accentShade, alpha: 0.7)
        // Head buried in her folded arm; the other arm hangs over the altar's front.
        p.ellipse(-0.19, 0.535, 0.065, 0.05, c.accent)
        p.ellipse(-0.17, 0.55, 0.05, 0.032, c.accentShade, alpha: 0.7)
        p.line([(-0.32, 0.49), (-0.08, 0.51)], width: 0.05, c.accentLight)
        p.line([(-0.27, 0.48), (-0.3, 0.36), (-0.29, 0.3)], width: 0.04, c.accentLight, endWidth: 0.028)
        // The near wing arching over her head, its long feathers hanging past the altar's edge.
        p.poly(wing(root: (0.1, 0.6), control: (-0.1, 1.16), tip: (-0.44, 0.4), depth: 0.2), c.accent)
        if p.shows(0.3, pixels: 30) {
            let feathers = [Float(0.25), 0.45, 0.65].map { (t: Float) -> [PostcardPoint] in
                let q = quadratic((0.1, 0.6), (-0.1, 1.16), (-0.44, 0.4), t)
                return p.strokeShape([q, (q.0 + 0.06 - t * 0.05, q.1 - 0.14 * (1 - t * 0.5))], width: p.pixel * 1.4)
            }
            p.union(feathers, c.accentShade, alpha: 0.55)
        }
    }

    /// A point on a quadratic Bézier curve.
    static func quadratic(_ a: (Float, Float), _ b: (Float, Float), _ c: (Float, Float), _ t: Float) -> (Float, Float) {
        let u = 1 - t
        return (u * u * a.0 + 2 * u * t * b.0 + t * t * c.0, u * u * a.1 + 2 * u * t * b.1 + t * t * c.1)
    }

    /// A wing's outline: its leading edge from `root` over `control` to `tip`, and a trailing edge
    /// of feather tips sagging `depth` below it, meeting it again at the tip.
    static func wing(root: (Float, Float), control: (Float, Float), tip: (Float, Float), depth: Float) -> [(Float, Float)] {
        let steps = 20
        let sag = (control.0 + ((root.0 + tip.0) / 2 - control.0) * 0.5, control.1 - depth * 2.2)
        var leading: [(Float, Float)] = []
        var trailing: [(Float, Float)] = []
        for i in 0...steps {
            let t = Float(i) / Float(steps)
            leading.append(quadratic(root, control, tip, t))
            let q = quadratic(root, sag, tip, t)
            // Every other point dips a little, so the edge reads as separate feather tips.
            let dip: Float = i % 2 == 1 && i < steps ? depth * 0.18 : 0
            trailing.append((q.0, q.1 - dip))
        }
        return leading + trailing.reversed()
    }

    /// White Plaza's fountain, "The Claw": curved bronze tines rising and hooking inwards from a
    /// round pool, water arcing off them, a low building and trees behind.
    static func fountain(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let b = LandmarkPen(canvas: p.canvas, originX: p.originX, baseY: stage.horizon + stage.height * 0.005, unit: p.unit * 0.55, flip: p.flip)
        // The plaza's paving first, then the union building behind standing on it.
        let paving = c.groundNear.mixed(with: RGB(222, 210, 190), 0.5).lit(by: c.light)
        p.ellipse(0, 0.02, 1.05, 0.24, paving)
        if p.shows(0.5, pixels: 40) {
            let joints = [0.7, 0.85, 1.0].map { (r: Float) in p.strokeShape(ellipsePath(0, 0.02, r, r * 0.23), width: p.pixel) }
            p.union(joints, paving.scaled(0.9), alpha: 0.6)
        }
        b.rect(-1.7, 0, 1.7, 0.34, RGB(236, 226, 206).lit(by: c.light))
        b.rect(-1.7, 0.1, 1.7, 0.24, c.glass)
        b.rect(-1.75, 0.32, 1.75, 0.36, c.tile)
        p.ellipse(0, 0.04, 0.62, 0.14, RGB(214, 206, 192).lit(by: c.light))
        p.ellipse(0, 0.045, 0.56, 0.11, c.water)
        p.ellipse(0, 0.05, 0.4, 0.07, c.water.mixed(with: c.skyHorizon, 0.35))
        let ripples = [0.2, 0.32, 0.44].map { (r: Float) in p.strokeShape(ellipsePath(0, 0.05, r, r * 0.2), width: 0.006) }
        p.union(ripples, c.skyHorizon, alpha: 0.4)

        // The tines: back ones darker, each sweeping out then hooking in like a claw.
        var tips: [(Float, Float)] = []
        for pass in 0..<2 {
            var shapes: [[PostcardPoint]] = []
            var highlights: [[PostcardPoint]] = []
            for i in stride(from: pass, to: 7, by: 2) {
                let t = Float(i) / 6 - 0.5
                let tip = (t * 0.42, 0.7 - abs(t) * 0.26)
                let path = p.curve((t * 0.2, 0.05), (t * 1.05, 0.36), tip)
                shapes.append(p.strokeShape(path, width: 0.055, endWidth: 0.014))
                highlights.append(p.strokeShape(path.map { ($0.0 - 0.01, $0.1) }, width: 0.012, endWidth: 0.004))
                tips.append(tip)
            }
            p.union(shapes, pass == 0 ? c.accentShade : c.accent)
            p.union(highlights, c.accentLight, alpha: 0.6)
        }
        // Water: jets arcing from the tips into the pool, a splash at the centre.
        var jets: [[PostcardPoint]] = []
        for tip in tips {
            let end = (max(-0.5, min(0.5, tip.0 * 2.4 + (tip.0 < 0 ? -0.08 : 0.08))), Float(0.06))
            jets.append(p.strokeShape(p.curve(tip, (tip.0 * 1.8, tip.1 + 0.1), end), width: 0.01, endWidth: 0.004))
        }
        p.union(jets, RGB(246, 250, 255), alpha: 0.6)
        var spray: [[PostcardPoint]] = []
        for _ in 0..<30 {
            let r = random.float(0.003, 0.008)
            spray.append(p.ellipseShape(random.float(-0.5, 0.5), random.float(0.05, 0.55), r, r))
        }
        p.union(spray, RGB(246, 250, 255), alpha: 0.55)
        p.ellipse(0, 0.06, 0.14, 0.03, RGB(246, 250, 255), alpha: 0.7)
    }

    /// Design points of an ellipse, for stroking rings.
    static func ellipsePath(_ cx: Float, _ cy: Float, _ rx: Float, _ ry: Float) -> [(Float, Float)] {
        (0...40).map { i in
            let a = 2 * Float.pi * Float(i) / 40
            return (cx + cos(a) * rx, cy + sin(a) * ry)
        }
    }
}
