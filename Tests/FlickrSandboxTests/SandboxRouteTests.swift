import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The sandbox's routes in memory (`app.test(.router)`), checked against Flickr's documented
/// answers and error codes.
@Suite struct SandboxRouteTests {
    static let rest = "/services/rest/?format=json&nojsoncallback=1&api_key=a1b2c3"
    static let extras = "original_format,tags,description,geo,date_upload,owner_name"

    func withApp(
        _ configuration: SandboxConfiguration = SandboxConfiguration(),
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let sandbox = FlickrSandbox(configuration: configuration)
        let app = Application(router: sandbox.buildRouter())
        try await app.test(.router, body)
    }

    func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func searchAnswerHasTheShapeOfFlickrsDocumentedExample() async throws {
        try await withApp { client in
            let response = try await client.execute(
                uri: Self.rest + "&method=flickr.photos.search&tags=hoovertower&per_page=5&extras=\(Self.extras)",
                method: .get
            )
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let actual = try JSONShape(json: text(response))
            #expect(try JSONShape(json: SandboxFixtures.search).mismatches(in: actual) == [])
            #expect(text(response).contains(#""total":"4""#), "total is a string, as on Flickr")
        }
    }

    @Test func photoWithoutPlaceHasFlickrsZeroCoordinates() async throws {
        try await withApp { client in
            let response = try await client.execute(
                uri: Self.rest + "&method=flickr.photos.search&tags=greenlibrary&extras=geo&per_page=100",
                method: .get
            )
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text(response).utf8)) as? [String: Any])
            let photos = try #require((object["photos"] as? [String: Any])?["photo"] as? [[String: Any]])
            let placeless = try #require(photos.first { $0["title"] as? String == "Bücherregale" })
            let placed = try #require(photos.first { $0["title"] as? String == "Finals week" })
            let documented = try JSONShape(json: SandboxFixtures.searchWithoutPlace)
            guard case .object(let root) = documented, case .object(let page)? = root["photos"],
                case .array(let element?)? = page["photo"]
            else {
                Issue.record("fixture has no photo")
                return
            }
            #expect(element.mismatches(in: JSONShape(placeless)) == [])
            #expect(placeless["latitude"] as? Int == 0)
            #expect(placed["latitude"] as? String != nil, "geotagged photos carry string coordinates")
        }
    }

    @Test func echoAnswerMatchesFlickrsExample() async throws {
        try await withApp { client in
            let response = try await client.execute(uri: Self.rest + "&method=flickr.test.echo", method: .get)
            let actual = try JSONShape(json: text(response))
            #expect(try JSONShape(json: SandboxFixtures.echo).mismatches(in: actual) == [])
            #expect(try JSONShape(json: SandboxFixtures.echo) == actual, "no more and no fewer keys")
        }
    }

    @Test func errorsUseFlickrsCodesAndShape() async throws {
        try await withApp(SandboxConfiguration(acceptedAPIKeys: ["good"])) { client in
            let expectations: [(String, Int, String)] = [
                ("/services/rest/?method=flickr.test.echo&format=json&nojsoncallback=1", 100, "Invalid API Key (Key has invalid format)"),
                (Self.rest + "&method=flickr.test.echo", 100, "Invalid API Key (Key not found)"),
                ("/services/rest/?method=flickr.test.echo&api_key=good&format=xmlrpc&nojsoncallback=1", 111, #"Format "xmlrpc" not found"#),
                (
                    "/services/rest/?method=flickr.photos.doesNotExist&api_key=good&format=json&nojsoncallback=1", 112,
                    #"Method "flickr.photos.doesNotExist" not found"#
                ),
            ]
            for (uri, code, message) in expectations {
                let response = try await client.execute(uri: uri, method: .get)
                let body = text(response)
                #expect(response.status == .ok, "Flickr reports API errors with HTTP 200")
                #expect(try JSONShape(json: SandboxFixtures.failure) == JSONShape(json: body))
                let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                #expect(object?["code"] as? Int == code)
                #expect(object?["message"] as? String == message)
            }
        }
    }

    @Test func withoutNojsoncallbackTheAnswerIsWrappedLikeFlickrs() async throws {
        try await withApp { client in
            let wrapped = try await client.execute(uri: "/services/rest/?method=flickr.test.echo&api_key=k&format=json", method: .get)
            #expect(text(wrapped).hasPrefix(#"jsonFlickrApi({"method":{"_content":"flickr.test.echo"}"#))
            #expect(text(wrapped).hasSuffix("})"))
            #expect(wrapped.headers[.contentType] == "text/javascript; charset=utf-8")
            let named = try await client.execute(
                uri: "/services/rest/?method=flickr.test.echo&api_key=k&format=json&jsoncallback=onEcho",
                method: .get
            )
            #expect(text(named).hasPrefix("onEcho({"))
        }
    }

    @Test func textIsEscapedAsFlickrEscapesIt() async throws {
        try await withApp { client in
            let response = try await client.execute(
                uri: Self.rest + "&method=flickr.photos.search&tags=hoovertower&extras=description,owner_name&per_page=10",
                method: .get
            )
            let body = text(response)
            #expect(body.contains(#"\u30d5\u30fc\u30d0\u30fc"#), "non-ASCII as \\u escapes")
            #expect(body.contains(#"\ud83c\udf09"#), "emoji as a surrogate pair")
            #expect(body.contains(#"<script>alert(\"spot\")<\/script>"#), "slashes escaped, the script left for clients to escape")
        }
    }

    @Test func pagingReportsPagesAndTotalLikeFlickr() async throws {
        try await withApp { client in
            let response = try await client.execute(uri: Self.rest + "&method=flickr.photos.search&tags=cs193pspot&per_page=10&page=3", method: .get)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text(response).utf8)) as? [String: Any])
            let photos = try #require(object["photos"] as? [String: Any])
            let totalText = try #require(photos["total"] as? String)
            let total = try #require(Int(totalText))
            #expect(photos["page"] as? Int == 3)
            #expect(photos["perpage"] as? Int == 10)
            #expect(photos["pages"] as? Int == (total + 9) / 10)
            #expect((photos["photo"] as? [Any])?.count == 10)
            let beyond = try await client.execute(uri: Self.rest + "&method=flickr.photos.search&tags=cs193pspot&per_page=10&page=99", method: .get)
            #expect(text(beyond).contains(#""photo":[]"#))
        }
    }

    @Test func imagePathsNeedTheRightServerSecretAndSize() async throws {
        try await withApp { client in
            let response = try await client.execute(
                uri: Self.rest + "&method=flickr.photos.search&tags=dish&per_page=1&extras=original_format",
                method: .get
            )
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text(response).utf8)) as? [String: Any])
            let photo = try #require(((object["photos"] as? [String: Any])?["photo"] as? [[String: Any]])?.first)
            let id = try #require(photo["id"] as? String)
            let secret = try #require(photo["secret"] as? String)
            let server = try #require(photo["server"] as? String)
            let original = try #require(photo["originalsecret"] as? String)
            for bad in [
                "/\(server)/\(id)_0123456789_q.jpg", "/1/\(id)_\(secret)_q.jpg", "/\(server)/\(id)_\(secret)_x.jpg",
                "/\(server)/\(id)_\(secret)_o.jpg", "/\(server)/\(id)_\(original)_q.jpg", "/\(server)/99_\(secret)_q.jpg",
                "/\(server)/\(id)_\(secret)_q.png",
            ] {
                #expect(try await client.execute(uri: bad, method: .get).status == .notFound, "\(bad)")
            }
            let good = try await client.execute(uri: "/\(server)/\(id)_\(secret)_q.jpg", method: .get)
            #expect(good.status == .ok)
            #expect(good.headers[.contentType] == "image/jpeg")
            let originalImage = try await client.execute(uri: "/\(server)/\(id)_\(original)_o.jpg", method: .get)
            #expect(originalImage.status == .ok)
        }
    }

    @Test func behaviourIsSetOverHTTPFromLoopbackOnly() async throws {
        try await withApp { client in
            let body = ByteBuffer(string: #"{"seed": 9, "http503Rate": 0.25, "nextFaults": ["http500"]}"#)
            let foreign = try await client.execute(
                uri: "/__sandbox/behavior",
                method: .post,
                headers: [.origin: "https://evil.example"],
                body: body
            )
            #expect(foreign.status == .forbidden)
            let set = try await client.execute(uri: "/__sandbox/behavior", method: .post, headers: [.origin: "http://127.0.0.1:8090"], body: body)
            #expect(set.status == .ok)
            let behavior = try JSONDecoder().decode(SandboxBehavior.self, from: Data(text(set).utf8))
            #expect(behavior == SandboxBehavior(seed: 9, http503Rate: 0.25, nextFaults: [.http500]))
            let faulted = try await client.execute(uri: Self.rest + "&method=flickr.test.echo", method: .get)
            #expect(faulted.status == .internalServerError)
            let bad = try await client.execute(uri: "/__sandbox/behavior", method: .post, body: ByteBuffer(string: "{nope"))
            #expect(bad.status == .badRequest)
        }
    }

    @Test func statsCountRoutesAndPhotosAndReset() async throws {
        try await withApp { client in
            _ = try await client.execute(uri: Self.rest + "&method=flickr.test.echo", method: .get)
            _ = try await client.execute(uri: Self.rest + "&method=flickr.test.echo", method: .get)
            _ = try await client.execute(uri: "/65535/123_abc_q.jpg", method: .get)
            let stats = try JSONDecoder().decode(
                SandboxStats.self,
                from: Data(text(try await client.execute(uri: "/__sandbox/stats", method: .get)).utf8)
            )
            #expect(stats.requests == 3)
            #expect(stats.restCalls("flickr.test.echo") == 2)
            #expect(stats.routes["image q"] == 1)
            let reset = try await client.execute(uri: "/__sandbox/stats/reset", method: .post)
            #expect(try JSONDecoder().decode(SandboxStats.self, from: Data(text(reset).utf8)) == SandboxStats())
        }
    }
}
