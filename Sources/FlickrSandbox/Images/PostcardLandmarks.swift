import Foundation

/// How a landmark wants its postcard composed.
struct LandmarkPlan {
    /// Which trees frame the landmark.
    enum Trees {
        /// Canary palms, as along Palm Drive and around the Quad.
        case palms
        /// Live oaks, as in the foothills and the Arboretum.
        case oaks
        /// A mix of both.
        case mixed
        /// The landmark places its own (or none).
        case none
    }

    /// Horizon height as a fraction of the scene, for a landscape picture.
    var horizon: Float
    /// The landmark's width in design units (its height is about 1 unit, see ``height``).
    var footprint: Float
    /// The landmark's height in design units.
    var height: Float
    /// Whether the Santa Cruz foothills show behind the landmark.
    var foothills: Bool = true
    /// Which trees frame the landmark.
    var trees: Trees = .palms
    /// Width in design units of a paved approach leading from the viewer to the landmark's door
    /// (none when nil): it gives the empty foreground depth and leads the eye in.
    var walkway: Float? = nil
}

/// One drawing routine per ``PostcardScene/Kind``: the silhouettes that make each spot recognisable.
enum PostcardLandmarks {
    /// Composition hints for `kind`.
    static func plan(for kind: PostcardScene.Kind) -> LandmarkPlan {
        switch kind {
        case .tower: LandmarkPlan(horizon: 0.76, footprint: 1.0, height: 1.0, trees: .palms, walkway: 0.16)
        case .arcade: LandmarkPlan(horizon: 0.7, footprint: 2.15, height: 0.66, trees: .palms, walkway: 0.24)
        case .church: LandmarkPlan(horizon: 0.74, footprint: 1.45, height: 0.95, trees: .palms, walkway: 0.6)
        case .library: LandmarkPlan(horizon: 0.72, footprint: 1.75, height: 0.74, trees: .oaks, walkway: 0.5)
        case .lawn: LandmarkPlan(horizon: 0.52, footprint: 2.3, height: 0.66, trees: .none)
        case .sculpture: LandmarkPlan(horizon: 0.74, footprint: 1.9, height: 0.98, foothills: false, trees: .oaks)
        case .museum: LandmarkPlan(horizon: 0.72, footprint: 1.85, height: 0.64, trees: .mixed, walkway: 0.8)
        case .lake: LandmarkPlan(horizon: 0.55, footprint: 2.2, height: 0.42, trees: .none)
        case .hills: LandmarkPlan(horizon: 0.58, footprint: 1.2, height: 1.0, foothills: false, trees: .none)
        case .stadium: LandmarkPlan(horizon: 0.3, footprint: 2, height: 0.2, trees: .none)
        case .hall: LandmarkPlan(horizon: 0.72, footprint: 1.8, height: 0.78, trees: .oaks, walkway: 0.3)
        case .cactus: LandmarkPlan(horizon: 0.5, footprint: 2.0, height: 1.0, foothills: false, trees: .none)
        case .statue: LandmarkPlan(horizon: 0.74, footprint: 1.2, height: 1.0, foothills: false, trees: .none)
        case .amphitheater: LandmarkPlan(horizon: 0.4, footprint: 2, height: 0.2, trees: .none)
        case .fountain: LandmarkPlan(horizon: 0.6, footprint: 1.7, height: 0.8, foothills: false, trees: .mixed)
        }
    }

    /// Draws `kind`'s landmark with `pen` (set up from the plan) into `stage`.
    static func draw(_ kind: PostcardScene.Kind, pen: LandmarkPen, stage: PostcardStage, random: inout PostcardRandom) {
        let c = stage.palette
        switch kind {
        case .tower: tower(pen, c)
        case .arcade: arcade(pen, c)
        case .church: church(pen, c, random: &random)
        case .library: library(pen, c)
        case .lawn: lawn(pen, stage, random: &random)
        case .sculpture: sculpture(pen, stage, random: &random)
        case .museum: museum(pen, c)
        case .lake: lake(pen, stage, random: &random)
        case .hills: dish(pen, stage, random: &random)
        case .stadium: stadium(stage, random: &random)
        case .hall: hall(pen, c)
        case .cactus: cactusGarden(pen, stage, random: &random)
        case .statue: angel(pen, stage, random: &random)
        case .amphitheater: amphitheater(stage, random: &random)
        case .fountain: fountain(pen, stage, random: &random)
        }
    }

    /// A hipped roof of red clay tiles with courses of shadow, the Quad's unmistakable roofline.
    static func tiledRoof(_ p: LandmarkPen, _ c: PostcardPalette, x0: Float, x1: Float, y0: Float, y1: Float, inset: Float) {
        p.poly([(x0, y0), (x1, y0), (x1 - inset, y1), (x0 + inset, y1)], top: c.tile, bottom: c.tileShade)
        let courses = Int(((y1 - y0) * p.unit / 4).rounded(.down))
        guard courses >= 2 else { return }
        var lines: [[PostcardPoint]] = []
        for i in 1..<min(courses, 6) {
            let t = Float(i) / Float(min(courses, 6))
            let y = y0 + (y1 - y0) * t
            let dx = inset * t
            lines.append(p.strokeShape([(x0 + dx, y), (x1 - dx, y)], width: p.pixel * 1.2))
        }
        p.union(lines, c.tileShade, alpha: 0.55)
    }
}
