import Foundation

/// Everything a landmark routine may need about the picture it is drawn into.
struct PostcardStage {
    /// The scene's own canvas (inside the postcard's border, above its caption band).
    let canvas: PostcardCanvas
    /// The colours of this scene at this time of day.
    let palette: PostcardPalette
    /// When the picture is "taken".
    let time: PostcardTimeOfDay
    /// Canvas y of the horizon.
    let horizon: Float
    /// Whether the sun (and so the light) comes from the left.
    let sunOnLeft: Bool
    /// The scene's combined seed, for landmark-specific random streams.
    let seed: UInt64

    /// Scene width in pixels.
    var width: Float { Float(canvas.width) }
    /// Scene height in pixels.
    var height: Float { Float(canvas.height) }
    /// The scene's smaller dimension, the yardstick for sizes that must suit any aspect ratio.
    var size: Float { min(width, height) }

    /// A random stream private to one element of the picture, so that skipping or adding
    /// detail in one element (as small pictures do) never reshuffles the others.
    func random(_ stream: UInt64) -> PostcardRandom { PostcardRandom(seed: seed, stream: stream) }
}

/// Lays a ``PostcardScene`` out as a postcard of a given size and paints it.
///
/// Pictures at least 110 px on both sides get a paper border and a caption band with the spot's
/// name; smaller thumbnails are all scene, since a caption there would be unreadable anyway.
struct PostcardComposer {
    /// What to paint.
    let scene: PostcardScene
    /// Output width in pixels.
    let width: Int
    /// Output height in pixels.
    let height: Int

    /// The finished postcard.
    func render() -> PostcardCanvas {
        // Fold the name and kind into the seed so two spots sharing a seed still differ.
        let seed = scene.seed ^ PostcardRandom.hash(scene.spotName) ^ (PostcardRandom.hash(scene.kind.rawValue) >> 1)
        var choices = PostcardRandom(seed: seed, stream: 1)
        let time = PostcardTimeOfDay.pick(choices.unit(), sky: scene.sky)
        let coin = choices.chance(0.5)
        let sunOnLeft = time == .dawn ? true : time == .dusk ? false : coin
        let palette = PostcardPalette(scene: scene, time: time, sunOnLeft: sunOnLeft, sunHeight: choices.unit())
        let framing = (offset: choices.float(-1, 1), scale: choices.float(0.86, 1))

        let layout = PostcardLayout(width: width, height: height, name: scene.spotName)
        let page = PostcardCanvas(width: width, height: height, fill: palette.paper)
        let picture = PostcardCanvas(width: layout.sceneWidth, height: layout.sceneHeight, fill: palette.skyTop)
        let plan = PostcardLandmarks.plan(for: scene.kind)
        let portrait = picture.height * 100 > picture.width * 115
        let horizon = (Float(picture.height) * min(plan.horizon + (portrait ? 0.05 : 0), 0.85)).rounded()
        let stage = PostcardStage(canvas: picture, palette: palette, time: time, horizon: horizon, sunOnLeft: sunOnLeft, seed: seed)
        paint(stage, plan: plan, framing: framing)
        page.draw(picture, x: layout.border, y: layout.border)
        layout.drawCaption(on: page, palette: palette)
        return page
    }

    /// Sky, sun, clouds, hills, landmark, framing trees, birds and the final grade.
    private func paint(_ stage: PostcardStage, plan: LandmarkPlan, framing: (offset: Float, scale: Float)) {
        let canvas = stage.canvas
        let palette = stage.palette
        let w = stage.width
        let h = stage.height
        let horizon = stage.horizon
        PostcardScenery.skyAndGround(canvas, horizon: horizon, palette: palette)
        var sky = stage.random(7)
        PostcardScenery.sun(canvas, horizon: horizon, palette: palette, time: stage.time, random: &sky)
        var clouds = stage.random(2)
        PostcardScenery.clouds(canvas, horizon: horizon, palette: palette, random: &clouds)
        var hills = stage.random(3)
        if plan.foothills {
            let far = palette.haze.mixed(with: palette.skyHorizon, 0.25)
            PostcardScenery.hills(
                canvas,
                horizon: horizon,
                height: h * 0.12,
                top: far,
                bottom: far.mixed(with: palette.groundFar, 0.3),
                random: &hills
            )
            let near = palette.haze.mixed(with: palette.foliageDark, 0.25)
            PostcardScenery.hills(
                canvas,
                horizon: horizon,
                height: h * 0.06,
                top: near,
                bottom: near.mixed(with: palette.groundFar, 0.4),
                random: &hills
            )
        }
        if plan.trees != .none {
            PostcardScenery.treeline(
                canvas,
                horizon: horizon,
                size: h * 0.028,
                color: palette.foliageDark.mixed(with: palette.haze, 0.35),
                random: &hills
            )
        }

        // The landmark, as large as the scene allows, nudged off-centre by the seed.
        let base = horizon + h * 0.035
        let room = base - h * 0.07
        // Wide landmarks may run off the sides of square and portrait pictures rather than shrink
        // to a sliver: a cropped arcade still reads as the Quad, a tiny one does not.
        let across = w * 100 >= h * 125 ? w * 0.94 : w * 1.2
        let unit = min(room / plan.height, across / plan.footprint) * framing.scale
        let slack = max(0, w - unit * plan.footprint) / 2
        let cx = w / 2 + framing.offset * slack * 0.6
        let pen = LandmarkPen(canvas: canvas, originX: cx, baseY: base, unit: unit, flip: stage.sunOnLeft ? 1 : -1)
        if let walkway = plan.walkway {
            let paving = palette.groundNear.mixed(with: RGB(232, 222, 200).lit(by: palette.light), 0.55)
            let top = walkway * unit / 2
            let bottom = max(top * 2.5, w * 0.2)
            canvas.fill(
                [
                    PostcardPoint(cx - top, base - 1), PostcardPoint(cx + top, base - 1), PostcardPoint(cx + bottom, h + 1),
                    PostcardPoint(cx - bottom, h + 1),
                ],
                top: paving.mixed(with: palette.groundFar, 0.3),
                bottom: paving
            )
        }
        var landmark = stage.random(4)
        PostcardLandmarks.draw(scene.kind, pen: pen, stage: stage, random: &landmark)

        // Framing trees either side, standing a little in front of the landmark.
        var trees = stage.random(5)
        let half = unit * plan.footprint / 2
        for side: Float in [-1, 1] {
            let count = plan.trees == .none ? 0 : 1 + trees.int(2)
            for k in 0..<count {
                let x = cx + side * (half * trees.float(0.75, 1.05) + Float(k) * w * 0.09 + trees.float(0, 0.05) * w)
                let foot = base + h * trees.float(0.01, 0.06)
                let palm = plan.trees == .palms || (plan.trees == .mixed && trees.chance(0.5))
                if palm {
                    let tall = min(unit * plan.height * trees.float(0.6, 0.85), h * 0.62)
                    PostcardScenery.palm(
                        canvas,
                        x: x,
                        base: foot,
                        height: tall,
                        lean: side * trees.float(0.02, 0.1),
                        palette: palette,
                        random: &trees
                    )
                } else {
                    let size = min(unit * plan.height * trees.float(0.35, 0.5), h * 0.35)
                    PostcardScenery.oak(canvas, x: x, base: foot, size: size, sunOnLeft: stage.sunOnLeft, palette: palette, random: &trees)
                }
            }
        }
        if stage.time != .night {
            var birds = stage.random(6)
            PostcardScenery.birds(canvas, horizon: horizon, palette: palette, random: &birds)
        }

        let warmth: Float
        switch stage.time {
        case .dawn: warmth = 0.1
        case .day: warmth = 0.04
        case .goldenHour: warmth = 0.14
        case .dusk: warmth = 0.18
        case .night: warmth = 0.12
        }
        canvas.grade(tint: palette.light, amount: warmth, vignette: 0.22)
    }
}
