import Foundation
import Hummingbird
import SPoTKit

/// Wraps a page's main content in the layout: tabs, search, refresh button and progress,
/// the failure banner.
struct PageBuilder: Sendable {
    let renderer: PageRenderer
    let refresher: Refresher

    private struct LayoutView {
        struct TabView {
            let name: String
            let href: String
            let isCurrent: Bool
        }

        struct StatusView {
            let isRunning: Bool
            let fractionDone: Double
        }

        let title: String
        let page: String
        let hasDetail: Bool
        let tabs: [TabView]
        let query: String
        let status: StatusView
        let banner: String?
        let offline: String?
        let body: String
    }

    /// A whole page around `body` (HTML a template rendered), with the refresher's progress
    /// and its last failure; `tab` is the tab's list.
    func page(title: String, page: String, tab: ListID?, body: String, hasDetail: Bool = false, query: String = "") async -> Response {
        let html = self.html(title: title, page: page, tab: tab, body: body, hasDetail: hasDetail, query: query, refresh: await refresher.status)
        return Self.html(html)
    }

    /// The page for an error: the reason, and a way back. It waits for nothing, so it shows
    /// no refresh status.
    func errorPage(_ error: WebError) -> Response {
        let body = renderer.render(["heading": error.heading, "reason": error.reason], .error)
        let html = self.html(title: error.heading, page: "error", tab: nil, body: body, hasDetail: true, query: "", refresh: RefreshStatus())
        return Self.html(html, status: error.status)
    }

    /// A whole page's HTML around `body`, showing `refresh`.
    func html(title: String, page: String, tab: ListID?, body: String, hasDetail: Bool, query: String, refresh: RefreshStatus) -> String {
        let view = LayoutView(
            title: title.isEmpty ? "SPoT" : "\(title) · SPoT",
            page: page,
            hasDetail: hasDetail,
            tabs: ListID.tabs.map { LayoutView.TabView(name: $0.tabTitle ?? "", href: $0.pagePath, isCurrent: $0 == tab) },
            query: query,
            status: LayoutView.StatusView(isRunning: refresh.isRunning, fractionDone: refresh.fractionDone),
            banner: Self.banner(refresh),
            offline: refresh.database.marker,
            body: body
        )
        return renderer.render(view, .layout)
    }

    /// The failure banner a page shows for `refresh`.
    static func banner(_ refresh: RefreshStatus) -> String? {
        refresh.isRunning ? nil : refresh.lastError.map { "Refresh failed: \($0)" }
    }

    /// What of `refresh` a page shows, as text: pages showing the same signature are the same.
    static func signature(_ refresh: RefreshStatus) -> String {
        "\(refresh.isRunning) \(refresh.fractionDone) \(banner(refresh) ?? "") \(refresh.database.marker ?? "")"
    }

    /// An HTML response.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }
}

/// JSON responses of the API.
enum JSONResponse {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` encoded as JSON, the API's way (ISO 8601 dates, sorted keys).
    static func data(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// `value` encoded as JSON text.
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// A JSON response with `value`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try data(value)))
        )
    }

    /// `{"error": reason}` with the error's status.
    static func error(_ error: WebError) -> Response {
        (try? make(["error": error.reason], status: error.status))
            ?? Response(status: error.status)  // encoding a [String: String] cannot fail
    }
}
