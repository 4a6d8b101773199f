package import Foundation

/// String comparison with NSPredicate's `[c]`, `[d]` and `[n]` options, shared by the
/// in-memory evaluator and the SQL functions, so both agree by construction.
///
/// Strings are compared as sequences of Unicode scalars of their NFC form (the order of
/// SQLite's `BINARY` collation on UTF-8). `[c]` applies full Unicode case folding
/// (`"straße"` equals `"STRASSE"`, `"ΟΔΟΣ"` equals `"οδος"`, dotless `"ı"` stays distinct
/// from `"i"`); `[d]` removes diacritics (`"Zoë"` equals `"Zoe"`); `[n]` changes nothing,
/// since ObjectGraph keeps every string NFC already.
///
/// Inputs are expected in NFC (every ``Value/string(_:)`` is); ``fold(_:_:)`` output always is.
package enum StringComparison {
    /// `s` with the case and diacritic folding `options` ask for, in NFC.
    ///
    /// Pure ASCII input takes a fast path; other input goes through Foundation's
    /// `folding(options:locale:)` with no locale (so no Turkish or other tailoring).
    package static func fold(_ s: String, _ options: ComparisonOptions) -> String {
        let foldCase = options.contains(.caseInsensitive)
        let foldDiacritics = options.contains(.diacriticInsensitive)
        guard foldCase || foldDiacritics else { return s.precomposed }
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            guard foldCase else { return s }
            return String(decoding: s.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var compareOptions: String.CompareOptions = []
        if foldCase { compareOptions.insert(.caseInsensitive) }
        if foldDiacritics { compareOptions.insert(.diacriticInsensitive) }
        return s.folding(options: compareOptions, locale: nil).precomposed
    }

    /// Whether `options` fold anything (`[n]` alone does not).
    package static func folds(_ options: ComparisonOptions) -> Bool {
        !options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
    }

    private static func prepared(_ s: String, _ options: ComparisonOptions) -> String {
        folds(options) ? fold(s, options) : s
    }

    /// The order of `a` and `b`: by Unicode scalar values (= UTF-8 bytes) after folding.
    package static func compare(_ a: String, _ b: String, _ options: ComparisonOptions) -> ComparisonResult {
        let x = prepared(a, options).utf8
        let y = prepared(b, options).utf8
        if x.elementsEqual(y) { return .orderedSame }
        return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
    }

    /// Whether `a` equals `b` after folding (scalar for scalar, not by canonical equivalence).
    package static func equals(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
        prepared(a, options).utf8.elementsEqual(prepared(b, options).utf8)
    }

    /// `s BEGINSWITH t`.
    ///
    /// An empty `t` never matches, as with NSString (a search field's empty text finds nothing).
    package static func beginsWith(_ s: String, _ t: String, _ options: ComparisonOptions) -> Bool {
        let prefix = prepared(t, options)
        return !prefix.isEmpty && prepared(s, options).utf8.starts(with: prefix.utf8)
    }

    /// `s ENDSWITH t`.
    ///
    /// An empty `t` never matches, as with NSString.
    package static func endsWith(_ s: String, _ t: String, _ options: ComparisonOptions) -> Bool {
        let suffix = prepared(t, options)
        return !suffix.isEmpty && prepared(s, options).utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// `s CONTAINS t` (and `t IN s`): `t` occurs in `s` as a run of Unicode scalars.
    package static func contains(_ s: String, _ t: String, _ options: ComparisonOptions) -> Bool {
        let haystack = Array(prepared(s, options).utf8)
        let needle = Array(prepared(t, options).utf8)
        // An empty needle is never found, as with NSString's rangeOfString:.
        guard !needle.isEmpty else { return false }
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `s LIKE pattern`: `*` matches any run of Unicode scalars (possibly empty), `?` exactly
    /// one Unicode scalar of the NFC (folded) string, `\` makes the next character literal.
    ///
    /// Matching is by Unicode scalar, not by grapheme: `?` matches `"é"` (one scalar in NFC)
    /// but not a letter followed by a combining mark that has no precomposed form.
    package static func like(_ s: String, pattern: String, _ options: ComparisonOptions) -> Bool {
        enum Element: Equatable {
            case star, one
            case scalar(Unicode.Scalar)
        }
        var elements: [Element] = []
        var escaped = false
        for scalar in prepared(pattern, options).unicodeScalars {
            if escaped {
                elements.append(.scalar(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                elements.append(scalar == "*" ? .star : scalar == "?" ? .one : .scalar(scalar))
            }
        }
        if escaped { elements.append(.scalar("\\")) }
        let text = Array(prepared(s, options).unicodeScalars)
        var (t, p, starP, starT) = (0, 0, -1, 0)
        while t < text.count {
            if p < elements.count, elements[p] == .one || elements[p] == .scalar(text[t]) {
                t += 1
                p += 1
            } else if p < elements.count, elements[p] == .star {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < elements.count, elements[p] == .star { p += 1 }
        return p == elements.count
    }

    /// `s MATCHES regex`: the whole of `s` matches the ICU regular expression.
    ///
    /// `[c]` matches case-insensitively (the pattern itself is not folded, so `\S` keeps its
    /// meaning); `[d]` removes diacritics from both `s` and the pattern. Compiled expressions
    /// are cached (thread-safe).
    ///
    /// - Throws: ``FetchPredicateError`` (invalid regular expression) for a bad pattern.
    package static func matches(_ s: String, regex: String, _ options: ComparisonOptions) throws -> Bool {
        let diacritics: ComparisonOptions = options.intersection(.diacriticInsensitive)
        let subject = fold(s, diacritics)
        let pattern = folds(diacritics) ? fold(regex, diacritics) : regex
        let expression = try RegularExpressionCache.shared.expression(
            pattern,
            caseInsensitive: options.contains(.caseInsensitive)
        )
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
