/// One token of a predicate format, as the lexer hands it to the parser.
struct PredicateToken: Sendable, Equatable {
    /// What a token is.
    enum Kind: Sendable, Equatable {
        /// The end of the format.
        case end
        /// A key: `title`, or `#IN` (escaped, so never a keyword).
        case identifier(String)
        /// A reserved word, spelled in upper case whatever the format's case.
        case keyword(PredicateKeyword)
        /// A quoted string, escapes decoded, NFC-normalized.
        case string(String)
        /// A number literal: its digits (with any `.`, exponent) and radix, sign not included.
        case number(String, radix: Int)
        /// `$NAME`.
        case variable(String)
        /// `%@`, `%K`, `%d`, …: the conversion letters after `%`.
        case specifier(String)
        /// `@count`, `@sum`, …, or any other `@name` (kept to report as unsupported).
        case atKeyword(String)
        /// Punctuation and operators: `(`, `==`, `&&`, `**`, `:=`, ….
        case symbol(String)
        /// A lexical error the parser reports when it reaches this token.
        case invalid(headline: String, detail: String)
    }

    /// What the token is.
    var kind: Kind
    /// Offset of the token's first Unicode scalar in the format.
    var start: Int
    /// Offset just past the token's last Unicode scalar.
    var end: Int
    /// The token as written in the format.
    var text: String

    /// Whether this is the symbol `s`.
    func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = kind { return t == s }
        return false
    }

    /// Whether this is the keyword `k`.
    func isKeyword(_ k: PredicateKeyword) -> Bool {
        if case .keyword(let t) = kind { return t == k }
        return false
    }
}

/// The reserved words of the predicate format language (case-insensitive in a format).
enum PredicateKeyword: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case like = "LIKE"
    case matches = "MATCHES"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case between = "BETWEEN"
    case any = "ANY"
    case some = "SOME"
    case all = "ALL"
    case none = "NONE"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case `self` = "SELF"
    case `nil` = "NIL"
    case null = "NULL"
    case yes = "YES"
    case no = "NO"
    case `true` = "TRUE"
    case `false` = "FALSE"
    case subquery = "SUBQUERY"
    case function = "FUNCTION"
    case anyKey = "ANYKEY"
    case cast = "CAST"
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    /// The keyword spelled `word` (any ASCII case), if it is one.
    ///
    /// Only ASCII letters fold: `ın` (dotless ı) is a key, not `IN`.
    static func named(_ word: String) -> PredicateKeyword? {
        guard word.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return PredicateKeyword(rawValue: word.uppercased())
    }
}
