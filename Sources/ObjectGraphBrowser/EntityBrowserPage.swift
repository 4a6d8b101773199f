public import Hummingbird

/// A page the entity browser made, for its host to wrap in a layout.
///
/// ``body`` is an HTML fragment (a `<section>`) with every store string escaped; a host puts
/// it in its own page, or passes the page on to ``EntityBrowser/standaloneLayout(heading:)``.
public struct EntityBrowserPage: Sendable {
    /// The page's title, for `<title>`.
    public var title: String
    /// The page's content: escaped HTML.
    public var body: String
    /// The response's status: `.ok`, or the error's (`.badRequest`, `.notFound`, …).
    public var status: HTTPResponse.Status
    /// For an error page, the reason as plain text (unescaped); `nil` on other pages.
    public var failureReason: String?
}
