import Foundation

/// Where the scene, the paper border and the caption go on a postcard of a given size,
/// and how big the caption can be.
struct PostcardLayout {
    /// Paper border width in pixels (0 on thumbnails).
    let border: Int
    /// Caption band height in pixels (0 on thumbnails).
    let band: Int
    /// Width of the scene inside the border.
    let sceneWidth: Int
    /// Height of the scene inside the border and above the band.
    let sceneHeight: Int
    /// The caption's lines, already normalised for the font (empty when there is no caption).
    let lines: [String]
    /// Pixels per font dot.
    let scale: Float
    /// The whole postcard's size.
    let width: Int, height: Int

    /// Smallest side that still gets a border and a caption.
    static let captionThreshold = 110

    /// The layout for a `width`×`height` postcard captioned `name`.
    init(width: Int, height: Int, name: String) {
        self.width = width
        self.height = height
        let shorter = min(width, height)
        let text = PostcardFont.normalized(name).trimmingCharacters(in: .whitespaces)
        guard shorter >= Self.captionThreshold, !text.isEmpty else {
            (border, band, sceneWidth, sceneHeight, lines, scale) = (0, 0, width, height, [], 0)
            return
        }
        let border = max(3, Int((Float(shorter) * 0.03).rounded()))
        // Portrait cards get the band sized from their width, so it does not swallow the scene.
        let band = max(16, Int((Float(min(height, width * 5 / 4)) * 0.14).rounded()))
        let room = Float(width - 2 * border) * 0.9
        let bandRoom = Float(band)

        // One line, or two if the name is long and splitting it lets the letters be larger.
        // Small text stays on whole pixels so each dot is crisp; below one pixel per dot it
        // cannot be drawn at all.
        func usable(_ raw: Float) -> Float { raw >= 3 ? raw : raw.rounded(.down) }
        var best = (lines: [text], scale: usable(min(bandRoom * 0.62 / PostcardFont.lineRows, room / PostcardFont.width(of: text, scale: 1))))
        let words = text.split(separator: " ").map(String.init)
        if words.count > 1 {
            var split = (0, Int.max)
            for i in 1..<words.count {
                let a = words[..<i].joined(separator: " ").count
                let b = words[i...].joined(separator: " ").count
                if max(a, b) < split.1 { split = (i, max(a, b)) }
            }
            let two = [words[..<split.0].joined(separator: " "), words[split.0...].joined(separator: " ")]
            let widest = two.map { PostcardFont.width(of: $0, scale: 1) }.max() ?? 1
            let twoScale = usable(min(bandRoom * 0.92 / (2 * PostcardFont.lineRows + 1), room / widest))
            if twoScale > best.scale * 1.2 { best = (two, twoScale) }
        }
        var scale = best.scale
        var lines = best.lines
        if scale < 1 {
            // Nothing fits: the initials are better than nothing.
            let initials = String(words.compactMap(\.first).prefix(3)).uppercased()
            lines = [initials]
            scale = min(bandRoom * 0.62 / PostcardFont.lineRows, room / PostcardFont.width(of: initials, scale: 1)).rounded(.down)
            if scale < 1 { lines = [] }
        }
        self.border = border
        self.band = band
        self.lines = lines
        self.scale = scale
        sceneWidth = max(1, width - 2 * border)
        sceneHeight = max(1, height - 2 * border - band)
    }

    /// Paints the caption band's text (the band itself is the page's paper) and a thin keyline
    /// around the scene, as printed postcards have.
    func drawCaption(on page: PostcardCanvas, palette: PostcardPalette) {
        guard band > 0 else { return }
        let b = Float(border)
        let sceneBottom = b + Float(sceneHeight)
        let keyline = max(1, Float(border) * 0.12)
        let ring = [
            [
                PostcardPoint(b - keyline, b - keyline), PostcardPoint(b + Float(sceneWidth) + keyline, b - keyline),
                PostcardPoint(b + Float(sceneWidth) + keyline, b), PostcardPoint(b - keyline, b),
            ],
            [
                PostcardPoint(b - keyline, sceneBottom), PostcardPoint(b + Float(sceneWidth) + keyline, sceneBottom),
                PostcardPoint(b + Float(sceneWidth) + keyline, sceneBottom + keyline), PostcardPoint(b - keyline, sceneBottom + keyline),
            ],
            [PostcardPoint(b - keyline, b), PostcardPoint(b, b), PostcardPoint(b, sceneBottom), PostcardPoint(b - keyline, sceneBottom)],
            [
                PostcardPoint(b + Float(sceneWidth), b), PostcardPoint(b + Float(sceneWidth) + keyline, b),
                PostcardPoint(b + Float(sceneWidth) + keyline, sceneBottom), PostcardPoint(b + Float(sceneWidth), sceneBottom),
            ],
        ]
        page.fill(ring, palette.ink, alpha: 0.35)

        guard !lines.isEmpty, scale > 0 else { return }
        let lineHeight = PostcardFont.lineRows * scale
        let gap = lines.count > 1 ? scale : 0
        let block = PostcardFont.capRows * scale + Float(lines.count - 1) * (lineHeight + gap)
        // Centre on the capitals, not the descenders, which is where the eye puts the middle.
        var top = sceneBottom + keyline + (Float(height) - b - sceneBottom - keyline - block) / 2
        let crisp = scale < 3
        var contours: [[PostcardPoint]] = []
        for line in lines {
            var x = (Float(width) - PostcardFont.width(of: line, scale: scale)) / 2
            var y = top
            if crisp {
                x = x.rounded()
                y = y.rounded()
            }
            contours += PostcardFont.contours(line, x: x, y: y, scale: scale, smooth: !crisp)
            top += lineHeight + gap
        }
        page.fill(contours, palette.ink)
    }
}
