import Foundation

/// The open spaces: the Oval, Lake Lagunita, the Dish, the Stadium and Frost Amphitheater.
/// These compose the whole scene rather than one building in it.
extension PostcardLandmarks {
    /// The Oval: a green ellipse ringed by a drive, a cardinal flower-bed "S" in the middle, palms
    /// receding on both sides towards the Main Quad on the horizon.
    static func lawn(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        // The Quad in the distance, kept small so the lawn leads the eye to it.
        let quadUnit = min(p.unit * 0.55, (horizon - h * 0.06) / 0.66)
        arcade(LandmarkPen(canvas: canvas, originX: p.originX, baseY: horizon + h * 0.01, unit: quadUnit, flip: p.flip), c)

        let cy = horizon + (h - horizon) * 0.62
        let rx = w * 0.62
        let ry = (h - horizon) * 0.5
        canvas.fillEllipse(w / 2, cy, rx * 1.06, ry * 1.12, RGB(214, 204, 182).lit(by: c.light))
        let lawn = c.groundNear.mixed(with: RGB(96, 168, 64), 0.55).lit(by: c.light)
        canvas.fill(PostcardPath.ellipse(w / 2, cy, rx, ry), top: lawn.mixed(with: c.skyHorizon, 0.15), bottom: lawn.scaled(0.9))
        // The flower "S", squashed by perspective.
        let sx = rx * 0.16
        let sy = ry * 0.34
        var s: [PostcardPoint] = []
        for i in 0...18 {
            let a = Float.pi / 6 + Float(i) / 18 * (Float.pi * 4 / 3)
            s.append(PostcardPoint(w / 2 + cos(a) * sx * 0.5, cy - sy * 0.5 - sin(a) * sy * 0.5))
        }
        for i in 1...18 {
            let a = Float.pi / 2 - Float(i) / 18 * (Float.pi * 4 / 3)
            s.append(PostcardPoint(w / 2 + cos(a) * sx * 0.5, cy + sy * 0.5 - sin(a) * sy * 0.5))
        }
        canvas.fill(PostcardPath.stroke(s, width: max(sx * 0.24, 1.5)), c.flowers)
        if sx > 20 {
            canvas.fill(PostcardPath.stroke(s, width: sx * 0.06), RGB(255, 210, 220), alpha: 0.35)
        }

        // Palm rows receding towards the Quad.
        for side: Float in [-1, 1] {
            for k in 0..<5 {
                let t = Float(k) / 4
                let x = w / 2 + side * w * (0.52 - 0.3 * t) + random.float(-0.01, 0.01) * w
                let base = horizon + (h - horizon) * (0.75 - 0.68 * t)
                let tall = (h - horizon) * (1.1 - 0.8 * t) + h * 0.05
                PostcardScenery.palm(canvas, x: x, base: base, height: tall, lean: side * random.float(0, 0.06), palette: c, random: &random)
            }
        }
    }

    /// Lake Lagunita: foothills in the landmark colour behind an oak-lined shore and a boathouse,
    /// all mirrored in rippled water with reeds in the foreground.
    static func lake(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        let ridge = c.groundFar.mixed(with: c.haze, 0.5)
        PostcardScenery.hills(canvas, horizon: horizon, height: h * 0.22, top: ridge, bottom: ridge.mixed(with: c.groundFar, 0.4), random: &random)
        var x: Float = -w * 0.02
        while x < w * 1.02 {
            let size = h * random.float(0.06, 0.11)
            PostcardScenery.oak(canvas, x: x, base: horizon + 1, size: size, sunOnLeft: stage.sunOnLeft, palette: c, random: &random)
            x += max(size * random.float(1.0, 2.2), w / 40)
        }
        // The boathouse and its dock.
        let bx = p.originX + p.flip * w * 0.18
        let s = h * 0.09
        canvas.fillRect(bx - s * 0.9, horizon - s * 0.55, bx + s * 0.9, horizon + 1, c.accentShade)
        canvas.fill(
            [PostcardPoint(bx - s * 1.05, horizon - s * 0.5), PostcardPoint(bx + s * 1.05, horizon - s * 0.5), PostcardPoint(bx, horizon - s * 1.0)],
            c.tile
        )
        canvas.fillRect(bx - s * 0.25, horizon - s * 0.35, bx + s * 0.25, horizon, c.accentDeep)
        canvas.fillRect(bx - s * 1.8, horizon - s * 0.08, bx + s * 0.9, horizon + s * 0.03, c.trunk)

        let top = Int(horizon.rounded())
        canvas.reflect(
            top: top,
            bottom: canvas.height,
            tint: c.water,
            tintAmount: 0.4,
            amplitude: h * 0.006,
            wavelength: h * 0.018,
            phase: random.float(0, 6)
        )
        var glints: [[PostcardPoint]] = []
        for _ in 0..<14 {
            let gy = horizon + (h - horizon) * random.float(0.05, 0.8)
            let gx = random.float(0, w)
            let len = w * random.float(0.02, 0.08) * (0.4 + (gy - horizon) / (h - horizon))
            glints.append(PostcardPath.ellipse(gx, gy, len, max(0.6, h * 0.0025)))
        }
        canvas.fill(glints, c.skyHorizon.mixed(with: RGB(255, 255, 255), 0.5), alpha: 0.45)

        // Near shore with reeds, at both bottom corners.
        for side: Float in [0, 1] {
            let x0 = side * w
            canvas.fill(PostcardPath.ellipse(x0, h * 1.02, w * 0.26, h * 0.09), c.groundNear.mixed(with: c.foliageDark, 0.3))
            var reeds: [[PostcardPoint]] = []
            for _ in 0..<12 {
                let rx = x0 + (side == 0 ? 1 : -1) * w * random.float(0, 0.2)
                let tall = h * random.float(0.06, 0.16)
                let bend = random.float(-0.3, 0.3) * tall
                reeds.append(
                    PostcardPath.stroke(
                        PostcardPath.curve(PostcardPoint(rx, h), PostcardPoint(rx, h - tall * 0.6), PostcardPoint(rx + bend, h - tall), segments: 6),
                        width: max(h * 0.006, 1),
                        endWidth: 0.6
                    )
                )
            }
            canvas.fill(reeds, c.foliageDark)
        }
    }

    /// The Dish: layered golden foothills, a trail winding up, and the big white radio telescope
    /// on its lattice mount, tilted to the sky.
    static func dish(_ p: LandmarkPen, _ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        let far = c.groundFar.mixed(with: c.haze, 0.55)
        PostcardScenery.hills(canvas, horizon: horizon, height: h * 0.16, top: far, bottom: far.mixed(with: c.groundFar, 0.4), random: &random)
        // The dish's own hill: a smooth crest under the landmark.
        let crest = horizon - h * 0.06
        var hill: [PostcardPoint] = [PostcardPoint(-1, h + 1)]
        for i in 0...40 {
            let t = Float(i) / 40
            let x = t * (w + 2) - 1
            let d = (x - p.originX) / (w * 0.55)
            hill.append(PostcardPoint(x, crest + (h - crest) * min(1, d * d * 0.7) + sin(t * 7 + 1) * h * 0.01))
        }
        hill.append(PostcardPoint(w + 1, h + 1))
        canvas.fill(hill, top: c.groundFar, bottom: c.groundNear)
        let trail = PostcardPath.curve(
            PostcardPoint(w * 0.62, h + 2),
            PostcardPoint(p.originX - p.flip * w * 0.35, h * 0.85),
            PostcardPoint(p.originX + p.flip * w * 0.05, crest + h * 0.01),
            segments: 24
        )
        canvas.fill(PostcardPath.stroke(trail, width: w * 0.04, endWidth: w * 0.004), c.groundFar.mixed(with: RGB(250, 240, 220), 0.45))
        for _ in 0..<3 {
            let ox = random.float(0.05, 0.95) * w
            guard abs(ox - p.originX) > w * 0.15 else { continue }
            let d = (ox - p.originX) / (w * 0.55)
            PostcardScenery.oak(
                canvas,
                x: ox,
                base: crest + (h - crest) * min(1, d * d * 0.7) + h * 0.02,
                size: h * random.float(0.06, 0.1),
                sunOnLeft: stage.sunOnLeft,
                palette: c,
                random: &random
            )
        }

        // The telescope, standing on the crest and scaled to the hill.
        let d = LandmarkPen(canvas: canvas, originX: p.originX, baseY: crest + h * 0.012, unit: min(p.unit * 0.75, w * 0.6), flip: p.flip)
        var lattice: [[PostcardPoint]] = []
        for side: Float in [-1, 1] {
            lattice.append(d.strokeShape([(side * 0.24, 0), (side * 0.05, 0.44)], width: 0.028))
        }
        for k in 0..<4 {
            let y0 = Float(k) * 0.11
            let y1 = y0 + 0.11
            let x0 = 0.24 - y0 * 0.43
            let x1 = 0.24 - y1 * 0.43
            lattice.append(d.strokeShape([(-x0, y0), (x1, y1)], width: 0.01))
            lattice.append(d.strokeShape([(x0, y0), (-x1, y1)], width: 0.01))
        }
        d.union(lattice, c.accentShade)
        d.rect(-0.09, 0.4, 0.09, 0.48, c.accentShade)
        let tilt: Float = 0.55
        d.ellipse(0.07, 0.6, 0.4, 0.2, c.accentShade, rotation: tilt)
        d.ellipse(0, 0.66, 0.42, 0.13, c.accent, rotation: tilt)
        d.ellipse(-0.03, 0.69, 0.3, 0.08, c.accentLight, alpha: 0.5, rotation: tilt)
        // Feed legs to the receiver at the focus, in front of the dish's face.
        let focus: (Float, Float) = (-0.22, 0.98)
        var legs: [[PostcardPoint]] = []
        for a: Float in [0, .pi / 2, .pi, 1.5 * .pi] {
            let ex = cos(a) * 0.42
            let ey = sin(a) * 0.13
            let rim = (ex * cos(tilt) - ey * sin(tilt), 0.66 + ex * sin(tilt) + ey * cos(tilt))
            legs.append(d.strokeShape([rim, focus], width: 0.008))
        }
        d.union(legs, c.accentShade)
        d.rect(focus.0 - 0.03, focus.1 - 0.02, focus.0 + 0.03, focus.1 + 0.03, c.accentShade)
    }

    /// Stanford Stadium from high in the stands: tiers of cardinal seats wrapping a striped field.
    static func stadium(_ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        PostcardScenery.treeline(canvas, horizon: horizon, size: h * 0.03, color: c.foliageDark.mixed(with: c.haze, 0.3), random: &random)
        let cx = w / 2
        let cy = horizon + (h - horizon) * 0.95
        let rxOut = w * 0.78
        let ryOut = (h - horizon) * 0.95
        canvas.fillEllipse(cx, cy, rxOut * 1.01, ryOut * 1.01, c.accentShade.mixed(with: c.accentDeep, 0.5))
        let tiers = 9
        for i in 0..<tiers {
            let t = Float(i) / Float(tiers)
            let shade = i % 2 == 0 ? c.accent : c.accent.mixed(with: c.accentShade, 0.45)
            canvas.fillEllipse(cx, cy + ryOut * 0.06 * t, rxOut * (1 - 0.4 * t), ryOut * (1 - 0.55 * t), shade)
        }
        // Radial aisles.
        var aisles: [[PostcardPoint]] = []
        for k in 0..<13 {
            let a = Float.pi + Float.pi * (Float(k) + 0.5) / 13
            let inner = PostcardPoint(cx + cos(a) * rxOut * 0.6, cy + ryOut * 0.06 + sin(a) * ryOut * 0.45)
            let outer = PostcardPoint(cx + cos(a) * rxOut, cy + sin(a) * ryOut)
            aisles.append(PostcardPath.stroke([inner, outer], width: max(1, w * 0.003)))
        }
        canvas.fill(aisles, c.accentLight, alpha: 0.7)
        // Spectators, where dots are big enough to be people.
        let dot = max(1, w * 0.0035)
        if dot >= 1.5 {
            var crowd: [[PostcardPoint]] = []
            var pale: [[PostcardPoint]] = []
            var crowdRandom = stage.random(40)
            for _ in 0..<600 {
                let a = Float.pi * (1 + crowdRandom.unit())
                let r = crowdRandom.float(0.62, 0.98)
                let px = cx + cos(a) * rxOut * r
                let py = cy + sin(a) * ryOut * (r - 0.02)
                let shape = PostcardPath.ellipse(px, py, dot, dot)
                if crowdRandom.chance(0.5) { crowd.append(shape) } else { pale.append(shape) }
            }
            canvas.fill(crowd, c.accentDeep, alpha: 0.7)
            canvas.fill(pale, RGB(250, 246, 236), alpha: 0.7)
        }
        // The field: perspective trapezoid in stripes, end zones, yard lines.
        let fy0 = cy - ryOut * 0.36
        let fy1 = cy + ryOut * 0.12
        let topHalf = rxOut * 0.42
        let bottomHalf = rxOut * 0.56
        canvas.fillEllipse(cx, cy + ryOut * 0.06, rxOut * 0.6, ryOut * 0.45, c.groundNear.mixed(with: RGB(60, 120, 50), 0.4))
        let stripes = 12
        for i in 0..<stripes {
            let t0 = Float(i) / Float(stripes)
            let t1 = Float(i + 1) / Float(stripes)
            func at(_ t: Float, _ y: Float, _ half: Float) -> PostcardPoint { PostcardPoint(cx - half + 2 * half * t, y) }
            let colour: RGB
            if i == 0 || i == stripes - 1 { colour = c.accent } else { colour = (i % 2 == 0 ? RGB(84, 150, 64) : RGB(70, 134, 54)).lit(by: c.light) }
            canvas.fill([at(t0, fy0, topHalf), at(t1, fy0, topHalf), at(t1, fy1, bottomHalf), at(t0, fy1, bottomHalf)], colour)
        }
        var lines: [[PostcardPoint]] = []
        for i in 1..<stripes {
            let t = Float(i) / Float(stripes)
            lines.append(
                PostcardPath.stroke(
                    [PostcardPoint(cx - topHalf + 2 * topHalf * t, fy0), PostcardPoint(cx - bottomHalf + 2 * bottomHalf * t, fy1)],
                    width: max(1, w * 0.002)
                )
            )
        }
        lines.append(
            PostcardPath.stroke(
                [
                    PostcardPoint(cx - topHalf, fy0), PostcardPoint(cx + topHalf, fy0), PostcardPoint(cx + bottomHalf, fy1),
                    PostcardPoint(cx - bottomHalf, fy1), PostcardPoint(cx - topHalf, fy0),
                ],
                width: max(1, w * 0.003)
            )
        )
        canvas.fill(lines, RGB(250, 250, 245), alpha: 0.85)
        // Press box on the far rim.
        canvas.fillRect(cx - w * 0.1, horizon - h * 0.035, cx + w * 0.1, horizon + h * 0.01, c.accentLight.mixed(with: RGB(240, 240, 240), 0.5))
        canvas.fillRect(cx - w * 0.09, horizon - h * 0.022, cx + w * 0.09, horizon - h * 0.005, c.glass)

        // A night game: floodlight banks on masts around the rim, and the field aglow under them.
        if stage.time == .night {
            let lamp = RGB(255, 248, 224)
            canvas.glow(cx, fy0 + (fy1 - fy0) * 0.4, radius: w * 0.45, lamp, strength: 0.18)
            for fx: Float in [0.08, 0.3, 0.7, 0.92] {
                let x = w * fx
                let d = (x - cx) / rxOut
                let rim = cy - ryOut * (max(0, 1 - d * d)).squareRoot()
                let top = rim - h * 0.2
                canvas.fill(PostcardPath.stroke([PostcardPoint(x, rim + h * 0.02), PostcardPoint(x, top)], width: max(1, w * 0.004)), c.accentDeep)
                canvas.glow(x, top, radius: h * 0.22, lamp, strength: 0.45)
                canvas.fillRect(x - w * 0.028, top - h * 0.025, x + w * 0.028, top + h * 0.008, lamp)
            }
        }
    }

    /// Frost Amphitheater seen from the top of the bowl: curved grass terraces stepping down to a
    /// small stage that sits in front of a dense wall of trees.
    static func amphitheater(_ stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        let canvas = stage.canvas
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        let stageY = horizon + (h - horizon) * 0.16
        // Tall trees rising behind the stage and along the bowl's rim.
        PostcardScenery.treeline(
            canvas,
            horizon: stageY,
            size: (stageY - horizon) * 1.3 + h * 0.05,
            color: c.foliageDark.mixed(with: c.haze, 0.2),
            random: &random
        )
        PostcardScenery.treeline(canvas, horizon: stageY, size: h * 0.06, color: c.foliageDark, random: &random)
        PostcardScenery.treeline(canvas, horizon: stageY + h * 0.005, size: h * 0.035, color: c.foliage, random: &random)

        // Terraces: the near halves of rings centred on the stage, outermost first.
        let grassLight = c.groundNear.mixed(with: RGB(120, 170, 70), 0.45).lit(by: c.light)
        let grassDark = grassLight.scaled(0.84)
        let riser = c.accentLight.mixed(with: grassDark, 0.35)
        let rings = 8
        for i in 0..<rings {
            let t = Float(i) / Float(rings - 1)
            let rx = w * (1.15 - 0.95 * t)
            let ry = (h - stageY) * (1.3 - 1.1 * t)
            let band = PostcardPath.ellipse(w / 2, stageY, rx, ry, start: 0, end: .pi)
            canvas.fill(band, riser)
            let grass = i % 2 == 0 ? grassLight : grassDark
            let inner = PostcardPath.ellipse(w / 2, stageY, rx, ry - max(1.5, h * 0.008), start: 0, end: .pi)
            canvas.fill(inner, top: grass.scaled(0.94), bottom: grass)
        }
        // Picnic blankets on the lawn, when big enough to see.
        let dot = h * 0.006
        if dot >= 1.2 {
            var blankets: [[PostcardPoint]] = []
            var people: [[PostcardPoint]] = []
            var crowd = stage.random(41)
            for _ in 0..<36 {
                let a = crowd.float(0.08, 0.92) * .pi
                let r = crowd.float(0.3, 1)
                let bx = w / 2 + cos(a) * w * 0.95 * r
                let by = stageY + sin(a) * (h - stageY) * 1.1 * r
                let scale = 0.5 + (by - stageY) / (h - stageY)
                blankets.append(PostcardPath.ellipse(bx, by, dot * 2.2 * scale, dot * scale))
                people.append(PostcardPath.ellipse(bx + dot * scale, by - dot * scale, dot * 0.6 * scale, dot * 0.9 * scale))
            }
            canvas.fill(blankets, RGB(238, 228, 206), alpha: 0.85)
            canvas.fill(people, c.accentDeep, alpha: 0.85)
        }
        // The stage: a platform under a shallow roof on posts, in the landmark colour.
        let sw = w * 0.2
        let sh = (stageY - horizon) * 1.1 + h * 0.03
        let sx = w / 2
        let sy = stageY + h * 0.01
        canvas.fillRect(sx - sw * 0.45, sy - sh * 0.85, sx + sw * 0.45, sy - sh * 0.12, c.accentDeep)
        canvas.fill(
            [
                PostcardPoint(sx - sw * 0.6, sy - sh * 0.8), PostcardPoint(sx + sw * 0.6, sy - sh * 0.8),
                PostcardPoint(sx + sw * 0.45, sy - sh * 1.05), PostcardPoint(sx - sw * 0.45, sy - sh * 1.05),
            ],
            c.accent
        )
        for k in [-1, -0.33, 0.33, 1] as [Float] {
            canvas.fillRect(sx + k * sw * 0.43 - sw * 0.02, sy - sh * 0.82, sx + k * sw * 0.43 + sw * 0.02, sy - sh * 0.12, c.accent)
        }
        canvas.fillRect(sx - sw * 0.62, sy - sh * 0.14, sx + sw * 0.62, sy + sh * 0.06, c.accentLight)
    }
}
