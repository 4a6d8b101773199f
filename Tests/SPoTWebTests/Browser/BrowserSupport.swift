import Foundation
import Testing
import WebDriverKit

/// Where the browser tests save their screenshots (outside the repository).
let screenshotDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appending(path: "spot-screenshots", directoryHint: .isDirectory)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

extension WebDriverSession {
    /// The path and query of the current page.
    var pathAndQuery: String {
        get async throws {
            let url = try await currentURL
            return url.path + (url.query.map { "?" + $0 } ?? "")
        }
    }

    /// Waits until the current page's path starts with `prefix`.
    func waitForPath(_ prefix: String) async throws {
        try await waitUntil(timeout: .seconds(60), "the page at \(prefix)") { try await pathAndQuery.hasPrefix(prefix) }
    }

    /// Clicks the first element matching `css`.
    func click(_ css: String) async throws {
        try await findElement(css: css).click()
    }

    /// The number (or other JSON) a script returns.
    func number(_ script: String) async throws -> Int {
        try await executeScript(script).intValue ?? -1
    }

    /// Every `data-id` of the list's rows, in order, leaving rows out that are fading away.
    func rowIDs() async throws -> [String] {
        try await executeScript(
            "return [...document.querySelectorAll('#list-pane li.row:not(.row-leaving)')].map(r => r.dataset.id)",
            as: [String].self
        )
    }

    /// Every message the page logged at error level (CSP violations, script errors, failed
    /// loads among them), none left out.
    func errorLogs() async throws -> [String] {
        try await browserLogs().filter(\.isError).map(\.message)
    }
}
