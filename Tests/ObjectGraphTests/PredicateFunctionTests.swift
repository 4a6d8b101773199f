import Foundation
import ObjectGraph
import Testing

/// NSExpression's built-in functions in predicate format strings (`now()`, `abs:(x)`,
/// `sum:({…})`, `modulus:by:(a, b)`), as its documentation defines them: parsed, printed back,
/// evaluated on values, and fetched from every store kind.
@Suite struct PredicateFunctionTests {
    @Test func statisticsOverCollections() {
        let values: [String: Any] = ["scores": [4, 1, 7, 1], "prices": [2.5, 3.5], "empty": [Int](), "x": 5]
        expectPredicate("sum:(scores) == 13", on: values, is: true)
        expectPredicate("count:(scores) == 4", on: values, is: true)
        expectPredicate("min:(scores) == 1 AND max:(scores) == 7", on: values, is: true)
        expectPredicate("average:(prices) == 3", on: values, is: true)
        expectPredicate("sum:({1, 2, 3}) == 6", on: values, is: true)
        // The median of an even count is the mean of the two middle numbers.
        expectPredicate("median:(scores) == 2.5", on: values, is: true)
        expectPredicate("median:({3, 1, 2}) == 2", on: values, is: true)
        expectPredicate("mode:(scores) == {1}", on: values, is: true)
        expectPredicate("sum:(empty) == 0 AND count:(empty) == 0", on: values, is: true)
        expectPredicate("max:(empty) == nil AND median:(empty) == nil", on: values, is: true)
        // A single value is a collection of one.
        expectPredicate("sum:(x) == 5", on: values, is: true)
    }

    @Test func arithmeticFunctionsAreArithmetic() throws {
        let values: [String: Any] = ["x": 7, "y": 2, "d": -7.5]
        expectPredicate("add:to:(x, y) == 9", on: values, is: true)
        expectPredicate("from:subtract:(x, y) == 5", on: values, is: true)
        expectPredicate("multiply:by:(x, y) == 14", on: values, is: true)
        expectPredicate("divide:by:(x, y) == 3.5", on: values, is: true)
        expectPredicate("raise:toPower:(y, 10) == 1024", on: values, is: true)
        // NSExpression prints them as operators, and so do we.
        #expect(try FetchPredicate(parsing: "add:to:(x, multiply:by:(y, 3)) > 1").predicateFormat == "x + y * 3 > 1")
    }

    @Test func numericFunctions() {
        let values: [String: Any] = ["x": 7, "y": 2, "n": -7, "d": -7.5, "zero": 0, "big": Int64.min, "price": Decimal(string: "-2.25")!]
        // The remainder takes the dividend's sign, as C's % and fmod do.
        expectPredicate("modulus:by:(x, y) == 1", on: values, is: true)
        expectPredicate("modulus:by:(n, y) == -1", on: values, is: true)
        expectPredicate("modulus:by:(d, 2) == -1.5", on: values, is: true)
        expectPredicate("modulus:by:(x, zero) == nil", on: values, is: true)
        expectPredicate("abs:(n) == 7 AND abs:(d) == 7.5", on: values, is: true)
        expectPredicate("abs:(big) > 9.2e18", on: values, is: true)
        expectPredicate("abs:(price) == CAST('2.25', 'NSDecimalNumber')", on: values, is: true)
        expectPredicate("ceiling:(d) == -7 AND floor:(d) == -8 AND trunc:(d) == -7", on: values, is: true)
        expectPredicate("floor:(price) == -3 AND ceiling:(price) == -2 AND trunc:(price) == -2", on: values, is: true)
        expectPredicate("sqrt:(16) == 4 AND log:(1000) == 3 AND ln:(1) == 0 AND exp:(0) == 1", on: values, is: true)
        // Not a number: nil, as SQL has it (NSExpression gives NaN, which equals nothing).
        expectPredicate("sqrt:(n) == nil", on: values, is: true)
        expectPredicate("bitwiseAnd:with:(12, 10) == 8 AND bitwiseOr:with:(12, 10) == 14", on: values, is: true)
        expectPredicate("bitwiseXor:with:(12, 10) == 6 AND onesComplement:(0) == -1", on: values, is: true)
        expectPredicate("leftshift:by:(1, 4) == 16 AND rightshift:by:(n, 1) == -4", on: values, is: true)
        expectPredicate("noindex:(x) == 7", on: values, is: true)
        expectPredicate("abs:(missing) == nil AND modulus:by:(missing, 2) == nil", on: values, is: true)
    }

    @Test func stringsAndTime() {
        let values: [String: Any] = [
            "name": "Straße", "city": "ÉCOLE", "past": Date(timeIntervalSinceNow: -60), "future": Date(timeIntervalSinceNow: 3600),
        ]
        expectPredicate("uppercase:(name) == 'STRASSE'", on: values, is: true)
        expectPredicate("lowercase:(city) == 'école'", on: values, is: true)
        expectPredicate("uppercase:(missing) == nil", on: values, is: true)
        expectPredicate("past < now() AND future > now()", on: values, is: true)
        expectPredicate("now() - past >= 60", on: values, is: true)
        expectPredicate("random() >= 0 AND random() < 1", on: values, is: true)
        expectPredicate("random:({4, 4}) == 4", on: values, is: true)
    }

    @Test func oneArgumentFunctionsMayOmitTheirColon() throws {
        let values: [String: Any] = ["n": -3, "scores": [1, 2]]
        expectPredicate("abs(n) == 3", on: values, is: true)
        expectPredicate("sum(scores) == 3", on: values, is: true)
        #expect(try FetchPredicate(parsing: "abs(n) == 3").predicateFormat == "abs:(n) == 3")
    }

    @Test func printsAsItParses() throws {
        let cases: [(String, String)] = [
            ("date < now()", "date < now()"),
            ("abs:(balance) > 10", "abs:(balance) > 10"),
            ("sum:({1, 2, 3}) == 6", "sum:({1, 2, 3}) == 6"),
            ("modulus:by:(count, 2) == 0", "modulus:by:(count, 2) == 0"),
            ("uppercase:(name) BEGINSWITH[c] 'A'", "uppercase:(name) BEGINSWITH[c] \"A\""),
            ("abs:(x - y) * 2 < 4", "abs:(x - y) * 2 < 4"),
            ("count:(tags) == tags.@count", "count:(tags) == tags.@count"),
            ("stddev:(scores) > 1", "stddev:(scores) > 1"),
        ]
        for (format, printed) in cases {
            let predicate = try FetchPredicate(parsing: format)
            #expect(predicate.predicateFormat == printed, "\(format)")
            #expect(try FetchPredicate(parsing: predicate.predicateFormat) == predicate, "\(format)")
        }
    }

    @Test func mistakesAreNamedWhereTheyAre() throws {
        let arity = try #require(parseError("modulus:by:(x) == 1"))
        #expect(arity.message.contains("Wrong number of arguments to 'modulus:by:'"))
        #expect(arity.message.contains("it takes 2, not 1"))
        #expect(arity.position == 0)
        let noCall = try #require(parseError("x == abs:"))
        #expect(noCall.message.contains("expected '(' and the arguments of the function 'abs:'"))
        let unclosed = try #require(parseError("abs:(x == 1"))
        #expect(unclosed.message.contains("to close the arguments of 'abs:'"))
        // A function NSExpression has but this library does not compute is refused where it
        // is evaluated, naming it.
        let stddev = predicateError("stddev:(scores) > 1", on: ["scores": [1, 2]])
        #expect(stddev?.kind == .unsupported)
        #expect(stddev?.message.contains("stddev:(scores)") == true)
        let string = predicateError("abs:(name) == 1", on: ["name": "Stanford"])
        #expect(string?.kind == .typeMismatch)
        #expect(string?.message.contains(#"abs: needs a number, not "Stanford""#) == true)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchesWithFunctionsFromEveryStore(_ kind: StoreKind) throws {
        let stack = try LibraryModel.stack(kind)
        let context = stack.container.newBackgroundContext()
        let titles: [String] = try context.performAndWait {
            let now = Date()
            for (title, year, price, days) in [("Dune", 1965, -9.0, -3.0), ("Emma", 1815, 4.5, 2.0), ("Ulysses", 1922, 12.25, -1.0)] {
                _ = try LibraryModel.insert(
                    "Book",
                    ["title": title, "year": Int64(year), "price": price, "published": now.addingTimeInterval(days * 86_400)],
                    in: context
                )
            }
            try context.save()
            func fetch(_ format: String) throws -> [String] {
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = FetchPredicate(format: format)
                request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
                return try context.fetch(request).map { $0.value(forKey: "title") as! String }
            }
            #expect(try fetch("published < now()") == ["Dune", "Ulysses"])
            #expect(try fetch("published > now() - 2 * 86400") == ["Emma", "Ulysses"])
            #expect(try fetch("abs:(price) > 9") == ["Ulysses"])
            #expect(try fetch("modulus:by:(year, 5) == 0") == ["Dune", "Emma"])
            #expect(try fetch("floor:(price) == 12") == ["Ulysses"])
            #expect(try fetch("uppercase:(title) BEGINSWITH 'E'") == ["Emma"])
            return try fetch("add:to:(year, 100) > 2000 AND lowercase:(title) CONTAINS 'u'")
        }
        #expect(titles == ["Dune", "Ulysses"])
    }
}

/// The parse error of `format`, if it has one.
private func parseError(_ format: String) -> FetchPredicateError? {
    do {
        _ = try FetchPredicate(parsing: format)
        return nil
    } catch let error as FetchPredicateError {
        return error
    } catch {
        return nil
    }
}
