import Foundation

/// Builders for the polygons the postcards are made of: ellipses, arcs, curves and thick strokes.
enum PostcardPath {
    /// An ellipse (or, with `start`/`end`, an open arc) as a polygon, rotated by `rotation` radians.
    ///
    /// The segment count follows the radius so big shapes stay round and small ones stay cheap.
    static func ellipse(
        _ cx: Float,
        _ cy: Float,
        _ rx: Float,
        _ ry: Float,
        rotation: Float = 0,
        start: Float = 0,
        end: Float = 2 * .pi
    ) -> [PostcardPoint] {
        let sweep = end - start
        let radius: Float = max(abs(rx), abs(ry))
        let full = Int(min(max(radius * 0.9 + 10, 12), 220))
        let segments = max(3, Int((Float(full) * abs(sweep) / (2 * .pi)).rounded(.up)))
        let closed = abs(sweep) >= 2 * .pi - 0.0001
        let count = closed ? segments : segments + 1
        let cr = cos(rotation)
        let sr = sin(rotation)
        var points: [PostcardPoint] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            let t = start + sweep * Float(i) / Float(segments)
            let ex = cos(t) * rx
            let ey = sin(t) * ry
            points.append(PostcardPoint(cx + ex * cr - ey * sr, cy + ex * sr + ey * cr))
        }
        return points
    }

    /// Samples a quadratic Bézier curve from `a` to `b` bent towards `control`.
    static func curve(_ a: PostcardPoint, _ control: PostcardPoint, _ b: PostcardPoint, segments: Int = 12) -> [PostcardPoint] {
        (0...segments).map { i in
            let t = Float(i) / Float(segments)
            let u = 1 - t
            return PostcardPoint(
                u * u * a.x + 2 * u * t * control.x + t * t * b.x,
                u * u * a.y + 2 * u * t * control.y + t * t * b.y
            )
        }
    }

    /// The outline of `line` drawn `width` pixels thick, tapering linearly to `endWidth`.
    ///
    /// Joins are mitred (with a limit) so curves sampled finely come out smooth; a single
    /// outline rather than one quad per segment keeps translucent strokes from double-blending.
    static func stroke(_ line: [PostcardPoint], width: Float, endWidth: Float? = nil) -> [PostcardPoint] {
        guard line.count >= 2 else { return [] }
        let last = line.count - 1
        var left: [PostcardPoint] = []
        var right: [PostcardPoint] = []
        left.reserveCapacity(line.count)
        right.reserveCapacity(line.count)
        for i in 0...last {
            let prev = line[max(i - 1, 0)]
            let next = line[min(i + 1, last)]
            var dx = next.x - prev.x
            var dy = next.y - prev.y
            let length = max((dx * dx + dy * dy).squareRoot(), 0.0001)
            dx /= length
            dy /= length
            var miter: Float = 1
            if i > 0 && i < last {
                // Scale the offset by 1/cos(half the turn) so the stroke keeps its width in bends.
                let ax = line[i].x - prev.x
                let ay = line[i].y - prev.y
                let al = max((ax * ax + ay * ay).squareRoot(), 0.0001)
                let cosHalf = (ax / al) * dx + (ay / al) * dy
                miter = min(1 / max(cosHalf, 0.3), 2.5)
            }
            let w = (width + ((endWidth ?? width) - width) * Float(i) / Float(last)) * 0.5 * miter
            left.append(PostcardPoint(line[i].x - dy * w, line[i].y + dx * w))
            right.append(PostcardPoint(line[i].x + dy * w, line[i].y - dx * w))
        }
        return left + right.reversed()
    }
}
