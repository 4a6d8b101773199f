import Hummingbird
import SPoTKit

/// The forms pages post when no script runs: refresh, hide and unhide. Each answers with a
/// redirect back to the page it came from (303, so reloading does not post again).
struct ActionRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        router.post("/refresh") { request, _ in
            try web.refuseWhileOffline("refresh from Flickr into")
            web.startRefresh()
            return Response.redirect(to: Input.returnPath(request, fallback: "/"), type: .normal)
        }
        router.post("/photos/:id/hide") { request, context in
            let id = try Input.photoID(context)
            try await web.spot.store.hide(id)
            return Response.redirect(to: Input.returnPath(request, fallback: Links.photo(id, in: nil)), type: .normal)
        }
        router.post("/photos/:id/unhide") { request, context in
            let id = try Input.photoID(context)
            try await web.spot.store.unhide(id)
            return Response.redirect(to: Input.returnPath(request, fallback: Links.photo(id, in: nil)), type: .normal)
        }
    }
}

extension SPoTWebApp {
    /// Starts a refresh (or joins the one running) without waiting for it: its progress
    /// reaches pages through the status events.
    func startRefresh() {
        let refresher = spot.refresher
        Task { await refresher.refresh() }
    }

    /// Throws the reason while the database does not answer: what needs it is refused at once
    /// (``SPoTError/Kind/unavailable``, answered 503).
    func refuseWhileOffline(_ doing: String) throws {
        if let refusal = spot.store.monitor.refusal(doing) { throw refusal }
    }
}
