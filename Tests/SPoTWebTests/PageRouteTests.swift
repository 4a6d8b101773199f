import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SPoTWeb

@Suite("Pages: what each screen renders, in memory")
struct PageRouteTests {
    @Test func theSpotsPageListsAllFirstWithCounts() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let page = try await client.get("/")
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                let rows = rowTexts(page.body)
                #expect(rows.first?.hasPrefix("All") == true)
                #expect(rows.first?.hasSuffix("\(fixture.catalogue.count) photos") == true)
                #expect(rows.count > 10)
                // Every other row: a spot name and "N photo(s)", in case-insensitive order.
                let names = rows.dropFirst().map { $0.components(separatedBy: "|").first ?? "" }
                #expect(names == names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending })
                #expect(page.body.contains(#"aria-current="page">Spots"#))
                #expect(page.body.contains(#"data-live="/events?list=spots""#))
            }
        }
    }

    @Test func aSpotPageHasSectionsAnIndexAndLazyThumbnails() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let page = try await client.get("/tags/all")
                #expect(page.status == .ok)
                // "All" is sectioned by spot, with an index at the edge.
                #expect(page.body.contains(#"<nav class="section-index""#))
                #expect(page.body.components(separatedBy: #"<h2 class="section-header""#).count > 5)
                let thumbnails = page.body.components(separatedBy: #"<img class="thumb""#).count - 1
                #expect(thumbnails == fixture.catalogue.count)
                #expect(page.body.components(separatedBy: #"loading="lazy""#).count - 1 == thumbnails)

                let hoover = try await client.get("/tags/hoovertower")
                #expect(hoover.status == .ok)
                #expect(hoover.body.contains(#"<h1 id="list-title">Hoovertower</h1>"#))
                #expect(hoover.body.contains(#"<a class="back" href="/">Spots</a>"#))
                #expect(hoover.body.contains(#"href="/photos/"#))
                #expect(hoover.body.contains("?list=tags%2Fhoovertower"))
            }
        }
    }

    @Test func aSpotInAnotherCaseRedirectsToItsAddress() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let page = try await client.get("/tags/HooverTower")
                #expect(page.status == .movedPermanently)
                #expect(page.headers[.location] == "/tags/hoovertower")
            }
        }
    }

    @Test func thePhotoPageShowsTheViewerAndBecomesTheMostRecent() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let spot = try await client.get("/tags/hoovertower")
                let ids = photoIDs(spot.body)
                #expect(ids.count >= 3)
                let page = try await client.get("/photos/\(ids[1])?list=tags/hoovertower")
                #expect(page.status == .ok)
                #expect(page.body.contains(#"<div class="viewer loading" id="viewer""#))
                #expect(page.body.contains(#"src="/images/\#(ids[1])/large.jpg""#))
                #expect(page.body.contains(#"<a class="prev" href="/photos/\#(ids[0])?list=tags%2Fhoovertower""#))
                #expect(page.body.contains(#"<a class="next" href="/photos/\#(ids[2])?list=tags%2Fhoovertower""#))
                #expect(page.body.contains(#"<a class="back" href="/tags/hoovertower""#))
                #expect(page.body.contains(#"data-current="\#(ids[1])""#))
                #expect(page.body.contains(#"data-id="\#(ids[1])" aria-current="true""#), "the row shown is marked without script")
                #expect(page.body.components(separatedBy: "aria-current=\"true\"").count == 2)
                let first = try await client.get("/photos/\(ids[0])?list=tags/hoovertower")
                #expect(!first.body.contains(#"class="prev""#), "the first photo has no previous one")

                let recents = try await client.get("/recents")
                #expect(photoIDs(recents.body).prefix(2) == [ids[0], ids[1]])
            }
        }
    }

    @Test func hostileFlickrStringsRenderAsText() async throws {
        try await WebFixture.run { fixture in
            let hostile = try #require(fixture.catalogue.first { $0.title.contains("<script>") })
            try await fixture.application.test(.router) { client in
                for uri in ["/tags/hoovertower", "/photos/\(hostile.id)", "/search?q=script", "/tags/all"] {
                    let page = try await client.get(uri)
                    #expect(page.status == .ok, "\(uri)")
                    #expect(!page.body.contains("<script>alert"), "\(uri) carries the title's script tag")
                    #expect(page.body.contains("&lt;script&gt;alert"), "\(uri) lost the title")
                    // The only scripts are the app's own files.
                    let scripts = page.body.components(separatedBy: "<script").dropFirst()
                    #expect(scripts.allSatisfy { $0.hasPrefix(#" src="/static/"#) }, "\(uri)")
                    #expect(!page.body.contains(" onerror="), "\(uri)")
                    #expect(!page.body.contains(" style=\""), "\(uri) has an inline style")
                }
            }
        }
    }

    @Test func searchFindsSpotsAndPhotosIgnoringCaseAndAccents() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let page = try await client.get("/search?q=HOOVER")
                #expect(page.status == .ok)
                #expect(page.body.contains(#"value="HOOVER""#))
                #expect(page.body.contains(#"data-id="spot:hoovertower""#))
                #expect(page.body.contains(">Photos</h2>"))
                let empty = try await client.get("/search?q=")
                #expect(empty.status == .ok)
                #expect(photoIDs(empty.body).isEmpty)

                // Accents, either side: plain letters find accented titles and descriptions,
                // accented letters find plain ones; no photo is found by "ü" that "u" misses.
                func found(_ query: String) async throws -> Set<String> {
                    let ascii = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                    let page = try await client.get("/search?q=" + (query.addingPercentEncoding(withAllowedCharacters: ascii) ?? ""))
                    #expect(page.status == .ok, "\(query)")
                    return Set(photoIDs(page.body).map { $0.hasPrefix("photo:") ? String($0.dropFirst(6)) : $0 })
                }
                let photos = fixture.catalogue
                let bookshelves = try #require(photos.first { $0.title == "Bücherregale" })
                let dvorak = try #require(photos.first { $0.descriptionHTML.contains("Dvořák") })
                let angels = Set(photos.filter { $0.title.hasPrefix("Angel of Grief") || $0.title == "Ángel del dolor" }.map(\.id))
                #expect(angels.count == 3)
                #expect(try await found("BUCHERREGALE") == [bookshelves.id])
                #expect(try await found("bücherREGALE") == [bookshelves.id])
                #expect(try await found("dvorak") == [dvorak.id])
                #expect(try await found("DVOŘÁK") == [dvorak.id])
                #expect(try await found("ángel").isSuperset(of: angels))
                #expect(try await found("ANGEL").isSuperset(of: angels))
                let spots = try await client.get("/search?q=%C3%81NGELOF")  // "ÁNGELOF"
                #expect(spots.body.contains(#"data-id="spot:angelofgrief""#))
            }
        }
    }

    @Test func photographersAndTheirPhotos() async throws {
        try await WebFixture.run { fixture in
            try await fixture.application.test(.router) { client in
                let page = try await client.get("/photographers")
                #expect(page.status == .ok)
                let links = page.body.components(separatedBy: #"href="/photographers/"#).dropFirst().map { $0.prefix { $0 != "\"" } }
                let first = try #require(links.first)
                let photos = try await client.get("/photographers/\(first)")
                #expect(photos.status == .ok)
                #expect(!photoIDs(photos.body).isEmpty)
                #expect(photos.body.contains(#"<a class="back" href="/photographers">Photographers</a>"#))
            }
        }
    }

    @Test func staticAssetsAreServedWithETags() async throws {
        try await WebFixture.run(refreshed: false) { fixture in
            try await fixture.application.test(.router) { client in
                for (name, type) in [("app.css", "text/css"), ("app.js", "text/javascript"), ("viewer.js", "text/javascript")] {
                    let asset = try await client.get("/static/\(name)")
                    #expect(asset.status == .ok, "\(name)")
                    #expect(asset.headers[.contentType]?.hasPrefix(type) == true)
                    let etag = try #require(asset.headers[.eTag])
                    let again = try await client.get("/static/\(name)", headers: [.ifNoneMatch: etag])
                    #expect(again.status == .notModified)
                }
                #expect(try await client.get("/static/nope.js").status == .notFound)
                #expect(try await client.get("/static/..%2FPackage.swift").status == .notFound)
            }
        }
    }
}

/// Each row's visible text, name and count separated by `|`.
func rowTexts(_ html: String) -> [String] {
    html.components(separatedBy: #"<li class="row"#).dropFirst().map { row in
        let title = row.components(separatedBy: #"<span class="row-title">"#).dropFirst().first?.prefix { $0 != "<" } ?? ""
        let count = row.components(separatedBy: #"<span class="row-count">"#).dropFirst().first?.prefix { $0 != "<" }
        return String(title) + (count.map { "|" + $0 } ?? "")
    }
}

/// The ids of the photo rows, in order.
func photoIDs(_ html: String) -> [String] {
    html.components(separatedBy: #"<li class="row row-photo" data-id=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
}
