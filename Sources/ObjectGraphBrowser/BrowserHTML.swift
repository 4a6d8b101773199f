import Foundation
import ObjectGraph

/// The entity browser's HTML: each page's content, every store string escaped, and a page
/// around it for a browser served on its own. The markup and classes are those SPoT's
/// stylesheet knows (`detail-pane debug-pane`, `debug-table`, …).
enum BrowserHTML {
    /// `text` safe in HTML text and in double-quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `text` percent-encoded for a path segment or a query value: all but unreserved
    /// characters (`A–Z a–z 0–9 - . _ ~`) encoded.
    static func percentEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// An entity's list of objects (with its predicate and page), as a link.
    static func entityHref(_ prefix: String, _ entity: String, predicate: String = "", page: Int = 1) -> String {
        var query: [String] = []
        if !predicate.isEmpty { query.append("predicate=" + percentEncoded(predicate)) }
        if page > 1 { query.append("page=\(page)") }
        return prefix + "/entities/" + percentEncoded(entity) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// An object's page, as a link.
    static func objectHref(_ prefix: String, _ object: BrowserReader.ObjectLabel) -> String {
        prefix + "/object?uri=" + percentEncoded(object.id.uriRepresentation().absoluteString)
    }

    private static func link(_ prefix: String, _ object: BrowserReader.ObjectLabel) -> String {
        #"<a href="\#(escape(objectHref(prefix, object)))">\#(escape(object.label))</a>"#
    }

    /// Every entity with its count.
    static func entities(_ rows: [BrowserReader.EntitySummary], prefix: String) -> String {
        let body = rows.map { row in
            #"<tr><td><a href="\#(escape(entityHref(prefix, row.name)))">\#(escape(row.name))</a>"#
                + (row.isAbstract ? " (abstract)" : "") + #"</td><td class="number">\#(row.count)</td></tr>"#
        }
        return """
            <section class="detail-pane debug-pane" id="detail-pane" aria-labelledby="debug-title">
            <h1 id="debug-title">Entities</h1>
            <p class="debug-note">A read-only view of the database, entity by entity.</p>
            <table class="debug-table"><thead><tr><th scope="col">Entity</th><th scope="col">Objects</th></tr></thead>
            <tbody>\(body.joined())</tbody></table>
            </section>
            """
    }

    /// A page of an entity's objects, with the predicate field and the links to the pages
    /// before and after.
    static func objects(
        _ found: BrowserReader.ObjectPage,
        entity: String,
        predicate: String,
        page: Int,
        pageSize: Int,
        prefix: String
    ) -> String {
        let pages = max(1, (found.total + pageSize - 1) / pageSize)
        let rows = zip(found.objects, found.summaries).map { object, summary in
            #"<li>\#(link(prefix, object)) <span class="debug-summary">\#(escape(summary))</span></li>"#
        }
        let previous =
            page > 1 ? #"<a href="\#(escape(entityHref(prefix, entity, predicate: predicate, page: page - 1)))" rel="prev">Previous page</a>"# : ""
        let next =
            page < pages ? #"<a href="\#(escape(entityHref(prefix, entity, predicate: predicate, page: page + 1)))" rel="next">Next page</a>"# : ""
        let matching = predicate.isEmpty ? "" : " matching"
        return """
            <section class="detail-pane debug-pane" id="detail-pane" aria-labelledby="debug-title">
            <p><a class="back" href="\(escape(prefix))/entities">Entities</a></p>
            <h1 id="debug-title">\(escape(entity))</h1>
            \(filterForm(entity: entity, predicate: predicate, prefix: prefix))
            <p class="debug-note" id="debug-total">\(found.total) objects\(matching) · page \(page) of \(pages)</p>
            <ul class="debug-objects">\(rows.joined())</ul>
            <p class="debug-pages">\(previous) \(next)</p>
            </section>
            """
    }

    /// The predicate field of an entity's list: a plain form, so it works without scripts.
    static func filterForm(entity: String, predicate: String, prefix: String) -> String {
        """
        <form class="debug-filter" method="get" action="\(escape(entityHref(prefix, entity)))">\
        <label for="debug-predicate">Predicate</label> \
        <input id="debug-predicate" name="predicate" type="search" size="60" value="\(escape(predicate))" \
        placeholder="name BEGINSWITH[c] 'a' AND items.@count > 1" autocomplete="off" spellcheck="false"> \
        <button type="submit">Filter</button></form>
        """
    }

    /// An object's attributes and relationships, relationships as links.
    static func object(_ object: BrowserReader.ObjectDetail, prefix: String) -> String {
        let attributes = object.attributes.map { #"<tr><th scope="row">\#(escape($0.name))</th><td>\#(escape($0.value))</td></tr>"# }
        let relationships = object.relationships.map { relationship in
            let empty = relationship.members.isEmpty ? (relationship.isToMany ? "none" : "nil") : ""
            let links = relationship.members.map { link(prefix, $0) + " " }.joined()
            let more = relationship.more > 0 ? #"<span class="debug-more">and \#(relationship.more) more</span>"# : ""
            return #"<tr><th scope="row">\#(escape(relationship.name))</th><td>\#(empty)\#(links)\#(more)</td></tr>"#
        }
        return """
            <section class="detail-pane debug-pane" id="detail-pane" aria-labelledby="debug-title">
            <p><a class="back" href="\(escape(entityHref(prefix, object.entity)))">\(escape(object.entity))</a></p>
            <h1 id="debug-title">\(escape(object.object.label))</h1>
            <p class="debug-note"><code>\(escape(object.object.id.uriRepresentation().absoluteString))</code></p>
            <h2>Attributes</h2>
            <table class="debug-table"><tbody>\(attributes.joined())</tbody></table>
            <h2>Relationships</h2>
            <table class="debug-table"><tbody>\(relationships.joined())</tbody></table>
            </section>
            """
    }

    /// An error's content: a heading and the reason.
    static func failure(heading: String, reason: String) -> String {
        """
        <section class="detail-pane error-page" id="detail-pane" aria-labelledby="error-title">
        <h1 id="error-title">\(escape(heading))</h1>
        <p class="error-reason">\(escape(reason))</p>
        </section>
        """
    }

    /// A whole page around `body`, for a browser served on its own.
    static func standalone(title: String, heading: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
        <title>\(escape(title)) · \(escape(heading))</title>
        <style>
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem; color: #222; }
        header { color: #666; font-size: 0.9rem; border-bottom: 1px solid #ddd; padding-bottom: 0.5rem; overflow-wrap: anywhere; }
        a { color: #0b5cad; } .debug-note, .debug-summary, .debug-more { color: #666; }
        .debug-table { border-collapse: collapse; } .debug-table th, .debug-table td { text-align: left; padding: 0.2rem 0.8rem 0.2rem 0; vertical-align: top; border-bottom: 1px solid #eee; }
        .debug-table td { overflow-wrap: anywhere; } .number { text-align: right; font-variant-numeric: tabular-nums; }
        .debug-objects { padding-left: 1.2rem; } .debug-filter input { font: 14px ui-monospace, monospace; max-width: 100%; }
        .error-reason { color: #a40000; white-space: pre-wrap; font-family: ui-monospace, monospace; }
        </style></head>
        <body><header>\(escape(heading))</header>
        <main>\(body)</main></body></html>
        """
    }
}
