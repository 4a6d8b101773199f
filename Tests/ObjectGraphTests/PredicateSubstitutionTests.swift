import Foundation
import Testing

@testable import ObjectGraph

/// `$VARIABLE` substitution, `%K`, and `%@`/`%d`/`%f` arguments of every supported type.
@Suite("Predicate substitution")
struct PredicateSubstitutionTests {
    /// The constant a `%@` argument becomes.
    func constant(_ argument: Any?, _ specifier: String = "%@") -> Value? {
        let predicate = FetchPredicate(format: "x == \(specifier)", argumentArray: [argument])
        guard case .comparison(let comparison)? = predicate.node, case .constant(let value) = comparison.rhs else {
            return nil
        }
        return value
    }

    @Test func argumentsOfEveryType() throws {
        #expect(constant("abc") == .string("abc"))
        #expect(constant("abcdef".dropFirst(3)) == .string("def"))
        #expect(constant(Character("é")) == .string("é"))
        #expect(constant("Zoe\u{308}") == .string("Zo\u{EB}"))
        #expect(constant(NSString(string: "ns")) == .string("ns"))
        #expect(constant(Int(-1)) == .int(-1))
        #expect(constant(Int8(-8)) == .int(-8))
        #expect(constant(Int16(16)) == .int(16))
        #expect(constant(Int32(32)) == .int(32))
        #expect(constant(Int64.min) == .int(.min))
        #expect(constant(UInt(1)) == .int(1))
        #expect(constant(UInt8(8)) == .int(8))
        #expect(constant(UInt16(16)) == .int(16))
        #expect(constant(UInt32(32)) == .int(32))
        #expect(constant(UInt64.max) == .decimal(Decimal(string: "18446744073709551615")!))
        #expect(constant(Float(0.5)) == .double(0.5))
        #expect(constant(2.5) == .double(2.5))
        #expect(constant(CGFloat(1.5)) == .double(1.5))
        #if !(os(macOS) && arch(x86_64))
        #expect(constant(Float16(0.25)) == .double(0.25))
        #endif
        #expect(constant(true) == .bool(true))
        #expect(constant(Decimal(string: "3.14")!) == .decimal(Decimal(string: "3.14")!))
        #expect(constant(NSDecimalNumber(string: "1.5")) == .decimal(Decimal(string: "1.5")!))
        #expect(constant(NSNumber(value: 7)) == .int(7))
        #expect(constant(NSNumber(value: 7.5)) == .double(7.5))
        #expect(constant(NSNumber(value: false)) == .bool(false))
        let date = Date(timeIntervalSinceReferenceDate: 721_692_000)
        #expect(constant(date) == .date(date))
        #expect(constant(NSDate(timeIntervalSinceReferenceDate: 5)) == .date(Date(timeIntervalSinceReferenceDate: 5)))
        #expect(constant(Data([1, 2])) == .data(Data([1, 2])))
        #expect(constant(NSData(data: Data([3]))) == .data(Data([3])))
        let uuid = UUID()
        #expect(constant(uuid) == .uuid(uuid))
        #expect(constant(NSUUID(uuidString: uuid.uuidString)!) == .uuid(uuid))
        let url = URL(string: "https://example.com/x")!
        #expect(constant(url) == .url(url))
        #expect(constant(NSURL(string: "https://example.com/x")!) == .url(url))
        #expect(constant(nil) == .null)
        #expect(constant(NSNull()) == .null)
        #expect(constant(Int?.none as Any) == .null)
        #expect(constant(Optional(Optional(Int?.none)) as Any) == .null)
        #expect(constant(Optional(Optional(4)) as Any) == .int(4))
        #expect(constant([1, 2]) == .array([.int(1), .int(2)]))
        #expect(constant([[1], [2, 3]]) == .array([.array([.int(1)]), .array([.int(2), .int(3)])]))
        #expect(constant(Set(["only"])) == .array([.string("only")]))
        #expect(constant(NSArray(array: [1, "a"])) == .array([.int(1), .string("a")]))
        #expect(constant([1, nil] as [Int?]) == .array([.int(1), .null]))
        let id = ManagedObjectID(storeIdentifier: "S", entityName: "Tag", primaryKey: 4)
        #expect(constant(id) == .objectID(id))
        #expect(constant(PredicateTestObject(4, entity: "Tag")) == .objectID(id))
        #expect(constant(Value.string("e\u{301}")) == .string("é"))
    }

    @Test func int128() {
        if #available(macOS 15, *) {
            #expect(constant(Int128(5)) == .int(5))
            #expect(constant(Int128(Int64.max) * 4) == .decimal(Decimal(string: "36893488147419103228")!))
        }
    }

    @Test func numericSpecifiers() {
        for spec in ["%d", "%i", "%ld", "%li", "%lld", "%u", "%lu", "%llu", "%hd", "%qd"] {
            #expect(constant(5, spec) == .int(5), "\(spec)")
        }
        #expect(constant(true, "%d") == .int(1))
        #expect(constant(3.0, "%d") == .int(3))
        for spec in ["%f", "%lf", "%g", "%e"] {
            #expect(constant(2, spec) == .double(2), "\(spec)")
        }
        #expect(constant(2.5, "%f") == .double(2.5))
        #expect(constant(Decimal(string: "0.5")!, "%f") == .double(0.5))
    }

    @Test func keyPathSpecifier() throws {
        #expect(FetchPredicate(format: "%K == %@", "title", "x").predicateFormat == #"title == "x""#)
        #expect(FetchPredicate(format: "%K.@count > 1", "tags").predicateFormat == "tags.@count > 1")
        #expect(FetchPredicate(format: "%K > 1", "tags.@sum.views").predicateFormat == "tags.@sum.views > 1")
        #expect(FetchPredicate(format: "%K == 1", "IN").predicateFormat == "#IN == 1")
        #expect(FetchPredicate(format: "%K == 1", "author.name").predicateFormat == "author.name == 1")
        #expect(
            FetchPredicate(format: "ANY %K BEGINSWITH[c] %@", "tags.name", "q").predicateFormat
                == #"ANY tags.name BEGINSWITH[c] "q""#
        )
        expectPredicate("%K == %@", ["title", "x"], on: ["title": "x"], is: true)
        expectPredicate("%K like '%@'", ["title"], on: ["title": "%@"], is: true)
        #expect(try FetchPredicate(parsing: "%K == 1", "title") == FetchPredicate(parsing: "title == 1"))
        #expect(FetchPredicate(format: "title == 1", argumentArray: nil).parseError == nil)
    }

    @Test func quotedSpecifiersAndVariablesAreLiteral() {
        expectPredicate("name == '%@'", on: ["name": "%@"], is: true)
        expectPredicate("name == '$x'", on: ["name": "$x"], is: true)
        expectPredicate("name == '%%'", on: ["name": "%%"], is: true)
    }

    @Test func variables() throws {
        let template = FetchPredicate(format: "views > $MIN AND title BEGINSWITH $PREFIX")
        let predicate = template.withSubstitutionVariables(["MIN": 100, "PREFIX": "Quad"])
        #expect(predicate.predicateFormat == #"views > 100 AND title BEGINSWITH "Quad""#)
        #expect(try predicate.evaluate(with: ["views": 120, "title": "Quad 1"]))
        #expect(try !predicate.evaluate(with: ["views": 20, "title": "Quad 1"]))
        #expect(try predicate == FetchPredicate(parsing: #"views > 100 AND title BEGINSWITH "Quad""#))

        let partial = template.withSubstitutionVariables(["MIN": 1])
        #expect(partial.predicateFormat == "views > 1 AND title BEGINSWITH $PREFIX")
        #expect(throws: FetchPredicateError.self) { try partial.evaluate(with: ["views": 5, "title": "x"]) }
        #expect(try partial.evaluate(with: ["views": 5, "title": "xy"], substitutionVariables: ["PREFIX": "x"]))

        let list = FetchPredicate(format: "name IN $LIST").withSubstitutionVariables(["LIST": ["a", "b"]])
        #expect(list.predicateFormat == #"name IN {"a", "b"}"#)
        let folded = FetchPredicate(format: "x IN {$A, $B}").withSubstitutionVariables(["A": 1, "B": 2])
        #expect(try folded == FetchPredicate(parsing: "x IN {1, 2}"))
        let nullVariable = FetchPredicate(format: "x == $N").withSubstitutionVariables(["N": nil])
        #expect(nullVariable.predicateFormat == "x == nil")

        let subquery = FetchPredicate(format: "SUBQUERY(tags, $t, $t.views > $t2).@count > 0")
            .withSubstitutionVariables(["t": 99, "t2": 1])
        #expect(subquery.predicateFormat == "SUBQUERY(tags, $t, $t.views > 1).@count > 0")

        struct Opaque {}
        let bad = template.withSubstitutionVariables(["MIN": Opaque()])
        #expect(bad.parseError?.kind == .wrongArgumentType)
        #expect(bad.parseError?.token == "$MIN")
        #expect(throws: FetchPredicateError.self) { try bad.evaluate(with: [:] as [String: Any]) }
        let date = Date(timeIntervalSinceReferenceDate: 10)
        let dated = FetchPredicate(format: "d > $D").withSubstitutionVariables(["D": date])
        #expect(dated.predicateFormat == #"d > CAST(10.0, "NSDate")"#)
        #expect(try FetchPredicate(parsing: dated.predicateFormat) == dated)
    }

    @Test func everyArgumentTypeRoundTrips() throws {
        let id = ManagedObjectID(storeIdentifier: "S", entityName: "Tag", primaryKey: 4)
        let arguments: [Any?] = [
            "s\"q\\", 5, -2.5, true, Decimal(string: "-3.25")!, Date(timeIntervalSinceReferenceDate: -1.5),
            Data([0, 255]), UUID(), URL(string: "https://example.com/a?b=c")!, nil, [1, [2, "x"]], id,
            Double.infinity, 1e-300, Int64.min,
        ]
        for argument in arguments {
            let predicate = FetchPredicate(format: "x == %@", argument)
            let again = try FetchPredicate(parsing: predicate.predicateFormat)
            #expect(again == predicate, "\(predicate.predicateFormat)")
        }
    }
}
