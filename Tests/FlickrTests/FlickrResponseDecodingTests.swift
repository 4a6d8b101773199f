import Flickr
import Foundation
import Testing

/// Decoding of Flickr's documented answers, quirks included, without a network.
@Suite struct FlickrResponseDecodingTests {
    let decoder = FlickrResponseDecoder(apiKey: FlickrAPIKey("fixture-key-abcdef"))

    /// A `flickr.photos.search` answer with SPoT's extras, as Flickr sends it: `total` and
    /// `dateupload` as strings, `farm` as a number, coordinates as strings, a photo without
    /// a place (`0` numbers), a photo without extras, HTML and entities in a description,
    /// `\/` and `\u` escapes (with an emoji as a surrogate pair).
    static let searchFixture = #"""
        {"photos":{"page":2,"pages":89,"perpage":3,"total":"881","photo":[
        {"id":"48499561892","owner":"7702423@N04","secret":"2fc41d65e3","server":"65535","farm":66,
         "title":"Fox Squirrels \u2014 summer","ispublic":1,"isfriend":0,"isfamily":0,
         "description":{"_content":"Out and about in <a href=\"https:\/\/www.umich.edu\/\" rel=\"nofollow\">Ann Arbor<\/a> &amp; happy \ud83c\udf35"},
         "dateupload":"1565395643","ownername":"cseeman","originalsecret":"9a1e1f0c2b","originalformat":"jpg",
         "tags":"gobluesquirrels Squirrels foxsquirrels","latitude":"42.277500","longitude":"-83.738200","accuracy":"16",
         "context":0,"place_id":"Z0nqQ0lTUL0pCJ4","woeid":"2354842","geo_is_public":1,"geo_is_contact":0,"geo_is_friend":0,"geo_is_family":0},
        {"id":"2636","owner":"47058503995@N01","secret":"a123456","server":"2","farm":1,"title":"test_04",
         "ispublic":1,"isfriend":0,"isfamily":0,"description":{"_content":""},"dateupload":"1100897479","ownername":"Bees",
         "tags":"","latitude":0,"longitude":0,"accuracy":0,"context":0},
        {"id":"2635","owner":"47058503995@N01","secret":"b123456","server":"2","farm":1,"title":"","ispublic":0,"isfriend":1,"isfamily":1}
        ]},"stat":"ok"}
        """#

    /// Flickr's documented error answer.
    static let failureFixture = #"{"stat":"fail","code":112,"message":"Method \"flickr.photos.doesNotExist\" not found"}"#

    @Test func documentedSearchDecodesWithEveryQuirk() throws {
        let page = try decoder.photoPage(from: Array(Self.searchFixture.utf8), method: "flickr.photos.search")
        #expect(page.page == 2)
        #expect(page.pages == 89)
        #expect(page.perPage == 3)
        #expect(page.total == 881)
        #expect(page.hasMore)
        try #require(page.photos.count == 3)

        let squirrels = page.photos[0]
        #expect(squirrels.id == "48499561892")
        #expect(squirrels.farm == 66)
        #expect(squirrels.title == "Fox Squirrels — summer")
        #expect(squirrels.descriptionHTML == #"Out and about in <a href="https://www.umich.edu/" rel="nofollow">Ann Arbor</a> &amp; happy 🌵"#)
        #expect(squirrels.uploadDate == Date(timeIntervalSince1970: 1_565_395_643))
        #expect(squirrels.ownerName == "cseeman")
        #expect(squirrels.tags == ["gobluesquirrels", "Squirrels", "foxsquirrels"])
        #expect(squirrels.coordinate == FlickrCoordinate(latitude: 42.2775, longitude: -83.7382, accuracy: 16))
        #expect(squirrels.originalSecret == "9a1e1f0c2b")
        #expect(squirrels.originalFormat == "jpg")

        let bees = page.photos[1]
        #expect(bees.coordinate == nil, "0,0 means no place, not the Gulf of Guinea")
        #expect(bees.tags.isEmpty)
        #expect(bees.descriptionHTML == "")
        #expect(bees.originalSecret == nil)

        let bare = page.photos[2]
        #expect(bare.title == "")
        #expect(bare.descriptionHTML == nil)
        #expect(bare.ownerName == nil)
        #expect(bare.uploadDate == nil)
        #expect(bare.tags.isEmpty)
    }

    @Test func jsonpWrappedBodyDecodesLikePlainJSON() throws {
        let plain = try decoder.photoPage(from: Array(Self.searchFixture.utf8), method: "flickr.photos.search")
        let wrapped = try decoder.photoPage(from: Array("jsonFlickrApi(\(Self.searchFixture))\n".utf8), method: "flickr.photos.search")
        let custom = try decoder.photoPage(from: Array("onPhotos(\(Self.searchFixture));".utf8), method: "flickr.photos.search")
        #expect(wrapped == plain)
        #expect(custom == plain)
    }

    @Test func numbersAsStringsAndStringsAsNumbersDecode() throws {
        let body =
            #"{"photos":{"page":"1","pages":"1","perpage":"100","total":1,"photo":[{"id":12345,"owner":"1@N01","secret":"abc","server":7,"farm":"5","title":2011,"dateupload":1300000000,"latitude":37.4,"longitude":"-122.1","accuracy":16}]},"stat":"ok"}"#
        let page = try decoder.photoPage(from: Array(body.utf8), method: "flickr.photos.search")
        let photo = try #require(page.photos.first)
        #expect(page.total == 1)
        #expect(photo.id == "12345")
        #expect(photo.server == "7")
        #expect(photo.farm == 5)
        #expect(photo.title == "2011")
        #expect(photo.uploadDate == Date(timeIntervalSince1970: 1_300_000_000))
        #expect(photo.coordinate?.latitude == 37.4)
        #expect(photo.coordinate?.longitude == -122.1)
    }

    @Test func statFailBecomesAnAPIErrorWithFlickrsCodeAndMessage() throws {
        let error = try #require(throws: FlickrError.self) {
            try decoder.photoPage(from: Array(Self.failureFixture.utf8), method: "flickr.photos.doesNotExist")
        }
        #expect(error.kind == .api)
        #expect(error.flickrCode == 112)
        #expect(error.flickrMessage == #"Method "flickr.photos.doesNotExist" not found"#)
        #expect(!error.isRetryable)
        #expect(error.description.contains("code 112"))
    }

    @Test func code105IsRetryableAndOtherAPICodesAreNot() throws {
        let unavailable = try #require(throws: FlickrError.self) {
            try decoder.photoPage(from: Array(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#.utf8), method: "m")
        }
        #expect(unavailable.isRetryable)
        let badFormat = try #require(throws: FlickrError.self) {
            try decoder.photoPage(from: Array(#"jsonFlickrApi({"stat":"fail","code":111,"message":"Format \"xml\" not found"})"#.utf8), method: "m")
        }
        #expect(badFormat.flickrCode == 111)
        #expect(!badFormat.isRetryable)
    }

    @Test func malformedBodyIsReportedWithAShortExcerpt() throws {
        let body = "<html><body>" + String(repeating: "Bad gateway. ", count: 50) + "</body></html>"
        let error = try #require(throws: FlickrError.self) {
            try decoder.photoPage(from: Array(body.utf8), method: "flickr.photos.search")
        }
        #expect(error.kind == .malformedResponse)
        let excerpt = try #require(error.bodyExcerpt)
        #expect(excerpt.hasPrefix("<html><body>Bad gateway."))
        #expect(excerpt.count == FlickrError.excerptLimit)
    }

    @Test func okAnswerWithoutPhotosIsMalformed() throws {
        let error = try #require(throws: FlickrError.self) {
            try decoder.photoPage(from: Array(#"{"stat":"ok"}"#.utf8), method: "flickr.photos.search")
        }
        #expect(error.kind == .malformedResponse)
    }
}
