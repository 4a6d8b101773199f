import Foundation
import Testing

@testable import ObjectGraph

/// The public surface: constants, compounds, operators, value semantics.
@Suite("Predicate API")
struct PredicateAPITests {
    let a = FetchPredicate(format: "a == 1")
    let b = FetchPredicate(format: "b == 2")
    let c = FetchPredicate(format: "c == 3 OR d == 4")

    @Test func constants() throws {
        #expect(FetchPredicate(value: true).predicateFormat == "TRUEPREDICATE")
        #expect(FetchPredicate(value: false).predicateFormat == "FALSEPREDICATE")
        #expect(try FetchPredicate(value: true).evaluate(with: nil))
        #expect(try !FetchPredicate(value: false).evaluate(with: nil))
        #expect(try FetchPredicate(value: true) == FetchPredicate(parsing: "TRUEPREDICATE"))
    }

    @Test func compounds() throws {
        #expect(FetchPredicate(andPredicateWithSubpredicates: [a, b]).predicateFormat == "a == 1 AND b == 2")
        #expect(FetchPredicate(orPredicateWithSubpredicates: [a, b]).predicateFormat == "a == 1 OR b == 2")
        #expect(FetchPredicate(notPredicateWithSubpredicate: a).predicateFormat == "NOT a == 1")
        #expect(CompoundPredicate(andPredicateWithSubpredicates: [a, c]).predicateFormat == "a == 1 AND (c == 3 OR d == 4)")
        #expect(FetchPredicate.not(c).predicateFormat == "NOT (c == 3 OR d == 4)")
        #expect(FetchPredicate.and([]).predicateFormat == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).predicateFormat == "FALSEPREDICATE")
        #expect(FetchPredicate.and([a]) == a)
        #expect((a && b) == .and([a, b]))
        #expect((a || b) == .or([a, b]))
        #expect((!a) == .not(a))
        #expect((a && b || c).predicateFormat == "(a == 1 AND b == 2) OR (c == 3 OR d == 4)")
        let object: [String: Any] = ["a": 1, "b": 5, "d": 4]
        #expect(try (a && c).evaluate(with: object))
        #expect(try !(a && b).evaluate(with: object))
        #expect(try (!b).evaluate(with: object))
        for compound in [a && b, a || c, !(a || b)] {
            #expect(try FetchPredicate(parsing: compound.predicateFormat) == compound)
        }
    }

    @Test func compoundsCarryTheFirstError() {
        let bad = FetchPredicate(format: "a ==")
        #expect((a && bad).parseError == bad.parseError)
        #expect((bad || a).parseError == bad.parseError)
        #expect((!bad).parseError == bad.parseError)
        #expect((a && bad).node == nil)
    }

    @Test func valueSemantics() throws {
        let set: Set<FetchPredicate> = [
            FetchPredicate(format: "a == 1"), FetchPredicate(format: "a = 1"), FetchPredicate(format: "a==1"),
            FetchPredicate(format: "A == 1"),
        ]
        #expect(set.count == 2)
        #expect(FetchPredicate(format: "a == 1").description == "a == 1")
        #expect("\(FetchPredicate(format: "a  ==   'x'"))" == #"a == "x""#)
        let sendable: any Sendable = FetchPredicate(format: "a == 1")
        #expect(sendable is FetchPredicate)
    }

    @Test func throwingInitializers() {
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(parsing: "a ==") }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(parsing: "a == %@", argumentArray: []) }
        #expect(throws: Never.self) { try FetchPredicate(parsing: "a == %@", 1) }
    }

    @Test func packageEntryPoints() throws {
        let predicate = FetchPredicate(format: "views > $min")
        let node = try #require(predicate.node)
        #expect(predicate.error == nil)
        let evaluator = PredicateEvaluator(variables: ["min": .value(.int(3))])
        #expect(try evaluator.evaluate(node, on: .object(["views": 5])))
        #expect(try predicate.evaluate(operand: .object(["views": 2]), variables: ["min": .value(.int(1))]))
        #expect(PredicateFormatter.format(node) == "views > $min")
        #expect(FetchPredicate(node: node) == predicate)
    }

    @Test func concurrentEvaluation() async {
        let predicate = FetchPredicate(format: "ANY tags.name ==[cd] %@ AND views.@sum > 2", "quad")
        let hits = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<32 {
                group.addTask {
                    let object: [String: Any] = ["tags": [["name": "QUÄD"]], "views": [i, 1]]
                    return (try? predicate.evaluate(with: object)) ?? false
                }
            }
            var count = 0
            for await hit in group where hit { count += 1 }
            return count
        }
        #expect(hits == 30)
    }
}
