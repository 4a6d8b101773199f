import Foundation
import Testing
import WebDriverKit

/// `objectgraph browse` in headless Chromium (Debian's chromium and chromium-driver), driven
/// over WebDriver against the command running on a copy of a fixture store.
@Suite("objectgraph browse in a real browser", .serialized, .timeLimit(.minutes(5)))
struct ObjectGraphBrowseBrowserTests {
    @Test func entitiesToObjectsToAnObjectThenAPredicate() async throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let reference = try #require(try CoreDataStoreFixtures.reference(["entity", store.path, "Car"])["rows"] as? [String: [String: Any]])
        let fiats = reference.values.filter { ($0["ZMAKER"] as? String)?.caseInsensitiveCompare("fiat") == .orderedSame }.count
        try #require(fiats > 0 && fiats < reference.count)
        try await BrowseServer.run(store) { server in
            try await WebDriverSession.withSession(viewport: .desktop) { browser in
                try await browser.navigate(to: server.base + "/")
                try await browser.waitUntil(timeout: .seconds(30), "the entities page") { try await browser.currentURL.path == "/entities" }
                #expect(try await browser.findElement(css: "h1").text == "Entities")

                try await browser.findElement(css: #"a[href="/entities/Car"]"#).click()
                try await browser.waitUntil(timeout: .seconds(30), "Car's objects") { try await browser.currentURL.path == "/entities/Car" }
                #expect(try await browser.findElement(css: "#debug-total").text.hasPrefix("\(reference.count) objects"))
                let first = try await browser.findElement(css: ".debug-objects li a")
                let label = try await first.text
                try await first.click()
                try await browser.waitUntil(timeout: .seconds(30), "the object's page") { try await browser.currentURL.path == "/object" }
                #expect(try await browser.findElement(css: "h1").text == label)
                let pk = try #require(label.split(separator: " ").last.map(String.init))
                let row = try #require(reference[pk])
                let cells = try await browser.executeScript(
                    "return Object.fromEntries([...document.querySelectorAll('tr')].map(r => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]))"
                )
                #expect(cells["numberPlate"]?.stringValue == row["ZNUMBERPLATE"] as? String)

                try await browser.findElement(css: "a.back").click()
                try await browser.waitUntil(timeout: .seconds(30), "Car's objects again") { try await browser.currentURL.path == "/entities/Car" }
                let field = try await browser.findElement(css: "#debug-predicate")
                try await field.sendKeys("maker ==[c] 'fiat'" + Key.enter)
                try await browser.waitUntil(timeout: .seconds(30), "the filtered list") {
                    try await browser.findElement(css: "#debug-total").text.hasPrefix("\(fiats) objects matching")
                }
                #expect(try await browser.findElement(css: "#debug-predicate").property("value").stringValue == "maker ==[c] 'fiat'")
                let summaries = try await browser.executeScript(
                    "return [...document.querySelectorAll('.debug-summary')].map(s => s.textContent)",
                    as: [String].self
                )
                #expect(!summaries.isEmpty)
                #expect(summaries.allSatisfy { $0.contains("maker: FIAT") }, "\(summaries.prefix(3))")
                #expect(try await browser.browserLogs().filter(\.isError).isEmpty)
            }
        }
    }
}
