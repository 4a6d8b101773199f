import FlickrSandbox
import Foundation
import Testing
import WebDriverKit

@testable import SPoTWeb

/// Thumbnails Flickr cannot give, in headless Chromium.
@Suite("In a real browser: thumbnails that cannot be fetched", .serialized, .timeLimit(.minutes(10)))
struct ThumbnailBrowserTests {
    /// How many thumbnails show the browser's broken-image icon: an address that failed to load.
    static let brokenScript = """
        return [...document.querySelectorAll('img.thumb')]
          .filter(i => i.getAttribute('src') && i.complete && i.naturalWidth === 0).length
        """

    @Test func aThumbnailFlickrCannotGiveShowsAPlaceholderUntilARenderFetchesIt() async throws {
        try await WebFixture.run { fixture in
            // The refresh is done; thumbnails are fetched when a page first shows them. From now
            // on Flickr answers every request with HTTP 500.
            fixture.sandbox.setBehavior(SandboxBehavior(http500Rate: 1))
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    let rows = try await browser.rowIDs().count
                    #expect(rows >= 3)
                    try await browser.waitUntil(timeout: .seconds(60), "every thumbnail to give up") {
                        try await browser.number("return document.querySelectorAll('.thumb.thumb-missing').length") == rows
                    }
                    #expect(try await browser.number(Self.brokenScript) == 0, "no broken-image icon")
                    let placeholder = try await browser.executeScript(
                        """
                        const t = document.querySelector('.thumb-missing'); const r = t.getBoundingClientRect();
                        return { image: getComputedStyle(t).backgroundImage, width: r.width, label: t.getAttribute('aria-label') };
                        """
                    )
                    #expect(placeholder["image"]?.stringValue?.contains("svg") == true, "a photo glyph: \(placeholder)")
                    #expect(placeholder["width"]?.doubleValue == 56, "the thumbnail keeps its place: \(placeholder)")
                    #expect(placeholder["label"]?.stringValue == "Thumbnail unavailable")
                    try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "thumbnails-missing.png"))

                    // Flickr is back: the next render of the list fetches them.
                    fixture.sandbox.setBehavior(SandboxBehavior())
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    try await browser.waitUntil(timeout: .seconds(60), "the thumbnails to load") {
                        try await browser.number(
                            "return [...document.querySelectorAll('img.thumb')].filter(i => i.complete && i.naturalWidth > 0).length"
                        ) == rows
                    }
                    #expect(try await browser.number("return document.querySelectorAll('.thumb-missing').length") == 0)
                }
            }
        }
    }
}
