import Hummingbird
import ObjectGraphBrowser
import SPoTKit

/// `/debug/entities`: ObjectGraph's entity browser over SPoT's store — entities with counts,
/// each entity's objects page by page with a predicate filter, and an object's attributes and
/// relationships as links — inside SPoT's layout, its errors on SPoT's error page.
struct DebugRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        let pages = web.pages
        let browser = EntityBrowser(container: web.spot.store.container, prefix: "/debug") { page in
            if let reason = page.failureReason {
                return pages.errorPage(WebError(page.status, reason))
            }
            return await pages.page(title: page.title, page: "debug", tab: nil, body: page.body, hasDetail: true)
        }
        browser.register(on: router)
    }
}
