import Flickr
import Foundation
import Testing

/// Image URLs for every size, and no URL when a secret is missing.
@Suite struct FlickrPhotoURLTests {
    let photo = FlickrPhoto(
        id: "53325959773",
        owner: "48247111@N07",
        secret: "a1b2c3d4e5",
        server: "65535",
        farm: 66,
        originalSecret: "0f9e8d7c6b",
        originalFormat: "png"
    )

    @Test(arguments: [
        (FlickrPhotoFormat.square75, "53325959773_a1b2c3d4e5_s.jpg"),
        (.square150, "53325959773_a1b2c3d4e5_q.jpg"),
        (.thumbnail100, "53325959773_a1b2c3d4e5_t.jpg"),
        (.small240, "53325959773_a1b2c3d4e5_m.jpg"),
        (.small320, "53325959773_a1b2c3d4e5_n.jpg"),
        (.small400, "53325959773_a1b2c3d4e5_w.jpg"),
        (.medium500, "53325959773_a1b2c3d4e5.jpg"),
        (.medium640, "53325959773_a1b2c3d4e5_z.jpg"),
        (.medium800, "53325959773_a1b2c3d4e5_c.jpg"),
        (.large1024, "53325959773_a1b2c3d4e5_b.jpg"),
        (.original, "53325959773_0f9e8d7c6b_o.png"),
    ])
    func urlOnLiveStaticFlickr(format: FlickrPhotoFormat, file: String) throws {
        let url = try #require(photo.url(for: format))
        #expect(url.absoluteString == "https://live.staticflickr.com/65535/\(file)")
    }

    @Test func hostIsConfigurableForTheSandbox() throws {
        let url = try #require(photo.url(for: .square150, host: URL(string: "http://127.0.0.1:8090")!))
        #expect(url.absoluteString == "http://127.0.0.1:8090/65535/53325959773_a1b2c3d4e5_q.jpg")
    }

    @Test func sizesNeedingAMissingSecretHaveNoURL() {
        var plain = photo
        plain.originalSecret = nil
        #expect(plain.url(for: .original) == nil)
        #expect(plain.url(for: .large1600) == nil)
        #expect(plain.url(for: .large2048) == nil)
        #expect(plain.url(for: .large1024) != nil)
        var withoutFormat = photo
        withoutFormat.originalFormat = nil
        #expect(withoutFormat.url(for: .original) == nil)
        var withSizeSecrets = photo
        withSizeSecrets.sizeSecrets = [.large1600: "1600secret"]
        #expect(withSizeSecrets.url(for: .large1600)?.lastPathComponent == "53325959773_1600secret_h.jpg")
    }

    @Test func pixelSizesFollowFlickr() {
        #expect(FlickrPhotoFormat.square75.pixelSize(forOriginalWidth: 2400, height: 1800) == (75, 75))
        #expect(FlickrPhotoFormat.square150.pixelSize(forOriginalWidth: 1800, height: 2400) == (150, 150))
        #expect(FlickrPhotoFormat.large1024.pixelSize(forOriginalWidth: 2400, height: 1800) == (1024, 768))
        #expect(FlickrPhotoFormat.large1024.pixelSize(forOriginalWidth: 1800, height: 2400) == (768, 1024))
        #expect(FlickrPhotoFormat.large2048.pixelSize(forOriginalWidth: 1000, height: 800) == (1000, 800), "never enlarged")
        #expect(FlickrPhotoFormat.original.pixelSize(forOriginalWidth: 2400, height: 1800) == (2400, 1800))
        #expect(FlickrPhotoFormat(suffix: "b") == .large1024)
        #expect(FlickrPhotoFormat(suffix: "") == .medium500)
        #expect(FlickrPhotoFormat(suffix: "x") == nil)
    }

    @Test func requestURLCarriesMethodPagingFormatAndKey() throws {
        let configuration = FlickrConfiguration(apiKey: FlickrAPIKey("k3y"))
        let url = configuration.requestURL(for: .stanfordSpots(), page: 3, perPage: 900)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(url.absoluteString.hasPrefix("https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=k3y&"))
        #expect(items["user_id"] == "48247111@N07")
        #expect(items["extras"] == "original_format,tags,description,geo,date_upload,owner_name")
        #expect(items["format"] == "json")
        #expect(items["nojsoncallback"] == "1")
        #expect(items["page"] == "3")
        #expect(items["per_page"] == "500", "Flickr's maximum")
        let tagged = configuration.requestURL(for: .tagged(), page: 1, perPage: 100)
        #expect(tagged.query?.contains("tags=cs193pspot") == true)
        let recent = configuration.requestURL(for: .recentGeoreferenced())
        #expect(recent.query?.contains("has_geo=1") == true)
    }
}
