import Foundation
import Testing

@testable import ObjectGraph

/// The semantics contract, bullet by bullet, on dictionaries and stand-in objects.
@Suite("Predicate evaluation")
struct PredicateEvaluationTests {
    let empty: [String: Any] = [:]

    @Test func nullIsTwoValued() {
        expectPredicate("x == nil", on: empty, is: true)
        expectPredicate("x == nil", on: ["x": 1], is: false)
        expectPredicate("x != nil", on: empty, is: false)
        expectPredicate("x != nil", on: ["x": 1], is: true)
        expectPredicate("x != 5", on: empty, is: true)
        expectPredicate("x == 5", on: empty, is: false)
        for op in ["<", "<=", ">", ">="] {
            expectPredicate("x \(op) 5", on: empty, is: false)
            expectPredicate("5 \(op) x", on: empty, is: false)
        }
        expectPredicate("x BETWEEN {1, 5}", on: empty, is: false)
        for op in ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "==[c]"] {
            expectPredicate("x \(op) 'a'", on: empty, is: false)
        }
        expectPredicate("x == nil", on: empty, is: true)
        expectPredicate("x IN {1, nil}", on: empty, is: true)
        expectPredicate("x IN {1, 2}", on: empty, is: false)
        expectPredicate("NOT (x > 5)", on: empty, is: true)
        expectPredicate("NOT x == 5", on: empty, is: true)
        expectPredicate("x == nil", on: ["x": NSNull()], is: true)
        let optional: [String: Any?] = ["x": Int?.none as Any, "y": Optional(Optional(3)) as Any]
        expectPredicate("x == nil AND y == 3", on: optional, is: true)
        expectPredicate("SELF == nil", on: nil, is: true)
        expectPredicate("SELF == nil", on: empty, is: false)
    }

    @Test func numbersCompareAcrossKinds() {
        expectPredicate("x == 1", on: ["x": 1.0], is: true)
        expectPredicate("x == 1", on: ["x": true], is: true)
        expectPredicate("x == YES", on: ["x": 1], is: true)
        expectPredicate("x == 2.5", on: ["x": Decimal(string: "2.5")!], is: true)
        expectPredicate("x < 3", on: ["x": Decimal(string: "2.9")!], is: true)
        expectPredicate("x > 2", on: ["x": 2.5], is: true)
        expectPredicate("x == 9007199254740993", on: ["x": Int64(9_007_199_254_740_993)], is: true)
        expectPredicate("x == 9007199254740992", on: ["x": Int64(9_007_199_254_740_993)], is: false)
        expectPredicate("x == %@", [UInt64.max], on: ["x": UInt64.max], is: true)
        expectPredicate("x > %@", [Int64.max], on: ["x": UInt64.max], is: true)
        expectPredicate("x == 1", on: ["x": NSNumber(value: 1)], is: true)
        expectPredicate("x == YES", on: ["x": NSNumber(value: true)], is: true)
        expectPredicate("x == 0.5", on: ["x": Float(0.5)], is: true)
    }

    @Test func kindsThatDoNotCompare() {
        expectPredicate("x == '1'", on: ["x": 1], is: false)
        expectPredicate("x != '1'", on: ["x": 1], is: true)
        expectPredicate("x < '1'", on: ["x": 0], is: false)
        expectPredicate("x > '1'", on: ["x": 0], is: false)
        expectPredicate("x == %@", [Date(timeIntervalSince1970: 0)], on: ["x": 0], is: false)
    }

    @Test func datesDataUUIDsURLs() {
        let early = Date(timeIntervalSince1970: 1_000)
        let late = Date(timeIntervalSince1970: 2_000)
        expectPredicate("d < %@", [late], on: ["d": early], is: true)
        expectPredicate("d BETWEEN %@", [[early, late]], on: ["d": Date(timeIntervalSince1970: 1_500)], is: true)
        expectPredicate("d == %@", [early], on: ["d": early], is: true)
        expectPredicate("b < %@", [Data([1, 3])], on: ["b": Data([1, 2, 9])], is: true)
        expectPredicate("b < %@", [Data([1, 2])], on: ["b": Data([1])], is: true)
        expectPredicate("b == %@", [Data([1, 2])], on: ["b": Data([1, 2])], is: true)
        let u1 = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        let u2 = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
        expectPredicate("u < %@", [u2], on: ["u": u1], is: true)
        expectPredicate("u == %@", [u1], on: ["u": u1], is: true)
        let url = URL(string: "https://example.com/a")!
        expectPredicate("u == %@", [url], on: ["u": url], is: true)
        expectPredicate("u < %@", [URL(string: "https://example.com/b")!], on: ["u": url], is: true)
    }

    @Test func stringOperators() {
        expectPredicate("'ab' IN name", on: ["name": "xaby"], is: true)
        expectPredicate("name IN 'xabcx'", on: ["name": "abc"], is: true)
        expectPredicate("name IN[c] 'XABCX'", on: ["name": "abc"], is: true)
        expectPredicate("name IN 'xabcx'", on: ["name": "abd"], is: false)
        expectPredicate("name CONTAINS 'bc'", on: ["name": "abcd"], is: true)
        expectPredicate("name CONTAINS ''", on: ["name": "abcd"], is: false)
        expectPredicate("name BEGINSWITH ''", on: ["name": "abcd"], is: false)
        expectPredicate("name ENDSWITH[cd] ''", on: ["name": "abcd"], is: false)
        expectPredicate("name BEGINSWITH 'ab'", on: ["name": "abcd"], is: true)
        expectPredicate("name ENDSWITH 'cd'", on: ["name": "abcd"], is: true)
        expectPredicate("name ENDSWITH 'abcde'", on: ["name": "abcd"], is: false)
        expectPredicate("name BEGINSWITH 1", on: ["name": "1abc"], is: false)
        expectPredicate("name < 'b'", on: ["name": "a"], is: true)
        expectPredicate("name < 'a'", on: ["name": "B"], is: true)
        expectPredicate("name > 'Z'", on: ["name": "é"], is: true)
        expectPredicate("name <[c] 'b'", on: ["name": "A"], is: true)
    }

    @Test func collectionsWithoutModifierMeanAny() {
        let tags: [String: Any] = ["tags": ["a", "b"]]
        expectPredicate("tags == 'a'", on: tags, is: true)
        expectPredicate("tags == 'c'", on: tags, is: false)
        expectPredicate("tags BEGINSWITH 'b'", on: tags, is: true)
        expectPredicate("tags CONTAINS 'a'", on: tags, is: true)
        expectPredicate("tags CONTAINS[c] 'A'", on: tags, is: true)
        expectPredicate("tags CONTAINS 'c'", on: tags, is: false)
        expectPredicate("'a' IN tags", on: tags, is: true)
        expectPredicate("%@ IN tags", ["b"], on: tags, is: true)
        expectPredicate("tags IN {'b', 'q'}", on: tags, is: true)
        expectPredicate("ANY tags == 'b'", on: tags, is: true)
        expectPredicate("SOME tags == 'b'", on: tags, is: true)
        expectPredicate("ALL tags == 'a'", on: tags, is: false)
        expectPredicate("ALL tags IN {'a', 'b'}", on: tags, is: true)
        expectPredicate("NONE tags == 'c'", on: tags, is: true)
        expectPredicate("NONE tags == 'a'", on: tags, is: false)
        expectPredicate("NOT ANY tags == 'a'", on: tags, is: false)
        expectPredicate("ANY tags == 'a'", on: ["tags": [String]()], is: false)
        expectPredicate("ALL tags == 'a'", on: ["tags": [String]()], is: true)
        expectPredicate("NONE tags == 'a'", on: ["tags": [String]()], is: true)
        expectPredicate("ANY tags == 'a'", on: empty, is: false)
        expectPredicate("ALL tags == 'a'", on: empty, is: true)
        expectPredicate("NONE tags == 'a'", on: empty, is: true)
        expectPredicate("ANY tags == 'a'", on: ["tags": Set(["a", "z"])], is: true)
        expectPredicate("ANY tags == 'a'", on: ["tags": NSArray(array: ["a"])], is: true)
    }

    @Test func keyPathsThroughToManyFlatten() {
        let album: [String: Any] = [
            "photos": [
                ["title": "A", "tags": [["name": "x", "views": 1], ["name": "y", "views": 2]]],
                ["title": "B", "tags": [["name": "z", "views": 4]]],
                ["title": "C", "tags": [[String: Any]]()],
            ],
            "owner": ["name": "Ann", "address": ["city": "Palo Alto"]],
        ]
        expectPredicate("ANY photos.tags.name == 'z'", on: album, is: true)
        expectPredicate("photos.tags.name == 'y'", on: album, is: true)
        expectPredicate("photos.tags.@count == 3", on: album, is: true)
        expectPredicate("photos.tags.@sum.views == 7", on: album, is: true)
        expectPredicate("photos.@count == 3", on: album, is: true)
        expectPredicate("ALL photos.title IN {'A', 'B', 'C'}", on: album, is: true)
        expectPredicate("owner.address.city BEGINSWITH 'Palo'", on: album, is: true)
        expectPredicate("owner.spouse.name == nil", on: album, is: true)
        expectPredicate("owner.missing == nil", on: album, is: true)
        // A scalar (or null) met through a collection stays one element; only collections splice.
        expectPredicate("ANY photos.subtitle == nil", on: album, is: true)
        expectPredicate("photos.subtitle.@count == 3", on: album, is: true)
    }

    @Test func between() {
        for (x, expected) in [(0, false), (1, true), (3, true), (5, true), (6, false)] {
            expectPredicate("x BETWEEN {1, 5}", on: ["x": x], is: expected)
        }
        expectPredicate("x BETWEEN {1, 5}", on: ["x": 3.5], is: true)
        expectPredicate("x BETWEEN %@", [[1, 5]], on: ["x": 2], is: true)
        expectPredicate("x BETWEEN {nil, 5}", on: ["x": 2], is: false)
        expectPredicate("x BETWEEN {lo, hi}", on: ["x": 2, "lo": 1, "hi": 2], is: true)
        expectPredicate("name BETWEEN {'a', 'c'}", on: ["name": "b"], is: true)
        expectPredicate("ANY xs BETWEEN {1, 2}", on: ["xs": [0, 2]], is: true)
        #expect(predicateError("x BETWEEN b", on: ["x": 1, "b": 3])?.kind == .typeMismatch)
    }

    @Test func aggregates() throws {
        let views: [String: Any] = ["views": [1, 2, 3]]
        expectPredicate("views.@sum == 6", on: views, is: true)
        expectPredicate("views.@avg == 2", on: views, is: true)
        expectPredicate("views.@min == 1", on: views, is: true)
        expectPredicate("views.@max == 3", on: views, is: true)
        expectPredicate("views.@count == 3", on: views, is: true)
        let holes: [String: Any?] = ["views": [1, nil, 3] as [Int?]]
        expectPredicate("views.@sum == 4 AND views.@avg == 2 AND views.@min == 1 AND views.@count == 3", on: holes, is: true)
        let none: [String: Any] = ["views": [Int]()]
        expectPredicate("views.@sum == 0 AND views.@avg == nil AND views.@min == nil AND views.@max == nil", on: none, is: true)
        expectPredicate("views.@sum == 0 AND views.@avg == nil AND views.@count == 0", on: empty, is: true)
        expectPredicate("views.@sum == 3.5", on: ["views": [1, 2.5]], is: true)
        expectPredicate("names.@max == 'c' AND names.@min == 'a'", on: ["names": ["b", "a", "c"]], is: true)
        let tags: [String: Any] = ["tags": [["views": 1], ["views": 2]]]
        expectPredicate("tags.@sum.views == 3", on: tags, is: true)
        expectPredicate("tags.@avg.views > 1.4", on: tags, is: true)
        expectPredicate("{1, 2, 3}.@sum == 6", on: empty, is: true)
        expectPredicate("SELF.@count == 2", on: [1, 2], is: true)

        let evaluator = PredicateEvaluator()
        let sum = try evaluator.operand(of: FetchPredicateParse.expression("views.@sum"), on: .object(views))
        #expect(Self.value(sum) == .int(6))
        let avg = try evaluator.operand(of: FetchPredicateParse.expression("views.@avg"), on: .object(views))
        #expect(Self.value(avg) == .double(2))
        let big = ["views": [Int64.max, 1]]
        let overflow = try evaluator.operand(of: FetchPredicateParse.expression("views.@sum"), on: .object(big))
        #expect(Self.value(overflow) == .double(Double(Int64.max) + 1))
        #expect(predicateError("name.@count == 1", on: ["name": "abc"])?.kind == .typeMismatch)
    }

    static func value(_ operand: PredicateOperand) -> Value? {
        if case .value(let value) = operand { return value }
        return nil
    }

    @Test func subqueries() {
        let photo: [String: Any] = [
            "minViews": 2,
            "tags": [["name": "a", "views": 1], ["name": "b", "views": 5], ["name": "c", "views": 3]],
        ]
        expectPredicate("SUBQUERY(tags, $t, $t.views > 1).@count == 2", on: photo, is: true)
        expectPredicate("SUBQUERY(tags, $t, $t.views > 100).@count == 0", on: photo, is: true)
        expectPredicate("ANY SUBQUERY(tags, $t, $t.views > 4).name == 'b'", on: photo, is: true)
        expectPredicate("SUBQUERY(tags, $t, $t.views > minViews).@count == 2", on: photo, is: true)
        #expect(predicateError("SUBQUERY(tags, $t, $t.views > $min).@count == 1", on: photo)?.kind == .missingVariable)
        expectPredicate("SUBQUERY(missing, $t, $t.views > 1).@count == 0", on: photo, is: true)
        expectPredicate("SUBQUERY(tags, $t, $t.name IN {'a', 'c'}).@sum.views == 4", on: photo, is: true)
        let nested: [String: Any] = ["groups": [["members": [1, 5, 7]], ["members": [2]]]]
        expectPredicate(
            "SUBQUERY(groups, $g, SUBQUERY($g.members, $m, $m > 4).@count > 0).@count == 1",
            on: nested,
            is: true
        )
        let result = try? FetchPredicate(format: "SUBQUERY(tags, $t, $t.views > $min).@count == 1")
            .evaluate(with: photo, substitutionVariables: ["min": 4])
        #expect(result == true)
    }

    @Test func selfOnPlainValues() {
        expectPredicate("SELF > 3", on: 5, is: true)
        expectPredicate("SELF == 'abc'", on: "abc", is: true)
        expectPredicate("SELF IN {1, 2}", on: 2, is: true)
        expectPredicate("SELF BEGINSWITH 'a'", on: "abc", is: true)
        expectPredicate("ANY SELF == 2", on: [1, 2], is: true)
        expectPredicate("SELF CONTAINS 2", on: [1, 2], is: true)
        expectPredicate(
            "SELF == %@",
            [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!],
            on: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
            is: true
        )
    }

    @Test func objectsCompareByIdentity() {
        let author = PredicateTestObject(1, entity: "Person", ["name": .value(.string("Ann"))])
        let other = PredicateTestObject(2, entity: "Person", ["name": .value(.string("Bob"))])
        let tag = PredicateTestObject(3, entity: "Tag", ["name": .value(.string("quad"))])
        let photo = PredicateTestObject(
            10,
            ["author": .object(author), "editor": .value(.null), "tags": .collection([.object(tag)])]
        )
        expectPredicate("SELF == %@", [photo], on: photo, is: true)
        expectPredicate("SELF == %@", [photo.id], on: photo, is: true)
        expectPredicate("SELF != %@", [author], on: photo, is: true)
        expectPredicate("SELF IN %@", [[author.id, photo.id]], on: photo, is: true)
        expectPredicate("SELF < %@", [photo], on: photo, is: false)
        expectPredicate("SELF <= %@", [photo], on: photo, is: false)
        expectPredicate("author == %@", [author], on: photo, is: true)
        expectPredicate("author == %@", [other], on: photo, is: false)
        expectPredicate("author != nil", on: photo, is: true)
        expectPredicate("author == nil", on: photo, is: false)
        expectPredicate("editor == nil", on: photo, is: true)
        expectPredicate("editor.name == nil", on: photo, is: true)
        expectPredicate("author.name == 'Ann'", on: photo, is: true)
        expectPredicate("tags CONTAINS %@", [tag], on: photo, is: true)
        expectPredicate("%@ IN tags", [tag.id], on: photo, is: true)
        expectPredicate("tags CONTAINS %@", [author], on: photo, is: false)
        expectPredicate("ANY tags.name == 'quad'", on: photo, is: true)
        expectPredicate("ANY tags == %@", [tag], on: photo, is: true)
        let bound = try? FetchPredicate(format: "author != $who AND $who.name == 'Bob'")
            .evaluate(with: photo, substitutionVariables: ["who": other])
        #expect(bound == true)
    }

    @Test func errorsAreThrownNeverFalse() {
        let photo = PredicateTestObject(1, ["title": .value(.string("x"))])
        let unknown = predicateError("title == 'x' AND colour == 'red'", on: photo)
        #expect(unknown?.kind == .unknownKey)
        #expect(unknown?.token == "colour")
        #expect(unknown?.format == "title == \"x\" AND colour == \"red\"")
        let missing = predicateError("$x == 1", on: empty)
        #expect(missing?.kind == .missingVariable)
        #expect(missing?.token == "$x")
        let unsupported = predicateError("FUNCTION(SELF, 'reverse') == 'x'", on: empty)
        #expect(unsupported?.kind == .unsupported)
        #expect(unsupported?.message.contains("unsupported: needs the Objective-C runtime") == true)
        #expect(predicateError("x UTI-CONFORMS-TO 'public.image'", on: empty)?.kind == .unsupported)
        #expect(predicateError("ANYKEY == 1", on: empty)?.kind == .unsupported)
        #expect(predicateError("ANY name == 'x'", on: ["name": "x"])?.kind == .typeMismatch)
        #expect(predicateError("name.count == 1", on: ["name": "x"])?.kind == .typeMismatch)
        #expect(predicateError("SUBQUERY(name, $x, $x == 1).@count == 1", on: ["name": "x"])?.kind == .typeMismatch)
        #expect(predicateError("SELF == 1", on: Opaque())?.kind == .typeMismatch)
        #expect(predicateError("x == 1", on: ["x": Opaque()])?.kind == .typeMismatch)
    }

    struct Opaque {}

    @Test func andOrShortCircuitLeftToRight() {
        let photo = PredicateTestObject(1, ["title": .value(.string("x"))])
        expectPredicate("title == 'y' AND colour == 'red'", on: photo, is: false)
        expectPredicate("title == 'x' OR colour == 'red'", on: photo, is: true)
    }
}

/// Parses a lone expression by parsing `expression == nil` and taking the left side.
enum FetchPredicateParse {
    static func expression(_ text: String) throws -> ExpressionNode {
        let node = try FetchPredicate(parsing: "\(text) == nil").validNode()
        guard case .comparison(let comparison) = node else { throw FetchPredicateError.typeMismatch("not a comparison") }
        return comparison.lhs
    }
}

/// A stand-in for a managed object: known keys, an object ID, unknown keys throw.
final class PredicateTestObject: PredicateEvaluable, PredicateArgumentConvertible {
    let id: ManagedObjectID
    var values: [String: PredicateOperand]

    init(_ key: Int64, entity: String = "Photo", _ values: [String: PredicateOperand] = [:]) {
        id = ManagedObjectID(storeIdentifier: "S", entityName: entity, primaryKey: key)
        self.values = values
    }

    func predicateOperand(forKey key: String) throws -> PredicateOperand {
        guard let value = values[key] else { throw FetchPredicateError.unknownKey(key, entity: id.entityName) }
        return value
    }

    var predicateIdentity: Value { .objectID(id) }
    var predicateArgument: Value { .objectID(id) }
}

/// Expects `format` (with `arguments`) to evaluate to `expected` on `object`.
func expectPredicate(
    _ format: String,
    _ arguments: [Any?] = [],
    on object: Any?,
    is expected: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let predicate = FetchPredicate(format: format, argumentArray: arguments)
    do {
        let result = try predicate.evaluate(with: object)
        #expect(result == expected, "\(format)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(format) threw \(error)", sourceLocation: sourceLocation)
    }
}

/// The error evaluating `format` on `object` throws, if any.
func predicateError(_ format: String, _ arguments: [Any?] = [], on object: Any?) -> FetchPredicateError? {
    do {
        _ = try FetchPredicate(format: format, argumentArray: arguments).evaluate(with: object)
        return nil
    } catch let error as FetchPredicateError {
        return error
    } catch {
        Issue.record("not a FetchPredicateError: \(error)")
        return nil
    }
}
