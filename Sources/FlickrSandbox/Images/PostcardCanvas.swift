import Foundation

/// A point in canvas pixel space: x grows rightwards, y grows downwards, pixel centres at +0.5.
struct PostcardPoint: Sendable {
    /// Horizontal position in pixels.
    var x: Float
    /// Vertical position in pixels.
    var y: Float
    /// A point from its coordinates.
    init(_ x: Float, _ y: Float) {
        self.x = x
        self.y = y
    }
}

/// An 8-bit RGB raster with the few painting operations the postcards need.
///
/// Shapes are filled by a scanline rasteriser with four sub-scanlines and exact horizontal
/// coverage, which is "anti-aliased enough" for silhouettes and text while staying cheap.
/// Storage is manually allocated and per-pixel loops use `while`, raw pointers and no generic
/// helpers (`min`, `for … in`), because unoptimised debug builds do not specialise generics and
/// would otherwise spend most of their time in iterator and array bookkeeping.
final class PostcardCanvas {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// Interleaved R, G, B bytes, row-major, `width * height * 3` of them.
    let pixels: UnsafeMutablePointer<UInt8>
    /// Per-row running coverage deltas for span interiors (`width + 1` entries, kept zeroed).
    private let spanDelta: UnsafeMutablePointer<Float>
    /// Per-row coverage of partially covered span ends (`width + 1` entries, kept zeroed).
    private let edgeCoverage: UnsafeMutablePointer<Float>

    /// A canvas filled with one colour.
    init(width: Int, height: Int, fill: RGB) {
        self.width = max(1, width)
        self.height = max(1, height)
        let count = self.width * self.height * 3
        pixels = .allocate(capacity: count)
        spanDelta = .allocate(capacity: self.width + 1)
        spanDelta.initialize(repeating: 0, count: self.width + 1)
        edgeCoverage = .allocate(capacity: self.width + 1)
        edgeCoverage.initialize(repeating: 0, count: self.width + 1)
        paintRow(0, fill)
        var y = 1
        while y < self.height {
            (pixels + y * self.width * 3).update(from: pixels, count: self.width * 3)
            y += 1
        }
    }

    deinit {
        pixels.deallocate()
        spanDelta.deallocate()
        edgeCoverage.deallocate()
    }

    /// The colour of one pixel (coordinates are clamped into the canvas).
    func color(x: Int, y: Int) -> RGB {
        let i = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3
        return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Paints whole rows `top..<bottom` with a vertical gradient; the sky and ground need nothing finer.
    func fillRows(top: Int, bottom: Int, from start: RGB, to end: RGB) {
        let y0 = max(0, top)
        let y1 = min(height, bottom)
        guard y0 < y1 else { return }
        let span = Float(max(1, bottom - top - 1))
        var y = y0
        while y < y1 {
            paintRow(y, start.mixed(with: end, Float(y - top) / span))
            y += 1
        }
    }

    /// Sets every pixel of row `y` to `color`.
    private func paintRow(_ y: Int, _ color: RGB) {
        let row = pixels + y * width * 3
        row[0] = color.r
        row[1] = color.g
        row[2] = color.b
        // Doubling copies: log2(width) memmoves instead of a per-pixel loop.
        var filled = 1
        while filled < width {
            let n = filled < width - filled ? filled : width - filled
            (row + filled * 3).update(from: row, count: n * 3)
            filled += n
        }
    }

    /// Fills the union of `contours` with one colour.
    func fill(_ contours: [[PostcardPoint]], _ color: RGB, alpha: Float = 1) {
        let r = Float(color.r)
        let g = Float(color.g)
        let b = Float(color.b)
        rasterize(contours, alpha: alpha) { _ in (r, g, b) }
    }

    /// Fills one polygon with one colour.
    func fill(_ polygon: [PostcardPoint], _ color: RGB, alpha: Float = 1) {
        fill([polygon], color, alpha: alpha)
    }

    /// Fills one polygon with a vertical gradient running over the polygon's own height.
    func fill(_ polygon: [PostcardPoint], top: RGB, bottom: RGB, alpha: Float = 1) {
        var minY = Float.infinity
        var maxY = -Float.infinity
        for p in polygon {
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let span = max(maxY - minY, 1)
        rasterize([polygon], alpha: alpha) { y in
            let c = top.mixed(with: bottom, (y - minY) / span)
            return (Float(c.r), Float(c.g), Float(c.b))
        }
    }

    /// Fills an axis-aligned rectangle given by its corners.
    func fillRect(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ color: RGB, alpha: Float = 1) {
        fill([PostcardPoint(x0, y0), PostcardPoint(x1, y0), PostcardPoint(x1, y1), PostcardPoint(x0, y1)], color, alpha: alpha)
    }

    /// Fills an ellipse, optionally rotated by `rotation` radians.
    func fillEllipse(_ cx: Float, _ cy: Float, _ rx: Float, _ ry: Float, _ color: RGB, alpha: Float = 1, rotation: Float = 0) {
        fill(PostcardPath.ellipse(cx, cy, rx, ry, rotation: rotation), color, alpha: alpha)
    }

    // MARK: Rasteriser

    /// Scan-converts the union of `contours` (non-zero rule, every contour counted positively),
    /// asking `color` for the paint of each row by the row's centre y.
    private func rasterize(_ contours: [[PostcardPoint]], alpha: Float, color: (Float) -> (Float, Float, Float)) {
        guard alpha > 0 else { return }
        // Edges, oriented top to bottom: (top y, bottom y, x at top, dx/dy, winding).
        var edges: [(top: Float, bottom: Float, x: Float, slope: Float, winding: Int)] = []
        var minY = Float.infinity
        var maxY = -Float.infinity
        for contour in contours where contour.count >= 3 {
            // Normalising orientation makes overlapping contours add up instead of punching holes.
            var area: Float = 0
            for i in 0..<contour.count {
                let a = contour[i]
                let b = contour[(i + 1) % contour.count]
                area += a.x * b.y - b.x * a.y
            }
            let sign = area < 0 ? -1 : 1
            for i in 0..<contour.count {
                let a = contour[i]
                let b = contour[(i + 1) % contour.count]
                guard a.y != b.y, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
                let (t, u, w) = a.y < b.y ? (a, b, sign) : (b, a, -sign)
                edges.append((t.y, u.y, t.x, (u.x - t.x) / (u.y - t.y), w))
                minY = min(minY, t.y)
                maxY = max(maxY, u.y)
            }
        }
        guard !edges.isEmpty else { return }
        let firstRow = max(0, Int(minY.rounded(.down)))
        let lastRow = min(height - 1, Int(maxY.rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        edges.sort { $0.top < $1.top }

        // Raw copies for the per-row loops.
        let count = edges.count
        let tops = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let bottoms = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let startX = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let slopes = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let windings = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let active = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let xs = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let ws = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer {
            for buffer in [tops, bottoms, startX, slopes, xs] { buffer.deallocate() }
            for buffer in [windings, active, ws] { buffer.deallocate() }
        }
        for (i, e) in edges.enumerated() {
            (tops + i).initialize(to: e.top)
            (bottoms + i).initialize(to: e.bottom)
            (startX + i).initialize(to: e.x)
            (slopes + i).initialize(to: e.slope)
            (windings + i).initialize(to: e.winding)
        }

        let subSamples = 4
        let weight: Float = 0.25
        let limit = Float(width)
        var activeCount = 0
        var nextEdge = 0
        var y = firstRow
        while y <= lastRow {
            let rowTop = Float(y)
            let rowBottom = Float(y + 1)
            while nextEdge < count && tops[nextEdge] < rowBottom {
                active[activeCount] = nextEdge
                activeCount += 1
                nextEdge += 1
            }
            var kept = 0
            var k = 0
            while k < activeCount {
                if bottoms[active[k]] > rowTop {
                    active[kept] = active[k]
                    kept += 1
                }
                k += 1
            }
            activeCount = kept
            var minX = width
            var maxX = -1
            var s = 0
            while s < subSamples && activeCount > 0 {
                let sy = rowTop + (Float(s) + 0.5) * weight
                s += 1
                // Crossings of this sub-scanline, kept sorted by insertion (there are only a few).
                var n = 0
                var a = 0
                while a < activeCount {
                    let e = active[a]
                    a += 1
                    guard sy >= tops[e] && sy < bottoms[e] else { continue }
                    let x = startX[e] + (sy - tops[e]) * slopes[e]
                    var j = n
                    while j > 0 && xs[j - 1] > x {
                        xs[j] = xs[j - 1]
                        ws[j] = ws[j - 1]
                        j -= 1
                    }
                    xs[j] = x
                    ws[j] = windings[e]
                    n += 1
                }
                var winding = 0
                var i = 0
                while i + 1 < n {
                    winding += ws[i]
                    i += 1
                    guard winding != 0 else { continue }
                    let xa = xs[i - 1] > 0 ? xs[i - 1] : 0
                    let xb = xs[i] < limit ? xs[i] : limit
                    guard xb > xa else { continue }
                    let ia = Int(xa)
                    let ib = Int(xb)
                    if ia == ib {
                        edgeCoverage[ia] += (xb - xa) * weight
                    } else {
                        edgeCoverage[ia] += (Float(ia + 1) - xa) * weight
                        if ia + 1 < ib {
                            spanDelta[ia + 1] += weight
                            spanDelta[ib] -= weight
                        }
                        if ib < width { edgeCoverage[ib] += (xb - Float(ib)) * weight }
                    }
                    if ia < minX { minX = ia }
                    let last = ib < width ? ib : width - 1
                    if last > maxX { maxX = last }
                }
            }
            if minX <= maxX {
                let (r, g, b) = color(Float(y) + 0.5)
                let solid = (UInt8(r), UInt8(g), UInt8(b))
                var run: Float = 0
                var x = minX
                var p = pixels + (y * width + minX) * 3
                // The blend is written out here rather than calling `blend`: this is the hottest
                // loop, and debug builds neither inline calls nor skip their per-call set-up.
                while x <= maxX {
                    run += spanDelta[x]
                    let coverage = run + edgeCoverage[x]
                    spanDelta[x] = 0
                    edgeCoverage[x] = 0
                    if coverage > 0.003 {
                        let a = coverage < 1 ? coverage * alpha : alpha
                        if a >= 0.998 {
                            p[0] = solid.0
                            p[1] = solid.1
                            p[2] = solid.2
                        } else {
                            let p0 = Float(Int(p[0]))
                            let p1 = Float(Int(p[1]))
                            let p2 = Float(Int(p[2]))
                            p[0] = UInt8(p0 + (r - p0) * a + 0.5)
                            p[1] = UInt8(p1 + (g - p1) * a + 0.5)
                            p[2] = UInt8(p2 + (b - p2) * a + 0.5)
                        }
                    }
                    x += 1
                    p += 3
                }
                spanDelta[width] = 0
            }
            y += 1
        }
    }

    /// Mixes one pixel towards (`r`, `g`, `b`) by `a` in 0…1.
    ///
    /// Bytes go through `Int` on their way to `Float`: `Float(UInt8)` resolves to the generic
    /// `BinaryInteger` initialiser, which debug builds call unspecialised, at many times the cost.
    func blend(_ x: Int, _ y: Int, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        let i = (y * width + x) * 3
        if a >= 0.998 {
            pixels[i] = UInt8(r)
            pixels[i + 1] = UInt8(g)
            pixels[i + 2] = UInt8(b)
        } else {
            pixels[i] = UInt8(Float(Int(pixels[i])) + (r - Float(Int(pixels[i]))) * a + 0.5)
            pixels[i + 1] = UInt8(Float(Int(pixels[i + 1])) + (g - Float(Int(pixels[i + 1]))) * a + 0.5)
            pixels[i + 2] = UInt8(Float(Int(pixels[i + 2])) + (b - Float(Int(pixels[i + 2]))) * a + 0.5)
        }
    }
}
