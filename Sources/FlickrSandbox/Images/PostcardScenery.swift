import Foundation

/// The parts every postcard shares: sky, sun, clouds, hills, ground, trees and birds.
///
/// Everything is placed in fractions of the scene and drawn with sizes relative to it, and each
/// element draws from its own random stream, so a scene composes the same way at every size.
enum PostcardScenery {
    /// Sky gradient above the horizon and ground gradient below it.
    static func skyAndGround(_ canvas: PostcardCanvas, horizon: Float, palette: PostcardPalette) {
        let h = Int(horizon.rounded())
        canvas.fillRows(top: 0, bottom: h, from: palette.skyTop, to: palette.skyHorizon)
        canvas.fillRows(top: h, bottom: canvas.height, from: palette.groundFar, to: palette.groundNear)
    }

    /// The sun's halo and disc; a low sun is drawn large and warm, a noon sun small and pale.
    /// At night: stars and a crescent moon instead.
    static func sun(_ canvas: PostcardCanvas, horizon: Float, palette: PostcardPalette, time: PostcardTimeOfDay, random: inout PostcardRandom) {
        let w = Float(canvas.width)
        let size = min(w, Float(canvas.height))
        let x = palette.sunPosition.x * w
        let y = palette.sunPosition.y * horizon
        if time == .night {
            var stars: [[PostcardPoint]] = []
            for _ in 0..<90 {
                let sx = random.unit() * w
                let sy = random.unit() * random.unit() * horizon * 0.92
                let r = max(0.55, size * random.float(0.0012, 0.0035))
                stars.append(PostcardPath.ellipse(sx, sy, r, r))
            }
            canvas.fill(stars, RGB(250, 248, 232), alpha: 0.85)
            let moon = size * 0.04
            canvas.glow(x, y, radius: size * 0.22, palette.sunGlow, strength: 0.25)
            canvas.fillEllipse(x, y, moon, moon, palette.sun)
            canvas.fillEllipse(x + moon * 0.45, y - moon * 0.2, moon * 0.9, moon * 0.9, palette.skyTop.mixed(with: palette.sunGlow, 0.15))
            return
        }
        let low = time != .day
        canvas.glow(x, y, radius: size * (low ? 0.62 : 0.45), palette.sunGlow, strength: low ? 0.55 : 0.35)
        canvas.glow(x, y, radius: size * 0.14, palette.sun, strength: 0.6)
        canvas.fillEllipse(x, y, size * (low ? 0.05 : 0.035), size * (low ? 0.05 : 0.035), palette.sun)
    }

    /// A few cumulus clouds: shaded puffs under lit puffs, flattened at the base.
    static func clouds(_ canvas: PostcardCanvas, horizon: Float, palette: PostcardPalette, random: inout PostcardRandom) {
        let w = Float(canvas.width)
        let size = min(w, Float(canvas.height))
        let count = 1 + random.int(4)
        for _ in 0..<count {
            let cx = random.float(-0.05, 1.05) * w
            let cy = random.float(0.12, 0.55) * horizon
            let span = random.float(0.1, 0.2) * max(w, size * 1.2)
            let puffs = 4 + random.int(4)
            var lit: [[PostcardPoint]] = []
            var shade: [[PostcardPoint]] = []
            for i in 0..<puffs {
                let t = Float(i) / Float(puffs - 1) - 0.5
                let r = span * random.float(0.16, 0.26) * (1 - abs(t) * 0.8)
                let px = cx + t * span + random.float(-0.05, 0.05) * span
                let py = cy - r * random.float(0.1, 0.5)
                shade.append(PostcardPath.ellipse(px, py + r * 0.22, r * 1.05, r * 0.8))
                lit.append(PostcardPath.ellipse(px - r * 0.08, py - r * 0.05, r * 0.92, r * 0.78))
            }
            shade.append(PostcardPath.ellipse(cx, cy + span * 0.05, span * 0.55, span * 0.07))
            canvas.fill(shade, palette.cloudShade, alpha: 0.9)
            canvas.fill(lit, palette.cloud, alpha: 0.82)
        }
    }

    /// A ridge of distant hills: summed sines for a natural skyline, shaded by air.
    static func hills(_ canvas: PostcardCanvas, horizon: Float, height: Float, top: RGB, bottom: RGB, random: inout PostcardRandom) {
        let w = Float(canvas.width)
        let phases = (0..<3).map { _ in random.float(0, 2 * .pi) }
        let steps = 64
        var ridge: [PostcardPoint] = [PostcardPoint(-1, horizon + 2)]
        for i in 0...steps {
            let t = Float(i) / Float(steps)
            let n = 0.5 * sin(t * 4.1 + phases[0]) + 0.3 * sin(t * 9.3 + phases[1]) + 0.2 * sin(t * 19 + phases[2])
            ridge.append(PostcardPoint(t * (w + 2) - 1, horizon - height * (0.62 + 0.38 * n)))
        }
        ridge.append(PostcardPoint(w + 1, horizon + 2))
        canvas.fill(ridge, top: top, bottom: bottom)
    }

    /// A soft line of distant foliage sitting on the horizon.
    static func treeline(_ canvas: PostcardCanvas, horizon: Float, size: Float, color: RGB, random: inout PostcardRandom) {
        let w = Float(canvas.width)
        var blobs: [[PostcardPoint]] = []
        var x: Float = -size
        while x < w + size {
            let r = size * random.float(0.6, 1.1)
            blobs.append(PostcardPath.ellipse(x, horizon - r * 0.45, r * 1.2, r))
            // At least w/150 per blob, so a freakishly wide, short picture cannot need millions.
            x += max(r * random.float(1.1, 1.8), w / 150)
        }
        blobs.append([
            PostcardPoint(0, horizon - size * 0.3), PostcardPoint(w, horizon - size * 0.3), PostcardPoint(w, horizon + 1),
            PostcardPoint(0, horizon + 1),
        ])
        canvas.fill(blobs, color)
    }

    /// A Canary Island date palm, as on Palm Drive: thick trunk, round crown of drooping fronds.
    static func palm(
        _ canvas: PostcardCanvas,
        x: Float,
        base: Float,
        height h: Float,
        lean: Float,
        palette: PostcardPalette,
        random: inout PostcardRandom
    ) {
        let top = PostcardPoint(x + lean * h, base - h)
        let trunk = PostcardPath.curve(PostcardPoint(x, base), PostcardPoint(x + lean * h * 0.15, base - h * 0.5), top, segments: 10)
        canvas.fill(PostcardPath.stroke(trunk, width: max(h * 0.075, 1.2), endWidth: max(h * 0.05, 1)), palette.trunk)
        // Two layers of fronds: a darker back layer drooping low, a lighter front layer on top.
        var dark: [[PostcardPoint]] = []
        var light: [[PostcardPoint]] = []
        for layer in 0..<2 {
            let count = layer == 0 ? 13 : 9
            for i in 0..<count {
                // Fronds leave the crown in every upward direction and arch over under their weight.
                let spread: Float = layer == 0 ? 1.1 : 0.75
                let a = Float.pi * (1.5 + spread * (Float(i) / Float(count - 1) - 0.5)) + random.float(-0.06, 0.06)
                let length = h * random.float(0.24, 0.3) * (layer == 0 ? 1 : 0.85)
                let droop = length * (0.3 + 0.25 * abs(cos(a)))
                let tip = PostcardPoint(top.x + cos(a) * length, top.y + sin(a) * length * 0.85 + droop)
                let control = PostcardPoint(top.x + cos(a) * length * 0.6, top.y + sin(a) * length * 0.6 - length * 0.12)
                let frond = PostcardPath.stroke(
                    PostcardPath.curve(top, control, tip, segments: 8),
                    width: max(h * 0.065, 1),
                    endWidth: max(h * 0.006, 0.6)
                )
                if layer == 0 { dark.append(frond) } else { light.append(frond) }
            }
        }
        canvas.fill(dark, palette.foliageDark)
        canvas.fill(light, palette.foliage)
        canvas.fillEllipse(top.x, top.y + h * 0.015, h * 0.06, h * 0.045, palette.foliageDark)
    }

    /// A California live oak: short trunk, broad lumpy crown lit from the sun's side.
    static func oak(
        _ canvas: PostcardCanvas,
        x: Float,
        base: Float,
        size s: Float,
        sunOnLeft: Bool,
        palette: PostcardPalette,
        random: inout PostcardRandom
    ) {
        canvas.fill(
            [
                PostcardPoint(x - s * 0.08, base), PostcardPoint(x - s * 0.05, base - s * 0.4),
                PostcardPoint(x + s * 0.05, base - s * 0.4), PostcardPoint(x + s * 0.09, base),
            ],
            palette.trunk
        )
        let side: Float = sunOnLeft ? -1 : 1
        var dark: [[PostcardPoint]] = []
        var mid: [[PostcardPoint]] = []
        var light: [[PostcardPoint]] = []
        for _ in 0..<7 {
            let px = x + random.float(-0.5, 0.5) * s
            let py = base - s * random.float(0.45, 0.75)
            let r = s * random.float(0.22, 0.32)
            dark.append(PostcardPath.ellipse(px, py, r * 1.1, r))
            mid.append(PostcardPath.ellipse(px + side * r * 0.2, py - r * 0.18, r * 0.85, r * 0.75))
            light.append(PostcardPath.ellipse(px + side * r * 0.42, py - r * 0.38, r * 0.42, r * 0.36))
        }
        canvas.fill(dark, palette.foliageDark)
        canvas.fill(mid, palette.foliage)
        canvas.fill(light, palette.foliageLight, alpha: 0.75)
    }

    /// An Italian cypress: a dark flame of foliage.
    static func cypress(_ canvas: PostcardCanvas, x: Float, base: Float, height h: Float, palette: PostcardPalette) {
        let body: [PostcardPoint] = [
            PostcardPoint(x - h * 0.09, base), PostcardPoint(x - h * 0.12, base - h * 0.45), PostcardPoint(x - h * 0.07, base - h * 0.85),
            PostcardPoint(x, base - h), PostcardPoint(x + h * 0.07, base - h * 0.85), PostcardPoint(x + h * 0.12, base - h * 0.45),
            PostcardPoint(x + h * 0.09, base),
        ]
        canvas.fill(body, top: palette.foliage, bottom: palette.foliageDark)
    }

    /// A few birds as shallow "v" strokes, only where they are big enough to read as birds.
    static func birds(_ canvas: PostcardCanvas, horizon: Float, palette: PostcardPalette, random: inout PostcardRandom) {
        let w = Float(canvas.width)
        let size = min(w, Float(canvas.height))
        let count = random.int(5)
        let flockX = random.float(0.15, 0.85) * w
        let flockY = random.float(0.15, 0.4) * horizon
        let color = palette.skyTop.scaled(0.35)
        for _ in 0..<count {
            let s = size * random.float(0.008, 0.016)
            let x = flockX + random.float(-0.12, 0.12) * w
            let y = flockY + random.float(-0.08, 0.08) * horizon
            guard s >= 2 else { continue }
            let wing =
                PostcardPath.curve(
                    PostcardPoint(x - s, y - s * 0.3),
                    PostcardPoint(x - s * 0.4, y - s * 0.5),
                    PostcardPoint(x, y + s * 0.1),
                    segments: 5
                )
                + PostcardPath.curve(
                    PostcardPoint(x, y + s * 0.1),
                    PostcardPoint(x + s * 0.4, y - s * 0.5),
                    PostcardPoint(x + s, y - s * 0.3),
                    segments: 5
                ).dropFirst()
            canvas.fill(PostcardPath.stroke(Array(wing), width: max(s * 0.22, 1)), color)
        }
    }
}
