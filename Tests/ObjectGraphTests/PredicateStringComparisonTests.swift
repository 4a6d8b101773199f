import Foundation
import Testing

@testable import ObjectGraph

/// The shared comparison functions the SQL layer calls: folding, ordering, LIKE, MATCHES,
/// and `Value.compare`.
@Suite("Predicate string comparison")
struct PredicateStringComparisonTests {
    let c: ComparisonOptions = .caseInsensitive
    let d: ComparisonOptions = .diacriticInsensitive
    let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]

    @Test func foldingIsUnicodeCaseFoldingAndNFC() {
        #expect(StringComparison.fold("straße", c) == "strasse")
        #expect(StringComparison.fold("STRASSE", c) == "strasse")
        #expect(StringComparison.fold("ΟΔΟΣ", c) == "οδοσ")
        #expect(StringComparison.fold("οδος", c) == "οδοσ")
        #expect(StringComparison.fold("ﬁ", c) == "fi")
        #expect(StringComparison.fold("\u{212A}", c) == "k")  // Kelvin sign
        #expect(StringComparison.fold("ABC", c) == "abc")
        #expect(StringComparison.fold("Zoë", d) == "Zoe")
        #expect(StringComparison.fold("ÅNGSTRÖM", cd) == "angstrom")
        #expect(StringComparison.fold("ı", c) == "ı")
        #expect(StringComparison.fold("İ", c) == "i\u{307}")
        #expect(StringComparison.fold("İ", cd) == "i")
        let decomposed = "Zoe\u{308}"
        #expect(StringComparison.fold(decomposed, []).unicodeScalars.count == 3)
        #expect(StringComparison.fold(decomposed, c).unicodeScalars.elementsEqual("zoë".unicodeScalars))
    }

    @Test func equalityUnderOptions() {
        #expect(StringComparison.equals("straße", "STRASSE", c))
        #expect(!StringComparison.equals("straße", "STRASSE", []))
        #expect(StringComparison.equals("Zoë", "Zoe", d))
        #expect(!StringComparison.equals("Zoë", "Zoe", c))
        #expect(StringComparison.equals("ZOË", "zoë", c))
        #expect(!StringComparison.equals("İstanbul", "istanbul", c))
        #expect(StringComparison.equals("İstanbul", "istanbul", cd))
        #expect(!StringComparison.equals("ı", "I", c))
        #expect(!StringComparison.equals("ı", "i", c))
        #expect(StringComparison.equals("ΟΔΟΣ", "οδος", c))
        #expect(StringComparison.equals("Σίσυφος", "ΣΊΣΥΦΟΣ", c))
        #expect(StringComparison.equals("Σίσυφος", "ΣΙΣΥΦΟΣ", cd))
        #expect(StringComparison.equals("a", "a", .normalized))
    }

    @Test func decomposedAndPrecomposedMeetThroughPredicates() {
        let precomposed = "Zo\u{EB}"
        let decomposed = "Zoe\u{308}"
        expectPredicate("name == %@", [decomposed], on: ["name": precomposed], is: true)
        expectPredicate("name == %@", [precomposed], on: ["name": decomposed], is: true)
        expectPredicate("name == 'Zoe\u{308}'", on: ["name": precomposed], is: true)
        expectPredicate("name BEGINSWITH 'Zo\u{EB}'", on: ["name": decomposed], is: true)
        expectPredicate("name ==[c] 'STRASSE'", on: ["name": "straße"], is: true)
        expectPredicate("name CONTAINS[c] 'SS'", on: ["name": "straße"], is: true)
        expectPredicate("name BEGINSWITH[cd] 'zo'", on: ["name": "Zoë"], is: true)
        expectPredicate("name ENDSWITH[d] 'e'", on: ["name": "Zoë"], is: true)
        expectPredicate("name ==[c] 'οδοσ'", on: ["name": "ΟΔΟΣ"], is: true)
        expectPredicate("name ==[c] 'istanbul'", on: ["name": "İstanbul"], is: false)
        expectPredicate("name ==[cd] 'istanbul'", on: ["name": "İstanbul"], is: true)
        expectPredicate("name LIKE[cd] 'zo?'", on: ["name": "ZOË"], is: true)
    }

    @Test func orderIsUnicodeScalarOrder() {
        #expect(StringComparison.compare("a", "b", []) == .orderedAscending)
        #expect(StringComparison.compare("B", "a", []) == .orderedAscending)
        #expect(StringComparison.compare("B", "a", c) == .orderedDescending)
        #expect(StringComparison.compare("Z", "é", []) == .orderedAscending)
        #expect(StringComparison.compare("ab", "abc", []) == .orderedAscending)
        #expect(StringComparison.compare("abc", "abc", []) == .orderedSame)
        // UTF-8 (scalar) order, not UTF-16: U+FFFF sorts before U+1F600.
        #expect(StringComparison.compare("\u{FFFF}", "😀", []) == .orderedAscending)
        #expect(StringComparison.compare("straße", "STRASSE", c) == .orderedSame)
    }

    @Test func substringTests() {
        #expect(StringComparison.contains("abcd", "bc", []))
        #expect(!StringComparison.contains("abcd", "", []))
        #expect(!StringComparison.beginsWith("abcd", "", []))
        #expect(!StringComparison.endsWith("abcd", "", c))
        #expect(!StringComparison.contains("ab", "abc", []))
        #expect(StringComparison.beginsWith("Straße", "STRAS", c))
        #expect(StringComparison.endsWith("Straße", "SSE", c))
        #expect(!StringComparison.endsWith("é", "e", []))
        #expect(StringComparison.endsWith("é", "e", d))
    }

    @Test(arguments: [
        ("abbbc", "a*c", true), ("ac", "a*c", true), ("abc", "a?c", true), ("abbc", "a?c", false),
        ("a*c", #"a\*c"#, true), ("abc", #"a\*c"#, false), ("a?c", #"a\?c"#, true), (#"a\c"#, #"a\\c"#, true),
        ("", "*", true), ("", "", true), ("a", "", false), ("axxbyyc", "a*b*c", true), ("axxbyy", "a*b*c", false),
        ("é", "?", true), ("😀", "?", true), ("abc", "*c", true), ("abc", "*b", false), ("abc", "a**", true),
        ("mississippi", "*sip*", true), ("mississippi", "m*iss*ppi", true), ("ab", "a?*", true), ("a", "a?*", false),
        (#"ab\"#, #"ab\"#, true),
    ])
    func like(_ s: String, _ pattern: String, _ expected: Bool) {
        #expect(StringComparison.like(s, pattern: pattern, []) == expected)
    }

    @Test func likeWithOptions() {
        #expect(StringComparison.like("ABC", pattern: "a*", c))
        #expect(!StringComparison.like("ABC", pattern: "a*", []))
        #expect(StringComparison.like("Zoë", pattern: "zoe", cd))
        #expect(StringComparison.like("straße", pattern: "STRA*E", c))
        expectPredicate(#"name LIKE 'a\\*c'"#, on: ["name": "a*c"], is: true)
        expectPredicate(#"name LIKE 'a\\*c'"#, on: ["name": "abc"], is: false)
        expectPredicate("name LIKE[c] '*ED*'", on: ["name": "united"], is: true)
    }

    @Test func matchesIsWholeString() throws {
        #expect(try StringComparison.matches("abc", regex: "a.*", []))
        #expect(try !StringComparison.matches("abc", regex: "b", []))
        #expect(try StringComparison.matches("ab", regex: "a|ab", []))
        #expect(try !StringComparison.matches("abc\n", regex: "abc", []))
        #expect(try StringComparison.matches("abc", regex: "A.C", c))
        #expect(try !StringComparison.matches("abc", regex: "A.C", []))
        #expect(try StringComparison.matches("123", regex: "[0-9]+", []))
        #expect(try !StringComparison.matches("12a", regex: "[0-9]+", []))
        #expect(try StringComparison.matches("Zoë", regex: "Zoe", d))
        #expect(try StringComparison.matches("a b", regex: #"a\sb"#, c))
        #expect(throws: FetchPredicateError.self) { try StringComparison.matches("a", regex: "(", []) }
        #expect(throws: FetchPredicateError.self) { try StringComparison.matches("a", regex: "a)(b", []) }
        let error = predicateError("name MATCHES '('", on: ["name": "x"])
        #expect(error?.kind == .invalidRegularExpression)
        #expect(error?.format == #"name MATCHES "(""#)
    }

    @Test func matchesIsThreadSafe() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask {
                    var all = true
                    for j in 0..<50 {
                        let first = try StringComparison.matches("item\(i)-\(j)", regex: "item[0-9]+-[0-9]+", [])
                        let second = try StringComparison.matches("x\(i % 8)", regex: "X\(i % 8)", .caseInsensitive)
                        all = all && first && second
                    }
                    return all
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func valueCompare() {
        func cmp(_ a: Value, _ b: Value, _ options: ComparisonOptions = []) -> ComparisonResult? {
            Value.compare(a, b, options: options)
        }
        #expect(cmp(.int(1), .double(1)) == .orderedSame)
        #expect(cmp(.bool(true), .int(1)) == .orderedSame)
        #expect(cmp(.bool(false), .double(0.5)) == .orderedAscending)
        #expect(cmp(.decimal(Decimal(string: "0.1")!), .double(0.2)) == .orderedAscending)
        #expect(cmp(.decimal(Decimal(string: "2.5")!), .int(2)) == .orderedDescending)
        #expect(cmp(.decimal(1), .double(.infinity)) == .orderedAscending)
        #expect(cmp(.int(9_007_199_254_740_993), .int(9_007_199_254_740_992)) == .orderedDescending)
        #expect(cmp(.double(.nan), .double(.nan)) == nil)
        #expect(cmp(.int(1), .string("1")) == nil)
        #expect(cmp(.null, .null) == nil)
        #expect(cmp(.null, .int(1)) == nil)
        #expect(cmp(.string("a"), .string("A"), .caseInsensitive) == .orderedSame)
        let id1 = ManagedObjectID(storeIdentifier: "S", entityName: "Photo", primaryKey: 1)
        let id2 = ManagedObjectID(storeIdentifier: "S", entityName: "Photo", primaryKey: 2)
        #expect(cmp(.objectID(id1), .objectID(id1)) == .orderedSame)
        #expect(cmp(.objectID(id1), .objectID(id2)) == nil)
        #expect(cmp(.array([.int(1), .string("a")]), .array([.double(1), .string("A")]), .caseInsensitive) == .orderedSame)
        #expect(cmp(.array([.int(1)]), .array([.int(2)])) == nil)
        #expect(cmp(.date(Date(timeIntervalSince1970: 1)), .date(Date(timeIntervalSince1970: 2))) == .orderedAscending)
        #expect(cmp(.data(Data([1, 2])), .data(Data([1, 2]))) == .orderedSame)
        #expect(cmp(.date(Date()), .double(1)) == nil)
    }
}
