import Foundation
import ObjectGraph
import Testing

/// Arithmetic and `length` in predicates, as NSExpression computes them: evaluated on values,
/// and fetched from every store kind (in SQL, or in memory where SQL would compute otherwise).
@Suite struct PredicateArithmeticTests {
    @Test func arithmeticOnNumbers() {
        let values: [String: Any] = ["x": 3, "y": 4.5, "n": -2, "big": Int64.max, "flag": true]
        expectPredicate("x + 1 == 4", on: values, is: true)
        expectPredicate("x - 5 == -2", on: values, is: true)
        expectPredicate("x * y == 13.5", on: values, is: true)
        // Division is in floating point, as NSExpression's divide:by: (5 / 2 is 2.5, not 2).
        expectPredicate("5 / 2 == 2.5", on: values, is: true)
        expectPredicate("x / 2 == 1.5", on: values, is: true)
        expectPredicate("2 ** 10 == 1024", on: values, is: true)
        expectPredicate("x ** 0.5 > 1.73 AND x ** 0.5 < 1.74", on: values, is: true)
        // Precedence: ** before * and /, those before + and -; left to right otherwise.
        expectPredicate("1 + 2 * 3 == 7", on: values, is: true)
        expectPredicate("(1 + 2) * 3 == 9", on: values, is: true)
        expectPredicate("2 * 3 ** 2 == 18", on: values, is: true)
        expectPredicate("10 - 4 - 3 == 3", on: values, is: true)
        expectPredicate("-x == -3", on: values, is: true)
        expectPredicate("-n == 2", on: values, is: true)
        expectPredicate("-(x + 1) == -4", on: values, is: true)
        expectPredicate("x + flag == 4", on: values, is: true)
        // An integer that overflows goes on in floating point, as SQLite's does (2^63 > 2^63 - 1).
        expectPredicate("big + 1 > big", on: values, is: true)
        expectPredicate("big * 2 > 1.8e19", on: values, is: true)
        expectPredicate("x * 2 IN {6, 7}", on: values, is: true)
        expectPredicate("x + 1 BETWEEN {3, 5}", on: values, is: true)
    }

    @Test func nilAndDivisionByZeroGiveNil() {
        let values: [String: Any] = ["x": 3, "zero": 0]
        expectPredicate("missing + 1 == nil", on: values, is: true)
        expectPredicate("missing + 1 > 0", on: values, is: false)
        expectPredicate("x / zero == nil", on: values, is: true)
        expectPredicate("x / 0.0 > 0", on: values, is: false)
    }

    @Test func decimalsStayExact() {
        let values: [String: Any] = ["price": Decimal(string: "0.1")!, "count": 3]
        expectPredicate("price * count == CAST('0.3', 'NSDecimalNumber')", on: values, is: true)
        expectPredicate("price + price + price == CAST('0.3', 'NSDecimalNumber')", on: values, is: true)
        expectPredicate("price ** 2 == CAST('0.01', 'NSDecimalNumber')", on: values, is: true)
    }

    @Test func datesAreSecondsSinceTheReferenceDate() {
        let start = Date(timeIntervalSinceReferenceDate: 1_000)
        let end = Date(timeIntervalSinceReferenceDate: 4_600)
        let values: [String: Any] = ["start": start, "end": end]
        expectPredicate("start + 3600 == end", on: values, is: true)
        expectPredicate("end - 3600 == start", on: values, is: true)
        expectPredicate("3600 + start == end", on: values, is: true)
        expectPredicate("end - start == 3600", on: values, is: true)
        expectPredicate("start + 60 < %@", [end], on: values, is: true)
    }

    @Test func lengthOfStringsAndData() {
        let values: [String: Any] = ["name": "Stanford", "emoji": "a😀", "blob": Data([1, 2, 3]), "nothing": NSNull()]
        expectPredicate("name.length == 8", on: values, is: true)
        // NSString's length counts UTF-16 units: an emoji outside the BMP is two.
        expectPredicate("emoji.length == 3", on: values, is: true)
        expectPredicate("blob.length == 3", on: values, is: true)
        expectPredicate("name.length * 2 == 16", on: values, is: true)
        expectPredicate("nothing.length == nil", on: values, is: true)
    }

    @Test func whatIsNotANumberIsRefusedWithTheValues() {
        let values: [String: Any] = ["name": "Stanford", "tags": ["a", "b"], "x": 1]
        let string = predicateError("name + 1 == 2", on: values)
        #expect(string?.kind == .typeMismatch)
        #expect(string?.message.contains(#"cannot compute "Stanford" + 1: arithmetic needs numbers"#) == true)
        let collection = predicateError("tags * 2 == 2", on: values)
        #expect(collection?.kind == .typeMismatch)
        #expect(collection?.message.contains("use @sum, @avg or @count") == true)
        #expect(predicateError("x.length == 1", on: values)?.kind == .typeMismatch)
    }

    @Test func printsAsItParses() throws {
        let cases: [(String, String)] = [
            ("x + 1 > 2", "x + 1 > 2"),
            ("x * 2 + 1 > 2", "x * 2 + 1 > 2"),
            ("(x * 2) + 1 > 2", "x * 2 + 1 > 2"),
            ("x + 2 * 3 > 1", "x + 2 * 3 > 1"),
            ("(x + 2) * 3 > 1", "(x + 2) * 3 > 1"),
            ("x - (y - z) > 1", "x - (y - z) > 1"),
            ("x - y - z > 1", "x - y - z > 1"),
            ("x / (y * z) > 1", "x / (y * z) > 1"),
            ("-x > 2", "-x > 2"),
            ("-(x + 1) > 2", "-(x + 1) > 2"),
            ("-x ** 2 > 2", "-x ** 2 > 2"),
            ("2 ** 3 == 8", "2 ** 3 == 8"),
            ("tags.@count * 2 >= views", "tags.@count * 2 >= views"),
            ("name.length > 3", "name.length > 3"),
            ("(a + b).@count > 1", "(a + b).@count > 1"),
            ("(t ** ags).@co0nt > u", "(t ** ags).@co0nt > u"),
        ]
        for (format, printed) in cases {
            let predicate = try FetchPredicate(parsing: format)
            #expect(predicate.predicateFormat == printed, "\(format)")
            #expect(try FetchPredicate(parsing: predicate.predicateFormat) == predicate, "\(format)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func fetchesWithArithmeticFromEveryStore(_ kind: StoreKind) throws {
        let stack = try LibraryModel.stack(kind)
        let context = stack.container.newBackgroundContext()
        let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let titles: [String] = try context.performAndWait {
            for (title, year, price, chapters) in [("Dune", 1965, 9.0, 3), ("Emma", 1815, 4.5, 1), ("Ulysses", 1922, 12.0, 2)] {
                let book = try LibraryModel.insert(
                    "Book",
                    ["title": title, "year": Int64(year), "price": price, "published": reference.addingTimeInterval(Double(year))],
                    in: context
                )
                for index in 0..<chapters {
                    let chapter = try LibraryModel.insert("Chapter", ["title": "\(title) \(index)"], in: context)
                    book.mutableOrderedSetValue(forKey: "chapters").add(chapter)
                }
            }
            try context.save()
            // An unsaved change counts too: the fetch sees pending changes.
            let emmas = FetchRequest<ManagedObject>(entityName: "Book")
            emmas.predicate = FetchPredicate(format: "title == 'Emma'")
            try context.fetch(emmas).first?.setCheckedValue(Int64(1816), forKey: "year")

            func fetch(_ format: String, _ arguments: Any...) throws -> [String] {
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = FetchPredicate(format: format, argumentArray: arguments)
                request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
                return try context.fetch(request).map { $0.value(forKey: "title") as! String }
            }
            #expect(try fetch("year + 50 > 1970") == ["Dune", "Ulysses"])
            #expect(try fetch("year - 1816 == 0") == ["Emma"])
            #expect(try fetch("price * 2 >= 18") == ["Dune", "Ulysses"])
            #expect(try fetch("price / 3 == 1.5") == ["Emma"])
            #expect(try fetch("chapters.@count * 10 >= 20") == ["Dune", "Ulysses"])
            #expect(try fetch("title.length == 4") == ["Dune", "Emma"])
            #expect(try fetch("published - 1922 == %@", reference) == ["Ulysses"])
            return try fetch("-year < -1900 AND NOT title BEGINSWITH 'U'")
        }
        #expect(titles == ["Dune"])
    }
}
