import Foundation

/// Draws in a landmark's design space: origin at the middle of its base, y up, one unit ≈ its height.
///
/// Landmarks are described once in these units and the pen scales them to any picture size.
/// Designs assume sunlight from the left; `flip` mirrors them when the sun is on the right,
/// so the lit faces always turn towards the sun.
struct LandmarkPen {
    /// Where the strokes land.
    let canvas: PostcardCanvas
    /// Canvas x of design x = 0.
    let originX: Float
    /// Canvas y of design y = 0.
    let baseY: Float
    /// Canvas pixels per design unit.
    let unit: Float
    /// +1 to draw as designed, −1 to mirror left–right.
    let flip: Float

    /// One canvas pixel in design units: the thinnest line worth drawing.
    var pixel: Float { 1 / unit }

    /// Whether a feature `size` units across would span at least `pixels` canvas pixels,
    /// so fine ornament is skipped on thumbnails where it would only turn into mush.
    func shows(_ size: Float, pixels: Float = 2) -> Bool { size * unit >= pixels }

    /// The canvas point for a design point.
    func point(_ x: Float, _ y: Float) -> PostcardPoint {
        PostcardPoint(originX + flip * x * unit, baseY - y * unit)
    }

    /// Canvas points for design points.
    func points(_ list: [(Float, Float)]) -> [PostcardPoint] { list.map { point($0.0, $0.1) } }

    /// Fills an axis-aligned rectangle between two design corners.
    func rect(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ color: RGB, alpha: Float = 1) {
        canvas.fill(rectangle(x0, y0, x1, y1), color, alpha: alpha)
    }

    /// The canvas outline of a design rectangle, for combining into one fill.
    func rectangle(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> [PostcardPoint] {
        [point(x0, y0), point(x1, y0), point(x1, y1), point(x0, y1)]
    }

    /// Fills a polygon given in design units.
    func poly(_ list: [(Float, Float)], _ color: RGB, alpha: Float = 1) {
        canvas.fill(points(list), color, alpha: alpha)
    }

    /// Fills a polygon with a top-to-bottom gradient.
    func poly(_ list: [(Float, Float)], top: RGB, bottom: RGB, alpha: Float = 1) {
        canvas.fill(points(list), top: top, bottom: bottom, alpha: alpha)
    }

    /// Fills several design-space shapes as one union (no seams, no double blending).
    func union(_ shapes: [[PostcardPoint]], _ color: RGB, alpha: Float = 1) {
        canvas.fill(shapes, color, alpha: alpha)
    }

    /// The canvas outline of an ellipse centred at a design point.
    func ellipseShape(
        _ cx: Float,
        _ cy: Float,
        _ rx: Float,
        _ ry: Float,
        rotation: Float = 0,
        start: Float = 0,
        end: Float = 2 * .pi
    )
        -> [PostcardPoint]
    {
        let c = point(cx, cy)
        // Mirroring and the y-up flip both reverse rotation sense in canvas space.
        return PostcardPath.ellipse(c.x, c.y, rx * unit, ry * unit, rotation: -rotation * flip, start: start, end: end)
    }

    /// Fills an ellipse centred at a design point.
    func ellipse(_ cx: Float, _ cy: Float, _ rx: Float, _ ry: Float, _ color: RGB, alpha: Float = 1, rotation: Float = 0) {
        canvas.fill(ellipseShape(cx, cy, rx, ry, rotation: rotation), color, alpha: alpha)
    }

    /// The outline of a round-headed opening: straight jambs from `y0` up to the semicircle whose top is `top`.
    func archShape(_ x0: Float, _ x1: Float, _ y0: Float, top: Float) -> [PostcardPoint] {
        let radius = (x1 - x0) / 2
        let spring = max(y0, top - radius)
        let centre = (x0 + x1) / 2
        var list: [(Float, Float)] = [(x0, y0)]
        let steps = max(6, min(40, Int(radius * unit)))
        for i in 0...steps {
            let a = Float.pi - Float.pi * Float(i) / Float(steps)
            list.append((centre + cos(a) * radius, spring + sin(a) * (top - spring)))
        }
        list.append((x1, y0))
        return points(list)
    }

    /// Fills a round-headed opening.
    func arch(_ x0: Float, _ x1: Float, _ y0: Float, top: Float, _ color: RGB, alpha: Float = 1) {
        canvas.fill(archShape(x0, x1, y0, top: top), color, alpha: alpha)
    }

    /// The outline of a polyline stroked `width` units thick (tapering to `endWidth`),
    /// never thinner than a pixel so it cannot vanish on small pictures.
    func strokeShape(_ list: [(Float, Float)], width: Float, endWidth: Float? = nil) -> [PostcardPoint] {
        let w = max(width * unit, 1)
        let e = endWidth.map { max($0 * unit, 0.8) }
        return PostcardPath.stroke(points(list), width: w, endWidth: e)
    }

    /// Strokes a polyline.
    func line(_ list: [(Float, Float)], width: Float, _ color: RGB, endWidth: Float? = nil, alpha: Float = 1) {
        canvas.fill(strokeShape(list, width: width, endWidth: endWidth), color, alpha: alpha)
    }

    /// Design points along a quadratic curve.
    func curve(_ a: (Float, Float), _ control: (Float, Float), _ b: (Float, Float), segments: Int = 14) -> [(Float, Float)] {
        (0...segments).map { i in
            let t = Float(i) / Float(segments)
            let u = 1 - t
            return (
                u * u * a.0 + 2 * u * t * control.0 + t * t * b.0,
                u * u * a.1 + 2 * u * t * control.1 + t * t * b.1
            )
        }
    }
}
