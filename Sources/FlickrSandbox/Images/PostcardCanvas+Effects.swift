import Foundation

/// The whole-picture effects: the sun's glow, water reflections, the final grade, compositing.
extension PostcardCanvas {
    /// Adds a soft radial glow (quadratic fall-off), used for the sun's halo.
    func glow(_ cx: Float, _ cy: Float, radius: Float, _ color: RGB, strength: Float) {
        guard radius > 0.5 else { return }
        let x0 = max(0, Int(cx - radius))
        let x1 = min(width - 1, Int(cx + radius))
        let y0 = max(0, Int(cy - radius))
        let y1 = min(height - 1, Int(cy + radius))
        guard x0 <= x1, y0 <= y1 else { return }
        let inv = 1 / (radius * radius)
        let r = Float(color.r)
        let g = Float(color.g)
        let b = Float(color.b)
        var y = y0
        while y <= y1 {
            let dy = Float(y) + 0.5 - cy
            let dy2 = dy * dy * inv
            // Only the chord of the disc on this row can receive light.
            let half = dy2 < 1 ? (1 - dy2).squareRoot() * radius : -1
            let from = Int(cx - half)
            let to = Int(cx + half)
            var x = from > x0 ? from : x0
            let end = to < x1 ? to : x1
            while x <= end {
                let dx = Float(x) + 0.5 - cx
                let d = dx * dx * inv + dy2
                if d < 1 {
                    let falloff = 1 - d
                    blend(x, y, r, g, b, strength * falloff * falloff)
                }
                x += 1
            }
            y += 1
        }
    }

    /// Mirrors the rows above `top` into `top..<bottom` as a rippled, tinted water reflection.
    ///
    /// - Parameters:
    ///   - amplitude: horizontal ripple displacement in pixels, growing towards the viewer.
    ///   - wavelength: vertical ripple period in pixels.
    ///   - tintAmount: how much of `tint` replaces the reflected colour near the horizon;
    ///     it grows further down so the near water shows more of its own colour, as real water does.
    func reflect(top: Int, bottom: Int, tint: RGB, tintAmount: Float, amplitude: Float, wavelength: Float, phase: Float) {
        let y0 = max(0, top)
        let y1 = min(height, bottom)
        guard y0 < y1, y0 > 0 else { return }
        let tr = Float(tint.r)
        let tg = Float(tint.g)
        let tb = Float(tint.b)
        let depthSpan = Float(max(1, y1 - y0))
        for y in y0..<y1 {
            let d = y - y0
            let src = min(max(y0 - 1 - d, 0), height - 1)
            let depth = Float(d) / depthSpan
            let shift = Int((sin(Float(d) * 2 * .pi / max(wavelength, 1) + phase) * amplitude * (0.25 + depth)).rounded())
            let a = min(1, tintAmount + (1 - tintAmount) * depth * 0.6)
            let rowDst = y * width * 3
            let rowSrc = src * width * 3
            let keep = 1 - a
            var x = 0
            while x < width {
                var sx = x + shift
                sx = sx < 0 ? 0 : sx >= width ? width - 1 : sx
                let si = rowSrc + sx * 3
                let di = rowDst + x * 3
                pixels[di] = UInt8(Float(Int(pixels[si])) * keep + tr * a + 0.5)
                pixels[di + 1] = UInt8(Float(Int(pixels[si + 1])) * keep + tg * a + 0.5)
                pixels[di + 2] = UInt8(Float(Int(pixels[si + 2])) * keep + tb * a + 0.5)
                x += 1
            }
        }
    }

    /// Multiplies everything by a light tint and darkens the corners, like a lens and a print would.
    func grade(tint: RGB, amount: Float, vignette: Float) {
        let tr = 1 + (Float(tint.r) / 255 - 1) * amount
        let tg = 1 + (Float(tint.g) / 255 - 1) * amount
        let tb = 1 + (Float(tint.b) / 255 - 1) * amount
        // The fall-off is separable, so two small tables replace a per-pixel distance.
        var columns = [Float](repeating: 1, count: width)
        for x in 0..<width {
            let n = (Float(x) + 0.5) / Float(width) * 2 - 1
            columns[x] = 1 - vignette * n * n * n * n
        }
        columns.withUnsafeBufferPointer { columns in
            var y = 0
            while y < height {
                let n = (Float(y) + 0.5) / Float(height) * 2 - 1
                let row = 1 - vignette * n * n * n * n
                let fr = tr * row
                let fg = tg * row
                let fb = tb * row
                var i = y * width * 3
                var x = 0
                while x < width {
                    let f = columns[x]
                    let r = Float(Int(pixels[i])) * fr * f + 0.5
                    let g = Float(Int(pixels[i + 1])) * fg * f + 0.5
                    let b = Float(Int(pixels[i + 2])) * fb * f + 0.5
                    pixels[i] = r < 255 ? UInt8(r) : 255
                    pixels[i + 1] = g < 255 ? UInt8(g) : 255
                    pixels[i + 2] = b < 255 ? UInt8(b) : 255
                    i += 3
                    x += 1
                }
                y += 1
            }
        }
    }

    /// Copies `other` into this canvas with its top-left corner at (`x`, `y`), clipped.
    func draw(_ other: PostcardCanvas, x: Int, y: Int) {
        let sx0 = max(0, -x)
        let sy0 = max(0, -y)
        let sx1 = min(other.width, width - x)
        let sy1 = min(other.height, height - y)
        guard sx0 < sx1, sy0 < sy1 else { return }
        for sy in sy0..<sy1 {
            let src = other.pixels + (sy * other.width + sx0) * 3
            let dst = pixels + ((sy + y) * width + sx0 + x) * 3
            dst.update(from: src, count: (sx1 - sx0) * 3)
        }
    }
}
