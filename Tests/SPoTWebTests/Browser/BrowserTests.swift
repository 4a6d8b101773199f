import FlickrSandbox
import Foundation
import SPoTKit
import Testing
import WebDriverKit

@testable import SPoTWeb

/// The tour in headless Chromium (Debian's chromium and chromium-driver, installed by
/// `Scripts/test`), driven over WebDriver against a live server and the Flickr sandbox.
@Suite("In a real browser", .serialized, .timeLimit(.minutes(10)))
struct BrowserTests {
    @Test func spotsToPhotosToThePhotoToRecents() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    try await browser.navigate(to: base + "/")
                    #expect(try await browser.title == "Spots · SPoT")
                    #expect(try await browser.rowIDs().first == "all")
                    try await browser.click(#"li.row[data-id="hoovertower"] a"#)
                    try await browser.waitForPath("/tags/hoovertower")
                    let ids = try await browser.rowIDs()
                    #expect(ids.count >= 3)

                    try await browser.click(#"li.row[data-id="\#(ids[1])"] a"#)
                    try await browser.waitForPath("/photos/\(ids[1])")
                    try await browser.waitUntil(timeout: .seconds(60), "the photo to load") {
                        try await browser.executeScript("return !document.querySelector('#viewer').classList.contains('loading')").boolValue == true
                    }
                    // Opened filling the viewer: the image covers it, no empty bands.
                    let covers = try await browser.executeScript(
                        """
                        const v = document.querySelector('#viewer').getBoundingClientRect();
                        const i = document.querySelector('.viewer-image').getBoundingClientRect();
                        return i.left <= v.left + 1 && i.top <= v.top + 1 && i.right >= v.right - 1 && i.bottom >= v.bottom - 1;
                        """
                    )
                    #expect(covers.boolValue == true)
                    // The row shown is marked in the list beside the viewer.
                    #expect(
                        try await browser.executeScript("return document.querySelector('li.row[aria-current=\"true\"]')?.dataset.id").stringValue
                            == ids[1]
                    )

                    // Arrow keys step through the list it was opened from; Escape goes back to it.
                    try await browser.sendKeys(Key.arrowRight)
                    try await browser.waitForPath("/photos/\(ids[2])")
                    try await browser.sendKeys(Key.arrowLeft)
                    try await browser.waitForPath("/photos/\(ids[1])")
                    try await browser.sendKeys(Key.escape)
                    try await browser.waitForPath("/tags/hoovertower")

                    try await browser.click(#"nav.tabs a[href="/recents"]"#)
                    try await browser.waitForPath("/recents")
                    #expect(try await browser.rowIDs().prefix(2) == [ids[1], ids[2]])
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    @Test func onlyRowsNearTheScreenAskForThumbnailsAndNoneIsDownloadedTwice() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .phonePortrait) { browser in
                    try await browser.navigate(to: base + "/tags/all")
                    let rows = try await browser.rowIDs().count
                    #expect(rows == fixture.catalogue.count)
                    try await browser.waitUntil(timeout: .seconds(60), "the thumbnails on screen to load") {
                        try await browser.executeScript(
                            """
                            const shown = [...document.querySelectorAll('img.thumb')].filter(i => i.getBoundingClientRect().top < innerHeight);
                            return shown.length > 0 && shown.every(i => i.complete && i.naturalWidth > 0);
                            """
                        ).boolValue == true
                    }
                    let requested = fixture.web.counters.requests(.thumbnail)
                    #expect(requested.count > 0)
                    #expect(requested.count < rows / 2, "\(requested.count) of \(rows) rows asked for their thumbnail")
                    #expect(requested.values.allSatisfy { $0 == 1 })
                    let downloaded = Set(requested.keys).map { fixture.sandbox.stats.imageRequests(photoID: $0, suffix: "q") }
                    // Rows near the screen may still be downloading; none was downloaded twice.
                    #expect(downloaded.allSatisfy { $0 <= 1 } && downloaded.contains(1))

                    // Reloading and scrolling to the end: each thumbnail still downloaded at most once.
                    try await browser.refresh()
                    _ = try await browser.executeScript("document.querySelector('#list-scroll').scrollTop = 1e6; window.scrollTo(0, 1e6)")
                    try await browser.waitUntil(timeout: .seconds(60), "the last thumbnails to load") {
                        try await browser.executeScript(
                            """
                            const all = [...document.querySelectorAll('img.thumb')];
                            return all.slice(-3).every(i => i.complete && i.naturalWidth > 0);
                            """
                        ).boolValue == true
                    }
                    for photo in fixture.catalogue {
                        #expect(fixture.sandbox.stats.imageRequests(photoID: photo.id, suffix: "q") <= 1, "\(photo.id)")
                    }
                }
            }
        }
    }

    @Test func aRefreshAddsRowsToAnOpenPageWithoutAReload() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .tabletLandscape) { browser in
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    let before = try await browser.rowIDs()
                    _ = try await browser.executeScript("window.stillTheSamePage = 42")
                    fixture.sandbox.setEpoch(1)  // new photos, one of them at Hoover Tower
                    try await browser.click("#refresh-button")
                    try await browser.waitUntil(timeout: .seconds(60), "the new photo's row") { try await browser.rowIDs().count == before.count + 1 }
                    #expect(try await browser.executeScript("return window.stillTheSamePage").intValue == 42, "the page was reloaded")
                    let after = try await browser.rowIDs()
                    #expect(Set(before).isSubset(of: Set(after)))
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    @Test func aHiddenPhotoStaysHiddenAfterARefresh() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    let ids = try await browser.rowIDs()
                    let victim = try #require(ids.first)
                    try await browser.navigate(to: base + "/photos/\(victim)?list=tags/hoovertower")
                    _ = try await browser.executeScript("window.confirm = () => true")
                    try await browser.click(".hide-button")
                    // The next page offers undo for 5 s from when its script runs; a WebDriver click
                    // returns only once that page has loaded (its full-size photo rendered by the
                    // sandbox), which on a busy machine can be later: the offer's text stays.
                    try await browser.waitUntil(timeout: .seconds(60), "the undo offer") {
                        try await browser.executeScript("return document.querySelector('#toast .toast-message').textContent").stringValue
                            == "Photo hidden."
                    }
                    try await browser.waitUntil(timeout: .seconds(60), "the photo to be hidden") {
                        try await fixture.spot.store.photo(victim).isHidden
                    }
                    await fixture.spot.refresher.refresh()
                    #expect(try await fixture.spot.store.photo(victim).isHidden)
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    #expect(try await !browser.rowIDs().contains(victim))
                    #expect(try await browser.rowIDs().count == ids.count - 1)
                }
            }
        }
    }

    @Test func hostileFlickrStringsAreInert() async throws {
        try await WebFixture.run { fixture in
            let hostile = try #require(fixture.catalogue.first { $0.title.contains("<script>") })
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    for path in ["/photos/\(hostile.id)?list=tags/hoovertower", "/search?q=script", "/tags/all"] {
                        try await browser.navigate(to: base + path)
                        // An alert would make every command fail with "unexpected alert open".
                        let injected = try await browser.executeScript(
                            "return document.querySelectorAll('[onerror], [onload], [onclick], body script:not([src])').length"
                        )
                        #expect(injected.intValue == 0, "\(path)")
                        #expect(try await browser.pageSource.contains("&lt;script&gt;alert"), "\(path)")
                    }
                    try await browser.navigate(to: base + "/photos/\(hostile.id)")
                    #expect(try await browser.findElement(css: "#photo-title").text == hostile.title)
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    @Test(arguments: [Viewport.phonePortrait, .phoneLandscape, .tabletPortrait, .tabletLandscape])
    func nothingScrollsSidewaysOrOverlaps(viewport: Viewport) async throws {
        try await WebFixture.run { fixture in
            let photo = try #require(fixture.catalogue.first { $0.hasTag("hoovertower") && $0.title.contains("<script>") })
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: viewport) { browser in
                    let pages = [
                        ("spots", "/"), ("photos", "/tags/hoovertower"), ("all", "/tags/all"),
                        ("photo", "/photos/\(photo.id)?list=tags/hoovertower"), ("search", "/search?q=tower"),
                    ]
                    for (name, path) in pages {
                        try await browser.navigate(to: base + path)
                        let size = try await browser.executeScript("return innerWidth + 'x' + innerHeight").stringValue ?? "?"
                        #expect(size == "\(viewport.width)x\(viewport.height)")
                        if name == "photo" {
                            try await browser.waitUntil(timeout: .seconds(60), "the photo to load") {
                                try await browser.executeScript("return !document.querySelector('#viewer').classList.contains('loading')").boolValue
                                    == true
                            }
                        }
                        let overflow = try await browser.number("return document.documentElement.scrollWidth - innerWidth")
                        #expect(overflow <= 0, "\(name) at \(size) scrolls sideways by \(overflow) px")
                        let overlaps = try await browser.executeScript(Self.overlapScript).arrayValue ?? []
                        #expect(overlaps.isEmpty, "\(name) at \(size): \(overlaps)")
                        try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "\(size)-\(name).png"))
                    }
                    // A search that finds nothing says so, under no empty section headers.
                    try await browser.navigate(to: base + "/search?q=zzzz")
                    let headers = try await browser.number(
                        "return [...document.querySelectorAll('h2.section-header')].filter(h => h.offsetParent).length"
                    )
                    #expect(headers == 0)
                    #expect(try await browser.findElement(css: "p.empty").isDisplayed)
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    /// Pairs of visible header controls, or of a row's parts, whose boxes intersect.
    static let overlapScript = """
        const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
        const hit = (a, b) => { const x = a.getBoundingClientRect(), y = b.getBoundingClientRect();
          return x.left < y.right - 1 && y.left < x.right - 1 && x.top < y.bottom - 1 && y.top < x.bottom - 1; };
        const found = [];
        const groups = [[...document.querySelectorAll('.topbar > *')]];
        for (const row of [...document.querySelectorAll('li.row')].slice(0, 30)) groups.push([...row.querySelectorAll('.thumb, .row-text, .row-count')]);
        const header = document.querySelector('.detail-header'); if (header) groups.push([...header.children]);
        const panes = [...document.querySelectorAll('#list-pane, #detail-pane')]; groups.push(panes);
        for (const group of groups) {
          const shown = group.filter(visible);
          for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++)
            if (hit(shown[i], shown[j])) found.push((shown[i].className || shown[i].tagName) + ' / ' + (shown[j].className || shown[j].tagName));
        }
        return found;
        """
}

/// A page left open while the server restarts.
@Suite("In a real browser: server restarts", .serialized, .timeLimit(.minutes(10)))
struct BrowserRestartTests {
    @Test func anOpenPageReconnectsAfterARestartAndResynchronisesWithoutAReload() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve(fixture.web, port: 0) { first in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    try await browser.navigate(to: first.base + "/tags/hoovertower")
                    let before = try await browser.rowIDs()
                    let hidden = try #require(before.first)
                    _ = try await browser.executeScript("window.stillTheSamePage = 7")

                    // The server goes away; meanwhile the data changes.
                    await first.stop()
                    try await fixture.spot.store.hide(hidden)

                    // A new server (new lists, new versions) on the same port.
                    let restarted = try await SPoTWebApp(spot: fixture.spot, logger: WebFixture.silent)
                    try await fixture.serve(restarted, port: first.port) { _ in
                        try await browser.waitUntil(timeout: .seconds(30), "the page to resynchronise") {
                            try await browser.rowIDs() == Array(before.dropFirst())
                        }
                        #expect(try await browser.executeScript("return window.stillTheSamePage").intValue == 7, "the page was reloaded")
                        await restarted.closeLiveLists()
                    }
                }
            }
        }
    }
}
