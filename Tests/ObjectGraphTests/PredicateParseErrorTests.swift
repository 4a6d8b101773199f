import Foundation
import Testing

@testable import ObjectGraph

/// Bad formats: the exact kind, character position and token of each error.
@Suite("Predicate parse errors")
struct PredicateParseErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var kind: FetchPredicateError.Kind
        var position: Int
        var token: String
        var headline: String
        var testDescription: String { format }
    }

    static func c(
        _ format: String,
        _ kind: FetchPredicateError.Kind = .syntax,
        at position: Int,
        _ token: String,
        _ headline: String
    ) -> Case {
        Case(format: format, kind: kind, position: position, token: token, headline: headline)
    }

    static let cases: [Case] = [
        c("title == AND views > 3", at: 9, "AND", "Unexpected token 'AND'"),
        c("", at: 0, "", "Unexpected end of format"),
        c("title ==", at: 8, "", "Unexpected end of format"),
        c("title == 'abc", at: 9, "'abc", "Unterminated string"),
        c("a == 1 b == 2", at: 7, "b", "Unexpected token 'b'"),
        c("a LIKE[x] 'b'", at: 7, "x", "Unknown comparison option 'x'"),
        c("a LIKE[] 'b'", at: 7, "]", "Unexpected token ']'"),
        c("a BETWEEN {1}", at: 10, "{", "Invalid BETWEEN bounds"),
        c("a BETWEEN 5", at: 10, "5", "Invalid BETWEEN bounds"),
        c("a == 1 AND", at: 10, "", "Unexpected end of format"),
        c("(a == 1", at: 7, "", "Unexpected end of format"),
        c(#"a == "\q""#, at: 6, #"\q"#, "Malformed escape"),
        c(#"a == "\u12""#, at: 6, #"\u"#, "Malformed escape"),
        c(#"a == "\ud800x""#, at: 6, #"\ud800"#, "Malformed escape"),
        c("a. == 1", at: 3, "==", "Unexpected token '=='"),
        c("a ~ 1", at: 2, "~", "Unexpected character '~'"),
        c("a == 0x", at: 5, "0x", "Malformed number"),
        c("a == %%", at: 5, "%%", "Unexpected '%%'"),
        c("a == %z", at: 5, "%z", "Unknown format specifier"),
        c("SUBQUERY(tags, t, t == 1).@count > 0", at: 15, "t", "Unexpected token 't'"),
        c("Zoe\u{308} == AND", at: 7, "AND", "Unexpected token 'AND'"),
        c("a", at: 1, "", "Unexpected end of format"),
        c("a == $", at: 5, "$", "Unexpected character '$'"),
        c("a == @", at: 5, "@", "Unexpected character '@'"),
        c("a == #", at: 5, "#", "Unexpected character '#'"),
        c("CAST('zz', 'NSUUID') == a", at: 0, "CAST", "Invalid CAST"),
        c("a == 1 &", at: 7, "&", "Unexpected character '&'"),
        c("a IN {1, 2", at: 10, "", "Unexpected end of format"),
        c("a == 1)", at: 6, ")", "Unexpected token ')'"),
        c("ANY == 1", at: 4, "==", "Unexpected token '=='"),
        c("a == SUBQUERY(x, $y)", at: 19, ")", "Unexpected token ')'"),
        c("NOT", at: 3, "", "Unexpected end of format"),
        c("😀 == 1", at: 0, "😀", "Unexpected character '😀'"),
        c("a == FUNCTION(x", at: 15, "", "Unexpected end of format"),
        c("dogs[0 == 1", at: 7, "==", "Unexpected token '=='"),
    ]

    @Test("Reports kind, position and token", arguments: cases)
    func reports(_ testCase: Case) {
        let predicate = FetchPredicate(format: testCase.format)
        guard let error = predicate.parseError else {
            Issue.record("parsed: \(predicate.predicateFormat)")
            return
        }
        #expect(error.kind == testCase.kind)
        #expect(error.position == testCase.position)
        #expect(error.token == testCase.token)
        #expect(error.headline == testCase.headline)
        #expect(error.format == testCase.format)
        #expect(predicate.node == nil)
        #expect(predicate.predicateFormat == testCase.format)
    }

    @Test func messageNamesTokenPositionColumnAndFormat() {
        let error = FetchPredicate(format: "title == AND views > 3").parseError
        #expect(
            error?.message
                == #"Unexpected token 'AND' at position 9 (column 10) in "title == AND views > 3": expected a value"#
        )
        #expect(error?.description == error?.message)
    }

    @Test func carriedErrorIsThrownByEveryEvaluation() throws {
        let predicate = FetchPredicate(format: "title == AND views > 3")
        let error = try #require(predicate.parseError)
        #expect(throws: error) { try predicate.evaluate(with: ["title": "x"]) }
        #expect(throws: error) { try predicate.evaluate(with: nil, substitutionVariables: [:]) }
        #expect(throws: error) { try FetchPredicate(parsing: "title == AND views > 3") }
        #expect(FetchPredicate(format: "title == 'x'").parseError == nil)
    }

    @Test func argumentErrors() throws {
        struct Opaque {}
        let missing = FetchPredicate(format: "a == %@ AND b == %@", 1).parseError
        #expect(missing?.kind == .wrongArgumentCount)
        #expect(missing?.position == 17)
        #expect(missing?.token == "%@")

        let extra = FetchPredicate(format: "a == 1", 1).parseError
        #expect(extra?.kind == .wrongArgumentCount)
        #expect(extra?.position == 6)

        let opaque = FetchPredicate(format: "a == %@", Opaque()).parseError
        #expect(opaque?.kind == .wrongArgumentType)
        #expect(opaque?.position == 5)
        #expect(opaque?.detail.contains("Opaque") == true)

        #expect(FetchPredicate(format: "%K == 1", 5).parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "%K == 1", "first name").parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "%K == 1", "a..b").parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "a == %d", "x").parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "a == %d", 2.5).parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "a == %f", "x").parseError?.kind == .wrongArgumentType)
        #expect(FetchPredicate(format: "a == %@", ["k": 1]).parseError?.kind == .wrongArgumentType)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "(", count: 500) + "a == 1" + String(repeating: ")", count: 500)
        let error = FetchPredicate(format: deep).parseError
        #expect(error?.kind == .syntax)
        #expect(error?.headline == "Nesting too deep")
        let deepNot = String(repeating: "NOT ", count: 500) + "a == 1"
        #expect(FetchPredicate(format: deepNot).parseError?.headline == "Nesting too deep")
        let fine = String(repeating: "(", count: 40) + "a == 1" + String(repeating: ")", count: 40)
        #expect(FetchPredicate(format: fine).parseError == nil)
    }

    @Test func unknownKeyFactory() {
        let error = FetchPredicateError.unknownKey("colour", entity: "Photo", format: "colour == 'red'")
        #expect(error.kind == .unknownKey)
        #expect(error.token == "colour")
        #expect(error.message == #"Unknown key 'colour' in "colour == 'red'": entity 'Photo' has no such property"#)
    }
}
