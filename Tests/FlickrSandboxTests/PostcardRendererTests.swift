import Testing

@testable import FlickrSandbox

/// The generated postcards: well-formed baseline JPEGs at exactly the requested sizes,
/// deterministic, and actually different from scene to scene.
@Suite("Postcard renderer")
struct PostcardRendererTests {
    /// A typical catalogue entry.
    static let tower = PostcardScene(
        spotName: "Hoover Tower",
        kind: .tower,
        sky: RGB(120, 170, 225),
        ground: RGB(110, 150, 80),
        accent: RGB(214, 184, 140),
        seed: 42
    )

    /// One JPEG marker segment before the entropy-coded data.
    struct Segment {
        /// The marker's second byte (0xC0 for SOF0, 0xDA for SOS…).
        var marker: UInt8
        /// The segment's payload, without the marker and length bytes.
        var payload: ArraySlice<UInt8>
    }

    /// The segments from SOI up to and including SOS, and the offset where scan data starts.
    static func segments(_ jpeg: [UInt8]) throws -> (segments: [Segment], scanStart: Int) {
        try #require(jpeg.count > 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "missing SOI")
        var result: [Segment] = []
        var i = 2
        while i + 4 <= jpeg.count {
            try #require(jpeg[i] == 0xFF, "expected a marker at \(i)")
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            try #require(length >= 2 && i + 2 + length <= jpeg.count, "bad segment length")
            result.append(Segment(marker: marker, payload: jpeg[(i + 4)..<(i + 2 + length)]))
            i += 2 + length
            if marker == 0xDA { return (result, i) }
        }
        Issue.record("no SOS segment")
        return (result, i)
    }

    /// The (width, height) recorded in the SOF0 frame header.
    static func frameSize(_ jpeg: [UInt8]) throws -> (width: Int, height: Int) {
        let sof = try #require(try segments(jpeg).segments.first { $0.marker == 0xC0 }, "no baseline SOF0")
        let p = Array(sof.payload)
        return (Int(p[3]) << 8 | Int(p[4]), Int(p[1]) << 8 | Int(p[2]))
    }

    @Test("A JPEG is framed by SOI and EOI and has the baseline segments in order")
    func structure() throws {
        let jpeg = PostcardRenderer.jpeg(Self.tower, width: 320, height: 240)
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        let (segments, scanStart) = try Self.segments(jpeg)
        #expect(segments.map(\.marker) == [0xE0, 0xDB, 0xC0, 0xC4, 0xDA])
        #expect(Array(segments[0].payload.prefix(5)) == Array("JFIF\0".utf8))
        let sof = Array(segments[2].payload)
        #expect(sof[0] == 8, "8-bit samples")
        #expect(sof[5] == 3, "three components (YCbCr)")
        #expect(!segments.contains { $0.marker == 0xC2 }, "not progressive")

        // Inside the scan every 0xFF must be stuffed with 0x00, or a decoder would see a marker.
        let scan = jpeg[scanStart..<(jpeg.count - 2)]
        var stuffed = true
        var index = scan.startIndex
        while index < scan.endIndex {
            if scan[index] == 0xFF {
                stuffed = stuffed && index + 1 < scan.endIndex && scan[index + 1] == 0x00
                index += 1
            }
            index += 1
        }
        #expect(stuffed)
        #expect(scan.count > 1_000, "a real picture, not a flat placeholder")
    }

    @Test(
        "Every Flickr size comes out at exactly the requested dimensions",
        arguments: [
            (75, 75), (150, 150), (100, 75), (240, 180), (320, 240), (400, 300), (500, 375), (640, 480),
            (800, 600), (1024, 768), (2048, 1536), (375, 500), (240, 320), (768, 1024), (1, 1), (17, 9),
        ]
    )
    func sizes(width: Int, height: Int) throws {
        let jpeg = PostcardRenderer.jpeg(Self.tower, width: width, height: height)
        let size = try Self.frameSize(jpeg)
        #expect(size.width == width)
        #expect(size.height == height)
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
    }

    @Test("The same scene and size always give the same bytes")
    func deterministic() {
        let first = PostcardRenderer.jpeg(Self.tower, width: 240, height: 180)
        let second = PostcardRenderer.jpeg(Self.tower, width: 240, height: 180)
        #expect(first == second)
        let copy = PostcardScene(
            spotName: "Hoover Tower",
            kind: .tower,
            sky: RGB(120, 170, 225),
            ground: RGB(110, 150, 80),
            accent: RGB(214, 184, 140),
            seed: 42
        )
        #expect(PostcardRenderer.jpeg(copy, width: 240, height: 180) == first)
    }

    @Test("Different seeds, kinds, names and colours give different pictures")
    func scenesDiffer() {
        func render(_ change: (inout PostcardScene) -> Void) -> [UInt8] {
            var scene = Self.tower
            change(&scene)
            return PostcardRenderer.jpeg(scene, width: 160, height: 120)
        }
        let base = render { _ in }
        #expect(render { $0.seed = 43 } != base)
        #expect(render { $0.spotName = "Hoover Tower at Night" } != base)
        #expect(render { $0.accent = RGB(120, 30, 30) } != base)
        let kinds = PostcardScene.Kind.allCases.map { kind in render { $0.kind = kind } }
        #expect(Set(kinds).count == PostcardScene.Kind.allCases.count, "every kind draws its own scene")
    }

    @Test("Quality scales the tables as libjpeg does and trades size for fidelity")
    func quality() throws {
        let low = PostcardRenderer.jpeg(Self.tower, width: 320, height: 240, quality: 30)
        let high = PostcardRenderer.jpeg(Self.tower, width: 320, height: 240, quality: 95)
        #expect(high.count > low.count)
        // libjpeg's quality-85 luminance table starts 5 3 3 5 7 12 15 18 in its first row;
        // DQT stores it in zig-zag order.
        let dqt = try #require(try Self.segments(PostcardRenderer.jpeg(Self.tower, width: 64, height: 48)).segments.first { $0.marker == 0xDB })
        let zigZagged = Array(dqt.payload.dropFirst().prefix(64))
        var natural = [UInt8](repeating: 0, count: 64)
        for (k, n) in JPEGTables.zigZag.enumerated() { natural[n] = zigZagged[k] }
        #expect(Array(natural.prefix(8)) == [5, 3, 3, 5, 7, 12, 15, 18])
        #expect(JPEGTables.scaled(JPEGTables.luminanceQuantization, quality: 50) == JPEGTables.luminanceQuantization)
        #expect(JPEGTables.scaled(JPEGTables.chrominanceQuantization, quality: 100).allSatisfy { $0 == 1 })
        #expect(JPEGTables.luminanceACSymbols.count == JPEGTables.luminanceACCounts.reduce(0) { $0 + Int($1) })
        #expect(JPEGTables.chrominanceACSymbols.count == JPEGTables.chrominanceACCounts.reduce(0) { $0 + Int($1) })
    }

    @Test("Captions fit: full names on postcards, none on the tiniest thumbnails")
    func captions() {
        #expect(PostcardLayout(width: 75, height: 75, name: "Hoover Tower").lines.isEmpty)
        #expect(PostcardLayout(width: 100, height: 75, name: "Hoover Tower").band == 0)
        let square = PostcardLayout(width: 150, height: 150, name: "Hoover Tower")
        #expect(square.lines == ["Hoover Tower"])
        #expect(square.scale >= 1)
        let card = PostcardLayout(width: 1024, height: 768, name: "Rodin Sculpture Garden")
        #expect(card.lines == ["Rodin Sculpture Garden"])
        #expect(card.scale >= 5)
        #expect(PostcardLayout(width: 240, height: 320, name: "Arizona Cactus Garden").lines.count == 2)
        for layout in [square, card] {
            let textWidth = layout.lines.map { PostcardFont.width(of: $0, scale: layout.scale) }.max() ?? 0
            #expect(textWidth <= Float(layout.width - 2 * layout.border))
        }
        #expect(PostcardFont.normalized("Café “Rodin” – Ω") == "Cafe \"Rodin\" - Ω")
        // Characters outside the font still render (as boxes) rather than failing.
        let odd = PostcardScene(spotName: "Ω 東京 ✓", kind: .fountain, sky: RGB(0, 0, 0), ground: RGB(255, 255, 255), accent: RGB(9, 9, 9), seed: 0)
        #expect(Array(PostcardRenderer.jpeg(odd, width: 320, height: 240).suffix(2)) == [0xFF, 0xD9])
    }
}
