import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import SPoTKit
import Testing

@testable import SPoTWeb

@Suite("JSON API, actions and bad input, in memory")
struct APIRouteTests {
    @Test func listsAsJSONSnapshots() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let tags = try json(try await client.get("/api/tags").body)
                let sections = try #require(tags["sections"] as? [[String: Any]])
                let rows = try #require(sections.first?["rows"] as? [[String: Any]])
                #expect(rows.first?["id"] as? String == "all")
                #expect(rows.first?["photoCount"] as? Int == fixture.catalogue.count)
                #expect(tags["version"] is Int)

                let photos = try json(try await client.get("/api/tags/hoovertower/photos").body)
                let photoSections = try #require(photos["sections"] as? [[String: Any]])
                let photoRows = photoSections.flatMap { $0["rows"] as? [[String: Any]] ?? [] }
                let expected = fixture.catalogue.filter { $0.hasTag("hoovertower") }
                #expect(photoRows.count == expected.count)
                let hostile = try #require(expected.first { $0.title.contains("<script>") })
                #expect(photoRows.contains { $0["title"] as? String == hostile.title })

                let detail = try json(try await client.get("/api/photos/\(hostile.id)").body)
                #expect(detail["isHidden"] as? Bool == false)
                #expect((detail["row"] as? [String: Any])?["id"] as? String == hostile.id)

                for uri in ["/api/recents", "/api/photographers", "/api/search?q=quad", "/api/status", "/health"] {
                    let answer = try await client.get(uri)
                    #expect(answer.status == .ok, "\(uri)")
                    #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                    _ = try json(answer.body)
                }
                let status = try json(try await client.get("/api/status").body)
                #expect(status["completedRefreshes"] as? Int == 1)
                #expect(status["isRunning"] as? Bool == false)
            }
        }
    }

    @Test func searchAnswersSpotsAndPhotosInADocumentedShape() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let answer = try await client.get("/api/search?q=%20%20Hoover%20")
                #expect(answer.status == .ok)
                #expect(!answer.body.contains("_0"), "no synthesized enum coding: \(answer.body.prefix(200))")
                let body = try json(answer.body)
                #expect(Set(body.keys) == ["query", "version", "spots", "photos"])
                #expect(body["query"] as? String == "Hoover")
                #expect(body["version"] is Int)
                let spots = try #require(body["spots"] as? [[String: Any]])
                #expect(spots.map { $0["id"] as? String } == ["hoovertower"])
                #expect(Set(spots[0].keys) == ["id", "name", "photoCount"])
                #expect(spots[0]["photoCount"] as? Int == fixture.catalogue.filter { $0.hasTag("hoovertower") }.count)
                let photos = try #require(body["photos"] as? [[String: Any]])
                // Each found by its title or description; every title that says Hoover found.
                let ids = Set(photos.compactMap { $0["id"] as? String })
                #expect(ids.isSuperset(of: fixture.catalogue.filter { $0.title.localizedCaseInsensitiveContains("hoover") }.map(\.id)))
                #expect(photos.allSatisfy { "\($0["title"] ?? "") \($0["subtitle"] ?? "")".localizedCaseInsensitiveContains("hoover") })
                #expect(photos.count > spots.count)
                #expect(photos.allSatisfy { $0["title"] is String && $0["photographer"] is String && $0["hasOriginal"] is Bool })

                let nothing = try json(try await client.get("/api/search").body)
                #expect(nothing["spots"] as? [Any] != nil && (nothing["spots"] as? [Any])?.isEmpty == true)
                #expect((nothing["photos"] as? [Any])?.isEmpty == true)
                #expect(nothing["query"] as? String == "")
            }
        }
    }

    @Test func hidingAPhotoRemovesItEverywhereAndARefreshKeepsItHidden() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let spot = try await client.get("/tags/hoovertower")
                let id = try #require(photoIDs(spot.body).first)
                let hide = try await client.post("/api/photos/\(id)/hide")
                #expect(hide.status == .ok)
                #expect(try json(hide.body)["hidden"] as? Bool == true)
                #expect(!photoIDs(try await client.get("/tags/hoovertower").body).contains(id))
                #expect(!photoIDs(try await client.get("/tags/all").body).contains(id))

                await fixture.spot.refresher.refresh()
                #expect(!photoIDs(try await client.get("/tags/hoovertower").body).contains(id))
                let page = try await client.get("/photos/\(id)")
                #expect(page.body.contains(#"<form class="unhide-form""#))

                #expect(try await client.post("/api/photos/\(id)/unhide").status == .ok)
                #expect(photoIDs(try await client.get("/tags/hoovertower").body).contains(id))
            }
        }
    }

    @Test func formPostsRedirectBackToTheirPage() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let id = try #require(photoIDs(try await client.get("/tags/hoovertower").body).first)
                var headers = sameOrigin
                headers[.referer] = "http://localhost/photos/\(id)?list=tags%2Fhoovertower"
                let hide = try await client.post("/photos/\(id)/hide", headers: headers)
                #expect(hide.status == .seeOther)
                #expect(hide.headers[.location] == "/photos/\(id)?list=tags%2Fhoovertower")
                let unhide = try await client.post("/photos/\(id)/unhide", headers: sameOrigin)
                #expect(unhide.status == .seeOther)
                #expect(unhide.headers[.location] == "/photos/\(id)")
                headers[.referer] = "http://evil.example/"
                headers[.origin] = nil
                #expect(try await client.post("/refresh", headers: headers).status == .forbidden)
            }
        }
    }

    @Test func stateChangesFromOtherOriginsAreRefused() async throws {
        try await WebFixture.run { fixture in
            let id = try #require(fixture.catalogue.first?.id)
            try await fixture.application.test(.router) { client in
                let cases: [(HTTPFields, String)] = [
                    ([:], "no origin"),
                    ([.origin: "http://evil.example"], "another origin"),
                    ([.origin: "http://localhost.evil.example"], "a look-alike origin"),
                    ([.origin: "null"], "an opaque origin"),
                    ([.origin: "http://localhost", .secFetchSite: "cross-site"], "a cross-site fetch"),
                ]
                for (headers, label) in cases {
                    for uri in ["/api/refresh", "/api/photos/\(id)/hide", "/refresh", "/photos/\(id)/hide"] {
                        let answer = try await client.post(uri, headers: headers)
                        #expect(answer.status == .forbidden, "\(uri) with \(label)")
                        #expect(!answer.body.isEmpty, "a refusal says why")
                    }
                }
                let photo = try json(try await client.get("/api/photos/\(id)").body)
                #expect(photo["isHidden"] as? Bool == false, "nothing was hidden")
                let refresh = try await client.post("/api/refresh")
                #expect(refresh.status == .accepted)
            }
        }
    }

    @Test func badInputGetsA4xxWithAReason() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let cases: [(String, HTTPResponse.Status)] = [
                    ("/photos/12%3Cscript%3E", .badRequest),
                    ("/photos/99999999999", .notFound),
                    ("/photos/\(fixture.catalogue[0].id)?list=bogus", .badRequest),
                    ("/photos/\(fixture.catalogue[0].id)?list=tags/", .badRequest),
                    ("/tags/nosuchspot", .notFound),
                    ("/photographers/nobody@N00", .notFound),
                    ("/photographers/%3Cb%3E", .badRequest),
                    ("/search?q=" + String(repeating: "a", count: 201), .badRequest),
                    ("/search?q=%00", .badRequest),
                    ("/images/\(fixture.catalogue[0].id)/huge.jpg", .notFound),
                    ("/thumbnails/\(fixture.catalogue[0].id).png", .notFound),
                    ("/thumbnails/..%2F..%2Fetc%2Fpasswd.jpg", .badRequest),
                    ("/debug/entities/Nope", .notFound),
                    ("/debug/entities/Photo?page=0", .badRequest),
                    ("/debug/object?uri=garbage", .badRequest),
                    ("/debug/entities/Photo?predicate=title%20%3D%3D%20AND", .badRequest),
                    ("/debug/entities/Photo?predicate=%3Cscript%3Ealert(1)", .badRequest),
                    ("/no/such/page", .notFound),
                ]
                for (uri, status) in cases {
                    let answer = try await client.get(uri)
                    #expect(answer.status == status, "\(uri): \(answer.status)")
                    #expect(answer.body.contains(#"<p class="error-reason">"#), "\(uri) says why")
                    #expect(!answer.body.contains("<script>alert"), "\(uri)")
                }
                let apiCases: [(String, HTTPResponse.Status)] = [
                    ("/api/photos/nope!", .badRequest), ("/api/photos/123456789012", .notFound),
                    ("/api/tags/nosuchspot/photos", .notFound), ("/api/nothing", .notFound), ("/events?list=bogus", .badRequest),
                ]
                for (uri, status) in apiCases {
                    let answer = try await client.get(uri)
                    #expect(answer.status == status, "\(uri)")
                    #expect(try json(answer.body)["error"] is String, "\(uri)")
                }
            }
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        try await WebFixture.run(refreshed: false) { fixture in
            try await fixture.application.test(.router) { client in
                for uri in ["/", "/api/tags", "/static/app.css", "/no/such/page"] {
                    let answer = try await client.get(uri)
                    let policy = try #require(answer.headers[.contentSecurityPolicy], "\(uri)")
                    #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
                    #expect(answer.headers[.xContentTypeOptions] == "nosniff")
                }
            }
        }
    }

    @Test func thumbnailsAreDownloadedOnceAndCachedByBrowsers() async throws {
        try await WebFixture.run { fixture in
            let id = try #require(fixture.catalogue.first?.id)
            try await fixture.application.test(.router) { client in
                let first = try await client.get("/thumbnails/\(id).jpg")
                #expect(first.status == .ok)
                #expect(first.headers[.contentType] == "image/jpeg")
                #expect(first.headers[.cacheControl]?.contains("max-age=31536000") == true)
                let etag = try #require(first.headers[.eTag])
                #expect(try await client.get("/thumbnails/\(id).jpg", headers: [.ifNoneMatch: etag]).status == .notModified)
                #expect(try await client.get("/thumbnails/\(id).jpg").status == .ok)
                #expect(fixture.sandbox.stats.imageRequests(photoID: id, suffix: "q") == 1)

                let large = try await client.get("/images/\(id)/large.jpg")
                #expect(large.status == .ok)
                #expect(large.headers[.contentType] == "image/jpeg")
                #expect(try await client.get("/images/\(id)/original.jpg").status == .ok)
            }
        }
    }

    @Test func theDebugBrowserWalksAnyEntity() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let entities = try await client.get("/debug/entities")
                #expect(entities.status == .ok)
                #expect(entities.body.contains(#"<a href="/debug/entities/Photo">Photo</a>"#))
                #expect(entities.body.contains(">\(fixture.catalogue.count)</td>"))
                let photos = try await client.get("/debug/entities/Photo")
                #expect(photos.status == .ok)
                let link = try #require(photos.body.components(separatedBy: #"<a href="/debug/object?uri="#).dropFirst().first?.prefix { $0 != "\"" })
                let object = try await client.get("/debug/object?uri=" + link)
                #expect(object.status == .ok, "\(link)")
                #expect(object.body.contains("<h2>Relationships</h2>"))
                #expect(object.body.contains(#"href="/debug/object?uri="#), "relationships are links")

                // The predicate field filters with the full grammar.
                let id = try #require(fixture.catalogue.first?.id)
                let filtered = try await client.get("/debug/entities/Photo?predicate=unique+%3D%3D+%27\(id)%27+AND+title+%21%3D+nil")
                #expect(filtered.status == .ok)
                #expect(filtered.body.contains(#"id="debug-predicate""#))
                #expect(filtered.body.contains("1 objects matching"), "the photo \(id)")
                let bad = try await client.get("/debug/entities/Photo?predicate=title%20%3D%3D%20AND")
                #expect(bad.status == .badRequest)
                #expect(bad.body.contains("Unexpected token &#39;AND&#39; at position 9"))
            }
        }
    }
}
