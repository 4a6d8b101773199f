import Foundation
import Testing

@testable import ObjectGraph

/// Formats from Apple's Predicate Programming Guide ("Predicate Format String Syntax",
/// "Using Predicates", "Creating Predicates") and the grammar, each with its canonical
/// `predicateFormat`. Every case must also round-trip: printing then parsing again gives the
/// same tree and the same text.
@Suite("Predicate parser")
struct PredicateParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var printed: String
        var testDescription: String { format }
    }

    static func c(_ format: String, _ printed: String? = nil) -> Case {
        Case(format: format, printed: printed ?? format)
    }

    static let cases: [Case] = [
        // Guide: simple comparisons and strings.
        c(#"grade == "7""#),
        c(#"firstName like "Juan""#, #"firstName LIKE "Juan""#),
        c(#"name contains[cd] "stein""#, #"name CONTAINS[cd] "stein""#),
        c(#"(firstName like "Mei") OR (lastName like "Chen")"#, #"firstName LIKE "Mei" OR lastName LIKE "Chen""#),
        c("relativePath ENDSWITH '.java'", #"relativePath ENDSWITH ".java""#),
        c("age == 40 AND price > 67"),
        c("age > 40 AND lastName BEGINSWITH 'S'", #"age > 40 AND lastName BEGINSWITH "S""#),
        c("NOT (lastName BEGINSWITH 'S')", #"NOT lastName BEGINSWITH "S""#),
        c("firstName MATCHES 'A.*'", #"firstName MATCHES "A.*""#),
        c("name LIKE[c] '*ed*'", #"name LIKE[c] "*ed*""#),
        c("department.name like 'Engineering'", #"department.name LIKE "Engineering""#),
        c("name IN {'Milk', 'Eggs', 'Bread'}", #"name IN {"Milk", "Eggs", "Bread"}"#),
        c("1 BETWEEN {0, 33}"),
        c("expenses BETWEEN {200, 400}"),
        c("date BETWEEN {$YESTERDAY, $TOMORROW}"),
        c("employees.@count > 5"),
        c("ANY employees.firstName like 'Matthew'", #"ANY employees.firstName LIKE "Matthew""#),
        c("ALL children.age > 12"),
        c("SOME children.age > 12", "ANY children.age > 12"),
        c("NONE children.age > 12"),
        c(
            #"SUBQUERY(residents, $x, $x.firstname == "Jane" && $x.lastname == "Doe").@count != 0"#,
            #"SUBQUERY(residents, $x, $x.firstname == "Jane" AND $x.lastname == "Doe").@count != 0"#
        ),
        c("SUBQUERY(employees, $e, $e.salary > 5000).@count > 0"),
        c("expenses.@avg.doubleValue < 200"),
        c("(lastName like[cd] $LAST_NAME) AND (birthDate > $DATE)", "lastName LIKE[cd] $LAST_NAME AND birthDate > $DATE"),
        c("'name' IN $NAME_LIST", #""name" IN $NAME_LIST"#),
        c("SELF == 'abc'", #"SELF == "abc""#),
        c("SELF IN {1, 2, 3}"),
        c("TRUEPREDICATE"),
        c("FALSEPREDICATE"),
        c("truepredicate", "TRUEPREDICATE"),
        // Operators and their spellings.
        c("a = 1", "a == 1"),
        c("a => 1", "a >= 1"),
        c("a =< 1", "a <= 1"),
        c("a <> 1", "a != 1"),
        c("a < 1"),
        c("a > 1"),
        c("a != nil"),
        c("a == NULL", "a == nil"),
        c("a == YES"),
        c("a == TRUE", "a == YES"),
        c("a == false", "a == NO"),
        c("a == 1 && b == 2 || c == 3", "(a == 1 AND b == 2) OR c == 3"),
        c("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        c("NOT a == 1 AND b == 2", "NOT a == 1 AND b == 2"),
        c("!(a == 1 OR b == 2)", "NOT (a == 1 OR b == 2)"),
        c("NOT NOT a == 1"),
        c("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        c("a == 1 and b == 2 or not c == 3", "(a == 1 AND b == 2) OR NOT c == 3"),
        // Options.
        c("name BEGINSWITH[cd] 'a'", #"name BEGINSWITH[cd] "a""#),
        c("name ENDSWITH[d] 'a'", #"name ENDSWITH[d] "a""#),
        c("name ==[c] 'a'", #"name ==[c] "a""#),
        c("name !=[cd] 'a'", #"name !=[cd] "a""#),
        c("name LIKE[n] 'a'", #"name LIKE[n] "a""#),
        c("name MATCHES[dc] 'a'", #"name MATCHES[cd] "a""#),
        c("name IN[c] {'a'}", #"name IN[c] {"a"}"#),
        // Reversed comparisons and literals.
        c("5 < x"),
        c("-5 < x"),
        c("'a' IN {'a', 'b'}", #""a" IN {"a", "b"}"#),
        c("'ab' IN title", #""ab" IN title"#),
        c("x == 0x1F", "x == 31"),
        c("x == 0o17", "x == 15"),
        c("x == 0b101", "x == 5"),
        c("x == 1.5e3", "x == 1500.0"),
        c("x == 2.71828"),
        c("x == 9.2e-5", "x == 9.2e-05"),
        c("x == -0.5"),
        c("x == 9223372036854775807"),
        c("x == -9223372036854775808"),
        c("x == 18446744073709551616", "x == 1.8446744073709552e+19"),
        c(#"x == "tab\tnew\nquote\"back\\""#),
        c(#"x == 'it\'s'"#, #"x == "it's""#),
        c(#"x == "\u00e9\u0041""#, #"x == "éA""#),
        c(#"x == "e\u0301""#, #"x == "é""#),
        c(#"x == "\ud83d\ude00""#, #"x == "😀""#),
        c("x IN {}"),
        c("x IN {{1, 2}, {3}}"),
        c("x IN {a, 1}"),
        c("x IN {a.b, {c}}"),
        // Key paths.
        c("a.b.c == 1"),
        c("first_name == 'x'", #"first_name == "x""#),
        c("#IN == 1", "#IN == 1"),
        c("#self.#and == 1", "#self.#and == 1"),
        c("photo.size > 3", "photo.#size > 3"),
        c("SELF.title == 'x'", #"title == "x""#),
        c("$x.title == 'x'", #"$x.title == "x""#),
        c("Zoë == 1"),
        // Aggregates.
        c("tags.@count == 0"),
        c("tags.@sum.views > 3"),
        c("tags.views.@sum > 3", "tags.@sum.views > 3"),
        c("tags.@avg.views > 3"),
        c("tags.@min.views > 3"),
        c("tags.@max.views > 3"),
        c("@count > 3", "SELF.@count > 3"),
        c("SELF.@max > 3"),
        c("SUBQUERY(tags, $t, $t.name BEGINSWITH 'a').@count > 1", #"SUBQUERY(tags, $t, $t.name BEGINSWITH "a").@count > 1"#),
        c("ANY SUBQUERY(tags, $t, $t.views > 1).name == 'x'", #"ANY SUBQUERY(tags, $t, $t.views > 1).name == "x""#),
        c("SUBQUERY(tags, $t, SUBQUERY($t.photos, $p, $p.views > $t.views).@count > 0).@count > 0"),
        // Parentheses around expressions.
        c("(x) == 3", "x == 3"),
        c("((x)) == 3", "x == 3"),
        c("(tags).@count > 0", "tags.@count > 0"),
        c("((a == 1))", "a == 1"),
        // Unsupported constructs, parsed and kept as text; arithmetic.
        c("FUNCTION(SELF, 'reverseString') == 'abc'", #"FUNCTION(SELF, "reverseString") == "abc""#),
        c("employeeID UTI-CONFORMS-TO 'public.image'", #"employeeID UTI-CONFORMS-TO "public.image""#),
        c("employeeID uti-equals 'public.jpeg'", #"employeeID UTI-EQUALS "public.jpeg""#),
        c("ANYKEY == 'x'", #"ANYKEY == "x""#),
        c("dogs[0].age = 5", "dogs[0].age == 5"),
        c("dogs[SIZE] = 3", "dogs[SIZE] == 3"),
        c("dogs[first].age = 3", "dogs[FIRST].age == 3"),
        c("dogs[x + 1] == 3"),
        c("d['k'] == 3", #"d["k"] == 3"#),
        c("(x + 1)[SIZE] == 3"),
        c("dogs[LAST] = 3", "dogs[LAST] == 3"),
        c("x + 1 > 2"),
        c("x * 2 + 1 > 2"),
        c("(x + 1) * 2 > 2"),
        c("2 ** 3 == 8"),
        c("-x > 2"),
        c("now() > x"),
        c("name.uppercaseString() == 'A'", #"name.uppercaseString() == "A""#),
        c("tags.@distinctUnionOfObjects.name == 'x'", #"tags.@distinctUnionOfObjects.name == "x""#),
        c("CAST('2', 'NSString') == x", #"CAST("2", "NSString") == x"#),
        c("$x := 5 == 5"),
        // CAST constants print back the same way.
        c("date > CAST(721692000, 'NSDate')", #"date > CAST(721692000.0, "NSDate")"#),
        c(#"price == CAST("3.14", "NSDecimalNumber")"#),
        c(#"id == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        c(#"url == CAST("https://example.com/a", "NSURL")"#),
        c(#"blob == CAST("0aff", "NSData")"#),
        c(#"SELF == CAST("x-objectgraph://S/Photo/p7", "NSManagedObjectID")"#),
        // Case-insensitive keywords.
        c("a == 1 AnD b IN {1} oR c beginswith 'x'", #"(a == 1 AND b IN {1}) OR c BEGINSWITH "x""#),
        c("any tags.name == 'x'", #"ANY tags.name == "x""#),
        c("all tags.name == nil", "ALL tags.name == nil"),
        c("self == nil", "SELF == nil"),
    ]

    @Test("Parses and prints canonically", arguments: cases)
    func parsesAndPrints(_ testCase: Case) throws {
        let predicate = try FetchPredicate(parsing: testCase.format)
        #expect(predicate.predicateFormat == testCase.printed)
        let again = try FetchPredicate(parsing: predicate.predicateFormat)
        #expect(again == predicate)
        #expect(again.predicateFormat == predicate.predicateFormat)
    }

    @Test func tableIsLargeEnough() {
        #expect(Self.cases.count >= 80)
    }
}
