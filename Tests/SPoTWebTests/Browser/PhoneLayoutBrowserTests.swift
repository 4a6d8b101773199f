import FlickrSandbox
import Foundation
import SPoTKit
import Testing
import WebDriverKit

@testable import SPoTWeb

/// Phones in headless Chromium: the full-screen photo viewer, and compact bars in landscape.
@Suite("In a real browser: phones", .serialized, .timeLimit(.minutes(10)))
struct PhoneLayoutBrowserTests {
    /// How much of the viewport the photo covers (0 to 1), and whether the details sheet and
    /// the bar are on screen.
    static let viewerScript = """
        const i = document.querySelector('.viewer-image').getBoundingClientRect();
        const w = Math.max(0, Math.min(i.right, innerWidth) - Math.max(i.left, 0));
        const h = Math.max(0, Math.min(i.bottom, innerHeight) - Math.max(i.top, 0));
        const onScreen = e => { if (!e) return false; const r = e.getBoundingClientRect();
          return getComputedStyle(e).visibility !== 'hidden' && r.height > 0 && r.top < innerHeight - 1 && r.bottom > 1; };
        const bar = document.querySelector('.detail-header');
        return { covered: (w * h) / (innerWidth * innerHeight), sheet: onScreen(document.querySelector('.photo-info')),
                 bar: onScreen(bar) && getComputedStyle(bar).opacity === '1', barTop: bar.getBoundingClientRect().top,
                 barBackground: getComputedStyle(bar).backgroundColor };
        """

    @Test(arguments: [Viewport.phonePortrait, .phoneLandscape])
    func thePhotoFillsAPhoneScreenUnderATranslucentBar(viewport: Viewport) async throws {
        try await WebFixture.run { fixture in
            let photo = try #require(fixture.catalogue.first { $0.hasTag("hoovertower") })
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: viewport) { browser in
                    let size = "\(viewport.width)x\(viewport.height)"
                    try await browser.navigate(to: base + "/photos/\(photo.id)?list=tags/hoovertower")
                    try await browser.waitUntil(timeout: .seconds(60), "the photo to load") {
                        try await browser.executeScript("return !document.querySelector('#viewer').classList.contains('loading')").boolValue == true
                    }
                    let opened = try await browser.executeScript(Self.viewerScript)
                    let covered = try #require(opened["covered"]?.doubleValue)
                    #expect(covered >= 0.9, "the photo covers \(covered) of \(size)")
                    #expect(opened["bar"]?.boolValue == true, "the bar shows over the photo")
                    #expect(opened["barTop"]?.doubleValue == 0)
                    #expect(opened["barBackground"]?.stringValue?.hasPrefix("rgba(") == true, "translucent: \(opened)")
                    // The details wait for a tap (on a loaded machine the sheet may still be
                    // sliding away from a previous layout: await its resting state).
                    try await browser.waitUntil(timeout: .seconds(10), "the details to wait for a tap") {
                        try await browser.executeScript(Self.viewerScript)["sheet"]?.boolValue == false
                    }
                    try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "\(size)-viewer.png"))

                    // Details and actions are a tap away.
                    try await browser.click(".info-toggle")
                    try await browser.waitUntil(timeout: .seconds(10), "the details sheet") {
                        try await browser.executeScript(Self.viewerScript)["sheet"]?.boolValue == true
                    }
                    #expect(try await browser.findElement(css: ".hide-button").isDisplayed)
                    #expect(try await browser.findElement(css: ".info-toggle").attribute("aria-expanded") == "true")
                    try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "\(size)-viewer-details.png"))
                    try await browser.sendKeys(Key.escape)  // closes the sheet, stays on the photo
                    try await browser.waitUntil(timeout: .seconds(10), "the sheet to close") {
                        try await browser.executeScript(Self.viewerScript)["sheet"]?.boolValue == false
                    }
                    #expect(try await browser.pathAndQuery.hasPrefix("/photos/\(photo.id)"))

                    // A tap on the photo hides the bar; another brings it back.
                    try await tap(browser)
                    try await browser.waitUntil(timeout: .seconds(10), "the bar to hide") {
                        try await browser.executeScript(Self.viewerScript)["bar"]?.boolValue == false
                    }
                    try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "\(size)-viewer-bare.png"))
                    try await tap(browser)
                    try await browser.waitUntil(timeout: .seconds(10), "the bar to come back") {
                        try await browser.executeScript(Self.viewerScript)["bar"]?.boolValue == true
                    }

                    // Zoom as before: the + button zooms in.
                    let before = try await browser.executeScript("return Number(document.querySelector('#viewer').dataset.scale)").doubleValue ?? 0
                    try await browser.click(".zoom-in")
                    let after = try await browser.executeScript("return Number(document.querySelector('#viewer').dataset.scale)").doubleValue ?? 0
                    #expect(after > before)
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    /// A single touch tap in the middle of the viewer, as a finger makes it.
    func tap(_ browser: WebDriverSession) async throws {
        _ = try await browser.executeScript(
            """
            const v = document.querySelector('#viewer'); const r = v.getBoundingClientRect();
            const at = { pointerId: 7, pointerType: 'touch', isPrimary: true, bubbles: true, cancelable: true,
                         clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
            v.dispatchEvent(new PointerEvent('pointerdown', at));
            v.dispatchEvent(new PointerEvent('pointerup', at));
            """
        )
    }

    @Test func aListShowsAtLeastFiveRowsInPhoneLandscape() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .phoneLandscape) { browser in
                    // A spot's page (Hoover Tower has four photos: all of them), "All" (sectioned by
                    // spot), the spots and the photographers.
                    for (name, path) in [("spots", "/"), ("photos", "/tags/hoovertower"), ("all", "/tags/all"), ("photographers", "/photographers")] {
                        try await browser.navigate(to: base + path)
                        let rows = try await browser.number(
                            """
                            return [...document.querySelectorAll('li.row')].filter(r => {
                              const b = r.getBoundingClientRect(); return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight + 0.5; }).length
                            """
                        )
                        let total = try await browser.number("return document.querySelectorAll('li.row').length")
                        #expect(rows >= min(5, total) && total >= 4, "\(name): \(rows) of \(total) rows in full view at 667x375")
                        try await browser.saveScreenshot(to: screenshotDirectory.appending(path: "667x375-rows-\(name).png"))
                    }
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }

    @Test func theConsoleErrorCheckFailsOnAnError() async throws {
        try await WebFixture.run(refreshed: false) { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    try await browser.navigate(to: base + "/")
                    #expect(try await browser.errorLogs() == [], "a clean page logs nothing (favicon.ico included)")
                    // A script error, and an image that is not there: both reach the check.
                    _ = try await browser.executeScript(
                        "console.error('deliberate error for the check'); const i = new Image(); i.src = '/static/missing.png'; document.body.append(i);"
                    )
                    var logged: [String] = []
                    try await browser.waitUntil(timeout: .seconds(10), "both errors in the log") {
                        logged += try await browser.errorLogs()
                        return logged.contains { $0.contains("deliberate error for the check") } && logged.contains { $0.contains("missing.png") }
                    }
                }
            }
        }
    }
}

@Suite("Browser logs: a reply that cannot be read is an error")
struct BrowserLogParsingTests {
    @Test func malformedRepliesThrowInsteadOfReadingAsAnEmptyLog() throws {
        let good: JSONValue = .array([.object(["level": .string("SEVERE"), "message": .string("boom"), "timestamp": .number(1000)])])
        let entries = try BrowserLogEntry.entries(from: good)
        #expect(entries.map(\.description) == ["[SEVERE] boom"])
        #expect(entries.first?.isError == true)
        let malformed: [JSONValue] = [
            .null, .object(["value": .array([])]), .string("[]"), .array([.object(["level": .string("SEVERE")])]), .array([.number(1)]),
        ]
        for bad in malformed {
            #expect(throws: WebDriverError.self, "\(bad)") { try BrowserLogEntry.entries(from: bad) }
        }
    }
}
