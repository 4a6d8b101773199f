import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// Random and mutated formats never crash the parser, printer or evaluator: every failure is
/// a ``FetchPredicateError`` positioned inside the format, every success round-trips.
@Suite("Predicate fuzz")
struct PredicateFuzzTests {
    static let seeds: [String] =
        PredicateParserTests.cases.map(\.format) + [
            "title ==[cd] 'Zoë' AND (views > 3 OR NOT tags.@count == 0)",
            "ANY tags.name IN {'a', \"b\", 'ß'} && SUBQUERY(tags, $t, $t.views BETWEEN {1, 5}).@count > 0",
            "NONE photos.tags.name LIKE[c] 'q*?' || ALL photos.views >= -0x1F",
            "name MATCHES '[a-z]+' AND date < CAST(100.0, \"NSDate\") AND score == 1.5e-3",
            "SELF.@count > 2 AND @sum > 0",
            "x IN {{1, 2}, {}, {nil, YES, NO}} OR x == $var",
            "(a.b.c == 1) AND ((d) != 2) AND (e.@avg.f < 3)",
        ]

    static let fragments: [String] = [
        " ", "(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "$", "@", "#", "%", "%@", "%K", "%d", "==", "=",
        "!=", "<", ">", "<=", ">=", "=>", "&&", "||", "!", "+", "-", "*", "/", "**", ":=", "AND", "OR", "NOT", "ANY",
        "ALL", "NONE", "SOME", "IN", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH", "CONTAINS", "BETWEEN", "SELF",
        "nil", "YES", "NO", "SUBQUERY", "FUNCTION", "CAST", "ANYKEY", "FIRST", "LAST", "SIZE", "UTI-EQUALS",
        "UTI-CONFORMS-TO", "TRUEPREDICATE", "FALSEPREDICATE", "@count", "@sum", "@avg", "@min", "@max", "[cd]",
        "[c]", "[n]", "0x", "0b1", "0o7", "1e", "1.5", "-3", "9223372036854775808", "\\u00e9", "\\ud83d\\ude00",
        "é", "e\u{301}", "😀", "ß", "İ", "ı", "Σ", "\u{0}", "\u{202E}", "\n", "\t", "\u{FEFF}", "ｘ", "x", "tags",
        "$x", "_k", "#IN",
    ]

    static func randomScalar(_ rng: inout SeededGenerator) -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x20...0x7E, 0x00...0x1F, 0xA0...0x24F, 0x300...0x36F, 0x370...0x3FF, 0x590...0x6FF,
            0x2000...0x206F, 0x3040...0x30FF, 0xFE00...0xFFFD, 0x1F300...0x1FAFF, 0xE0000...0xE007F,
        ]
        let range = ranges.randomElement(using: &rng)!
        let value = UInt32.random(in: range, using: &rng)
        return Unicode.Scalar(value) ?? "?"
    }

    static func mutate(_ format: String, _ rng: inout SeededGenerator) -> String {
        var scalars = Array(format.unicodeScalars)
        switch Int.random(in: 0..<9, using: &rng) {
        case 0 where !scalars.isEmpty:  // delete a run of characters
            let start = Int.random(in: 0..<scalars.count, using: &rng)
            let end = min(scalars.count, start + Int.random(in: 1...4, using: &rng))
            scalars.removeSubrange(start..<end)
        case 1:  // insert a random scalar
            scalars.insert(randomScalar(&rng), at: Int.random(in: 0...scalars.count, using: &rng))
        case 2:  // insert a grammar fragment
            let fragment = Array(fragments.randomElement(using: &rng)!.unicodeScalars)
            scalars.insert(contentsOf: fragment, at: Int.random(in: 0...scalars.count, using: &rng))
        case 3, 4:  // swap, drop or duplicate whole tokens
            var words = format.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard words.count > 1 else { break }
            let i = Int.random(in: 0..<words.count, using: &rng)
            let j = Int.random(in: 0..<words.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: words.swapAt(i, j)
            case 1: words.remove(at: i)
            default: words.insert(words[j], at: i)
            }
            return words.joined(separator: " ")
        case 5 where scalars.count > 1:  // swap two characters
            let i = Int.random(in: 0..<scalars.count, using: &rng)
            let j = Int.random(in: 0..<scalars.count, using: &rng)
            scalars.swapAt(i, j)
        case 6:  // splice with another seed
            let other = Array(seeds.randomElement(using: &rng)!.unicodeScalars)
            let cut = Int.random(in: 0...scalars.count, using: &rng)
            let otherCut = Int.random(in: 0...other.count, using: &rng)
            scalars = Array(scalars[..<cut]) + Array(other[otherCut...])
        case 7:  // replace a character by a fragment
            guard !scalars.isEmpty else { break }
            let i = Int.random(in: 0..<scalars.count, using: &rng)
            scalars.replaceSubrange(i...i, with: fragments.randomElement(using: &rng)!.unicodeScalars)
        default:  // wholly random text
            let count = Int.random(in: 0..<24, using: &rng)
            scalars = (0..<count).map { _ in
                Bool.random(using: &rng)
                    ? randomScalar(&rng) : fragments.randomElement(using: &rng)!.unicodeScalars.first ?? " "
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    static var sample: [String: Any] {
        [
            "a": 1, "x": "Zoë", "title": "quad", "views": [1, 2, 3], "tags": [["name": "a", "views": 2]],
            "name": "straße", "date": Date(timeIntervalSinceReferenceDate: 50),
        ]
    }

    @Test func twentyThousandFormats() throws {
        var rng = SeededGenerator(seed: 0x5EED_2026)
        let sample = Self.sample
        var parsed = 0
        var failed = 0
        for iteration in 0..<20_000 {
            var format = Self.seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...3, using: &rng) { format = Self.mutate(format, &rng) }
            let predicate = FetchPredicate(format: format)
            if let error = predicate.parseError {
                failed += 1
                let position = try #require(error.position, "\(iteration): \(format)")
                #expect((0...format.count).contains(position), "\(iteration): \(format) → \(error)")
                #expect(error.format == format)
                #expect(error.token != nil)
                #expect(predicate.node == nil)
                continue
            }
            parsed += 1
            let printed = predicate.predicateFormat
            let again = FetchPredicate(format: printed)
            #expect(again.parseError == nil, "\(iteration): \(format) printed as \(printed): \(again.parseError!)")
            #expect(again == predicate, "\(iteration): \(format) printed as \(printed) → \(again.predicateFormat)")
            #expect(again.predicateFormat == printed, "\(iteration): \(format)")
            do {
                _ = try predicate.evaluate(with: sample)
            } catch {
                #expect(error is FetchPredicateError, "\(iteration): \(format) threw \(error)")
            }
        }
        print("fuzz: \(parsed) parsed, \(failed) rejected")
        #expect(parsed > 1_000)
        #expect(failed > 1_000)
    }
}
