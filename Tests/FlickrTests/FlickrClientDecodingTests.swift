import AsyncHTTPClient
import Flickr
import FlickrSandbox
import Foundation
import NIOCore
import Testing

/// The client reads the sandbox's Flickr JSON over real loopback HTTP, quirks and all.
@Suite(.timeLimit(.minutes(10))) struct FlickrClientDecodingTests {
    /// Seconds since 1970 of a UTC date, computed independently of the sandbox.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    @Test func spotPhotosDecodeWithTheAwkwardCasesIntact() async throws {
        try await SandboxHarness.run { harness in
            let photos = try await harness.client.allPhotos(.tagged(), perPage: 500)
            func photo(titled title: String) throws -> FlickrPhoto {
                try #require(photos.first { $0.title == title }, "no photo titled \(title)")
            }

            let script = try photo(titled: #"<script>alert("spot")</script> Hoover Tower from the Quad"#)
            #expect(script.tags.contains("hoovertower"))

            let dusk = try photo(titled: "Hoover at dusk")
            #expect(dusk.tags == ["cs193pspot", "HooverTower", "portrait", "dusk", "carillon"], "mixed case kept")
            #expect(dusk.descriptionHTML?.contains("&mdash;") == true)
            #expect(dusk.descriptionHTML?.contains("<b>$5</b>") == true)
            #expect(dusk.ownerName == "Ana Lucía Ortega")
            #expect(dusk.uploadDate == Self.utc(2016, 5, 21, 2, 47))
            let coordinate = try #require(dusk.coordinate)
            #expect(abs(coordinate.latitude - 37.42747) < 0.001)
            #expect(abs(coordinate.longitude - -122.16673) < 0.001)
            #expect(coordinate.accuracy == 16)

            let japanese = try photo(titled: "フーバータワーの展望台から")
            #expect(japanese.descriptionHTML?.hasSuffix("🌉") == true, "emoji survive \\u surrogate escapes")
            #expect(try photo(titled: "斯坦福纪念教堂").ownerName == "Wei Chen 陈伟")
            #expect(try photo(titled: "حديقة الصبار").ownerName == "Маша Ковалёва")

            let link = try photo(titled: "Quad in the rain ☔")
            #expect(
                link.descriptionHTML?.contains(#"<a href="https://en.wikipedia.org/wiki/Main_Quad_(Stanford_University)" rel="nofollow">"#) == true
            )

            let untitled = photos.filter { $0.title.isEmpty }
            #expect(untitled.count >= 3)
            #expect(photos.contains { $0.descriptionHTML == "" })

            let withoutPlace = try photo(titled: "Bücherregale")
            #expect(withoutPlace.coordinate == nil)
            let withoutOriginal = try photo(titled: "Oval at golden hour")
            #expect(withoutOriginal.originalSecret == nil)
            #expect(harness.client.url(for: withoutOriginal, format: .original) == nil)
            #expect(harness.client.url(for: withoutOriginal, format: .large1024) != nil)

            let twoSpots = try photo(titled: "The Burghers of Calais")
            #expect(twoSpots.tags.contains("rodinsculpturegarden") && twoSpots.tags.contains("cantorartscenter"))
            #expect(Set(photos.compactMap(\.ownerName)).count >= 6, "several photographers")
            #expect(photos.filter { $0.tags.contains("portrait") || $0.tags.contains("landscape") }.count * 10 >= photos.count * 9)
        }
    }

    @Test func jsonpAnswerFromTheSandboxDecodesThroughTheSameDecoder() async throws {
        try await SandboxHarness.run { harness in
            let url =
                harness.baseURL.appendingPathComponent("services/rest/").absoluteString
                + "?method=flickr.photos.search&api_key=k&format=json&tags=cs193pspot&per_page=5&extras=tags,geo,date_upload"
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            #expect(String(decoding: body.prefix(14), as: UTF8.self) == "jsonFlickrApi(")
            let page = try FlickrResponseDecoder(apiKey: nil).photoPage(from: body, method: "flickr.photos.search")
            #expect(page.photos.count == 5)
            #expect(page.total > 60)
            #expect(page.photos.allSatisfy { $0.uploadDate != nil && !$0.tags.isEmpty })
        }
    }

    @Test func echoReturnsTheParametersFlickrReceived() async throws {
        try await SandboxHarness.run { harness in
            let echoed = try await harness.client.echo(["greeting": "héllo wörld & co", "emoji": "🌵"])
            #expect(echoed["method"] == "flickr.test.echo")
            #expect(echoed["greeting"] == "héllo wörld & co")
            #expect(echoed["emoji"] == "🌵")
            #expect(echoed["format"] == "json")
            #expect(echoed["nojsoncallback"] == "1")
        }
    }
}
