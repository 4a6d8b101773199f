import Foundation

/// Turns Flickr's HTML (descriptions carry links, entities and tags) into plain text.
enum PlainText {
    /// `html` without tags, entities decoded, whitespace collapsed to single spaces, trimmed.
    static func fromHTML(_ html: String) -> String {
        collapseWhitespace(decodeEntities(stripTags(html)))
    }

    /// The first non-empty line of `html` (lines end at newlines, `<br>` and paragraph
    /// ends), as plain text; empty when there is none.
    static func firstLine(ofHTML html: String) -> String {
        var marked = html
        for breaker in ["<br>", "<br/>", "<br />", "</p>", "</div>", "</li>", "</h1>", "</h2>", "</h3>"] {
            marked = marked.replacingOccurrences(of: breaker, with: "\n", options: .caseInsensitive)
        }
        for line in marked.split(whereSeparator: \.isNewline) {
            let text = fromHTML(String(line))
            if !text.isEmpty { return text }
        }
        return ""
    }

    /// Collapses runs of whitespace (newlines and non-breaking spaces included) to one space.
    static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// `html` without its `<…>` tags: block-level tags (line breaks, paragraphs, list items,
    /// cells) become a space so words either side stay apart, inline ones (`<b>`, `<a>`)
    /// vanish, and `<script>` and `<style>` elements go with their contents.
    static func stripTags(_ html: String) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            guard character == "<" else {
                result.append(character)
                index = html.index(after: index)
                continue
            }
            guard let close = html[index...].firstIndex(of: ">") else {
                // A lone "<" is text ("a < b").
                result.append(character)
                index = html.index(after: index)
                continue
            }
            let tag = html[html.index(after: index)..<close].lowercased()
            index = html.index(after: close)
            let tagName = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
            var separates = blockElements.contains(String(tagName))
            for element in ["script", "style"] where tag == element || tag.hasPrefix(element + " ") {
                if let end = html.range(of: "</\(element)", options: .caseInsensitive, range: index..<html.endIndex) {
                    index = html[end.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                } else {
                    index = html.endIndex
                }
                separates = true
            }
            if separates { result.append(" ") }
        }
        return result
    }

    /// Elements that break a line or start a block: their tags separate words.
    private static let blockElements: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "dd", "dt", "img",
    ]

    /// `text` with HTML character references decoded: named ones HTML writers commonly use,
    /// decimal (`&#233;`) and hexadecimal (`&#xE9;`). Unknown references stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") {
                let name = text[text.index(after: index)..<semicolon]
                if let decoded = decode(entity: name) {
                    result.append(decoded)
                    index = text.index(after: semicolon)
                    continue
                }
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }

    private static func decode(entity name: Substring) -> Character? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return Character(scalar)
        }
        return namedEntities[String(name)]
    }

    private static let namedEntities: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "mdash": "—", "ndash": "–", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "deg": "°", "eacute": "é", "egrave": "è", "aacute": "á",
        "agrave": "à", "iacute": "í", "oacute": "ó", "uacute": "ú", "ntilde": "ñ", "uuml": "ü", "ouml": "ö",
        "auml": "ä", "ccedil": "ç", "middot": "·", "bull": "•", "times": "×", "euro": "€", "pound": "£",
        "frac12": "½", "laquo": "«", "raquo": "»",
    ]
}
