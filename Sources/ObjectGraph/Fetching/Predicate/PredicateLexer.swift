import Foundation

/// Splits a predicate format into tokens, working on its Unicode scalars.
///
/// Lexing never fails: a lexical error becomes an ``PredicateToken/Kind/invalid(headline:detail:)``
/// token, which the parser reports when it reaches it (so the first error in reading order
/// wins), and lexing stops there.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var offset = 0

    /// A lexer over `format`.
    init(_ format: String) {
        scalars = Array(format.unicodeScalars)
    }

    /// All tokens, ending with `.end` or an `.invalid` token.
    static func tokenize(_ format: String) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = lexer.next()
            tokens.append(token)
            switch token.kind {
            case .end, .invalid: return tokens
            default: continue
            }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        offset + ahead < scalars.count ? scalars[offset + ahead] : nil
    }

    private func text(_ start: Int, _ end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<min(end, scalars.count)])
        return String(view)
    }

    private func token(_ kind: PredicateToken.Kind, from start: Int) -> PredicateToken {
        PredicateToken(kind: kind, start: start, end: offset, text: text(start, offset))
    }

    private func invalid(_ headline: String, _ detail: String, from start: Int, to end: Int) -> PredicateToken {
        PredicateToken(
            kind: .invalid(headline: headline, detail: detail),
            start: start,
            end: end,
            text: text(start, end)
        )
    }

    /// Whether `s` can start a key.
    static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic
    }

    /// Whether `s` can continue a key.
    static func isIdentifierContinue(_ s: Unicode.Scalar) -> Bool {
        if isIdentifierStart(s) || ("0"..."9").contains(s) { return true }
        switch s.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private mutating func identifierText() -> String {
        let start = offset
        while let s = peek(), Self.isIdentifierContinue(s) { offset += 1 }
        return text(start, offset).precomposed
    }

    /// The next token.
    mutating func next() -> PredicateToken {
        while let s = peek(), s.properties.isWhitespace { offset += 1 }
        let start = offset
        guard let s = peek() else { return token(.end, from: start) }
        if Self.isIdentifierStart(s) { return word(from: start) }
        if ("0"..."9").contains(s) { return number(from: start) }
        switch s {
        case "\"", "'": return string(from: start, quote: s)
        case "#":
            offset += 1
            guard let first = peek(), Self.isIdentifierContinue(first) else {
                return invalid("Unexpected character '#'", "expected a key after '#'", from: start, to: offset)
            }
            return token(.identifier(identifierText()), from: start)
        case "$", "@":
            offset += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                let what = s == "$" ? "a variable name" : "an operator name such as count"
                return invalid("Unexpected character '\(s)'", "expected \(what) after '\(s)'", from: start, to: offset)
            }
            let name = identifierText()
            return token(s == "$" ? .variable(name) : .atKeyword(name), from: start)
        case "%": return specifier(from: start)
        default: return symbol(from: start)
        }
    }

    private mutating func word(from start: Int) -> PredicateToken {
        let name = identifierText()
        if name.utf8.count == 3, name.lowercased() == "uti", peek() == "-" {
            for keyword in [PredicateKeyword.utiConformsTo, .utiEquals] {
                let tail = Array(keyword.rawValue.unicodeScalars.dropFirst(3))
                let matches = tail.indices.allSatisfy { i in
                    guard let c = peek(i), c.isASCII else { return false }
                    return String(c).uppercased() == String(tail[i])
                }
                if matches, peek(tail.count).map({ !Self.isIdentifierContinue($0) }) ?? true {
                    offset += tail.count
                    return token(.keyword(keyword), from: start)
                }
            }
        }
        if let keyword = PredicateKeyword.named(name) { return token(.keyword(keyword), from: start) }
        if peek() == ":", peek(1) != "=" { return token(.identifier(name + selectorTail()), from: start) }
        return token(.identifier(name), from: start)
    }

    /// The rest of a function's selector after its first part, `:` or `:by:` of `modulus:by:`
    /// (NSExpression's function names): each further part a name that ends in a colon.
    private mutating func selectorTail() -> String {
        var tail = ""
        while peek() == ":" {
            offset += 1
            tail += ":"
            let partStart = offset
            guard let s = peek(), Self.isIdentifierStart(s) else { break }
            let part = identifierText()
            guard peek() == ":", peek(1) != "=" else {
                offset = partStart
                break
            }
            tail += part
        }
        return tail
    }

    private mutating func number(from start: Int) -> PredicateToken {
        if peek() == "0", let marker = peek(1), let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][marker] {
            offset += 2
            let digitsStart = offset
            while let c = peek(), c.isASCII, Int(String(c), radix: radix) != nil { offset += 1 }
            guard offset > digitsStart else {
                return invalid("Malformed number", "expected digits after '0\(marker)'", from: start, to: offset)
            }
            return token(.number(text(digitsStart, offset), radix: radix), from: start)
        }
        func digits() { while let c = peek(), ("0"..."9").contains(c) { offset += 1 } }
        digits()
        if peek() == ".", let c = peek(1), ("0"..."9").contains(c) {
            offset += 1
            digits()
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { ahead = 2 }
            if let c = peek(ahead), ("0"..."9").contains(c) {
                offset += ahead
                digits()
            }
        }
        return token(.number(text(start, offset), radix: 10), from: start)
    }

    private mutating func string(from start: Int, quote: Unicode.Scalar) -> PredicateToken {
        offset += 1
        var value = String.UnicodeScalarView()
        while let c = peek() {
            if c == quote {
                offset += 1
                return token(.string(String(value).precomposed), from: start)
            }
            if c != "\\" {
                value.append(c)
                offset += 1
                continue
            }
            let escapeStart = offset
            offset += 1
            guard let e = peek() else { break }
            offset += 1
            switch e {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "b": value.append("\u{8}")
            case "f": value.append("\u{C}")
            case "0": value.append("\u{0}")
            case "\"", "'", "\\", "/": value.append(e)
            case "u":
                guard let unit = hex4() else {
                    return invalid("Malformed escape", "expected four hex digits after '\\u'", from: escapeStart, to: offset)
                }
                if let scalar = Unicode.Scalar(unit) {
                    value.append(scalar)
                } else if (0xD800..<0xDC00).contains(unit), peek() == "\\", peek(1) == "u" {
                    offset += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low),
                        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    else {
                        return invalid("Malformed escape", "expected a low surrogate", from: escapeStart, to: offset)
                    }
                    value.append(scalar)
                } else {
                    return invalid("Malformed escape", "unpaired surrogate", from: escapeStart, to: offset)
                }
            default:
                return invalid("Malformed escape", "unknown escape '\\\(e)'", from: escapeStart, to: offset)
            }
        }
        return invalid("Unterminated string", "expected a closing \(quote)", from: start, to: scalars.count)
    }

    private mutating func hex4() -> UInt32? {
        guard offset + 4 <= scalars.count else { return nil }
        guard let value = UInt32(text(offset, offset + 4), radix: 16), scalars[offset..<offset + 4].allSatisfy(\.isASCII)
        else { return nil }
        offset += 4
        return value
    }

    private static let specifiers = [
        "lld", "lli", "llu", "ld", "li", "lu", "lf", "hd", "hi", "hu", "qd", "qi", "qu",
        "@", "K", "d", "i", "u", "f", "g", "e",
    ]

    private mutating func specifier(from start: Int) -> PredicateToken {
        offset += 1
        if peek() == "%" {
            offset += 1
            return invalid("Unexpected '%%'", "a literal '%' belongs inside a quoted string", from: start, to: offset)
        }
        for spec in Self.specifiers {
            let units = Array(spec.unicodeScalars)
            if units.indices.allSatisfy({ peek($0) == units[$0] }) {
                offset += units.count
                return token(.specifier(spec), from: start)
            }
        }
        return invalid("Unknown format specifier", "expected %@, %K, %d, %f or the like", from: start, to: offset + 1)
    }

    private static let symbols = [
        "==", "=>", "=<", "!=", "<>", "<=", ">=", "&&", "||", "**", ":=",
        "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ".", "+", "-", "*", "/",
    ]

    private mutating func symbol(from start: Int) -> PredicateToken {
        for symbol in Self.symbols {
            let units = Array(symbol.unicodeScalars)
            if units.indices.allSatisfy({ peek($0) == units[$0] }) {
                offset += units.count
                return token(.symbol(symbol), from: start)
            }
        }
        return invalid("Unexpected character '\(scalars[start])'", "", from: start, to: start + 1)
    }
}
