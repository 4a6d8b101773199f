import Foundation
import SPoTKit
import TestSupport
import Testing
import WebDriverKit

@testable import SPoTWeb

/// Another process writes the server's store — `spot hide` and `spot unhide` in a terminal — and
/// the open page follows, without a reload.
@Suite("Another process's saves in a real browser", .serialized, .timeLimit(.minutes(10)))
struct RemoteChangeBrowserTests {
    /// Runs `spot ARGUMENTS --data-dir DIRECTORY` as a separate process and returns its output.
    static func spot(_ arguments: [String], in directory: URL) async throws -> String {
        let result = try await OwnThread.run {
            try ChildExecutable.run(ChildExecutable.url(named: "spot"), arguments + ["--data-dir", directory.path])
        }
        #expect(result.status == 0, "spot \(arguments.joined(separator: " ")): \(result.output)")
        return result.output
    }

    /// The photo count the Spots page shows for `spot`.
    static func shownCount(of spot: String, in browser: WebDriverSession) async throws -> String? {
        try await browser.executeScript(#"return document.querySelector('li.row[data-id="\#(spot)"] .row-count')?.textContent"#).stringValue
    }

    @Test func spotHideInATerminalTakesTheRowOffTheOpenPageAndTheCountFollows() async throws {
        try await WebFixture.run { fixture in
            try await fixture.serve { base in
                try await WebDriverSession.withSession(viewport: .desktop) { browser in
                    // The Spots list is open in the server from before the other process writes.
                    try await browser.navigate(to: base + "/")
                    let countBefore = try #require(try await Self.shownCount(of: "hoovertower", in: browser))
                    try await browser.navigate(to: base + "/tags/hoovertower")
                    let ids = try await browser.rowIDs()
                    #expect(countBefore == (ids.count == 1 ? "1 photo" : "\(ids.count) photos"))
                    let victim = try #require(ids.last)
                    _ = try await browser.executeScript("window.stillTheSamePage = 42")

                    _ = try await Self.spot(["hide", victim], in: fixture.directory)
                    try await browser.waitUntil(timeout: .seconds(20), "the hidden photo's row to leave") {
                        try await !browser.rowIDs().contains(victim)
                    }
                    #expect(try await browser.executeScript("return window.stillTheSamePage").intValue == 42, "the page was reloaded")
                    #expect(try await browser.rowIDs() == Array(ids.dropLast()))

                    try await browser.navigate(to: base + "/")
                    let remaining = ids.count - 1
                    #expect(try await Self.shownCount(of: "hoovertower", in: browser) == (remaining == 1 ? "1 photo" : "\(remaining) photos"))

                    // And back: `spot unhide` brings the row back to the open Spots page's count.
                    _ = try await browser.executeScript("window.stillTheSamePage = 43")
                    _ = try await Self.spot(["unhide", victim], in: fixture.directory)
                    try await browser.waitUntil(timeout: .seconds(20), "the count to come back") {
                        try await Self.shownCount(of: "hoovertower", in: browser) == countBefore
                    }
                    #expect(try await browser.executeScript("return window.stillTheSamePage").intValue == 43, "the page was reloaded")
                    #expect(try await browser.errorLogs() == [])
                }
            }
        }
    }
}
