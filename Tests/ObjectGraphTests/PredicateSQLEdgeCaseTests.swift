import Foundation
import Testing

@testable import ObjectGraph
import ObjectGraphPostgres

/// The corners where a database's own semantics differ from the evaluator's, on every store:
/// full case folding (`İ`, `ı`, final `σ`, `ﬁ`, `ß`), integers against doubles beyond 2^53
/// and at the ends of Int64 (NaN and infinite constants too), `MATCHES` with ICU-only syntax,
/// and the localized sorts. Each case states the objects it gives; `fetch`, `count(for:)` and
/// `evaluate(with:)` must all give them.
@Suite("Predicate SQL edge cases")
struct PredicateSQLEdgeCaseTests {
    typealias Expect = PredicateSQLRegressionTests

    /// Photos by unique, with a title, views and rating.
    struct Seed: Sendable {
        var unique: String
        var title: String?
        var views: Int64 = 0
        var rating: Double = 0
    }

    static func stack(_ kind: StoreKind, _ photos: [Seed]) throws -> TestStack {
        let stack = try TestStack(kind)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for seed in photos {
                let photo = Photo(context: context)
                photo.unique = seed.unique
                photo.title = seed.title
                photo.views = seed.views
                photo.rating = seed.rating
            }
            try context.save()
        }
        return stack
    }

    // MARK: Case folding

    static let titles: [Seed] = [
        Seed(unique: "İstanbul", title: "İstanbul"), Seed(unique: "istanbul", title: "istanbul"),
        Seed(unique: "ı", title: "ı"), Seed(unique: "I", title: "I"),
        Seed(unique: "ΟΔΟΣ", title: "ΟΔΟΣ"), Seed(unique: "οδος", title: "οδος"),
        Seed(unique: "ﬁsh", title: "ﬁsh"), Seed(unique: "FISH", title: "FISH"),
        Seed(unique: "Straße", title: "Straße"), Seed(unique: "STRASSE", title: "STRASSE"),
        Seed(unique: "ǰ", title: "ǰ"), Seed(unique: "nil", title: nil),
    ]

    @Test("[c] folds case fully, as Foundation does", arguments: StoreKind.allCases)
    func caseFolding(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.titles)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            // İ folds to i + U+0307, so it is not "istanbul"; ı folds to itself.
            try Expect.expect(context, "title ==[c] 'istanbul'", gives: ["istanbul"])
            try Expect.expect(context, "title ==[c] 'İSTANBUL'", gives: ["İstanbul"])
            try Expect.expect(context, "title ==[c] 'i'", gives: ["I"])
            try Expect.expect(context, "title ==[c] 'ı'", gives: ["ı"])
            try Expect.expect(context, "title BEGINSWITH[c] 'i'", gives: ["İstanbul", "istanbul", "I"])
            // Final sigma folds as sigma.
            try Expect.expect(context, "title ==[c] 'οδοσ'", gives: ["ΟΔΟΣ", "οδος"])
            try Expect.expect(context, "title ENDSWITH[c] 'Σ'", gives: ["ΟΔΟΣ", "οδος"])
            // Ligatures and ß fold to several letters.
            try Expect.expect(context, "title ==[c] 'fish'", gives: ["ﬁsh", "FISH"])
            try Expect.expect(context, "title BEGINSWITH[c] 'FI'", gives: ["ﬁsh", "FISH"])
            try Expect.expect(context, "title CONTAINS[c] 'ss'", gives: ["Straße", "STRASSE"])
            try Expect.expect(context, "title ENDSWITH[c] 'ẞE'", gives: ["Straße", "STRASSE"])
            try Expect.expect(context, "title LIKE[c] 'stra?e'", gives: [])
            try Expect.expect(context, "title LIKE[c] 'stra??e'", gives: ["Straße", "STRASSE"])
            try Expect.expect(context, "title IN[c] {'strasse', 'FİSH'}", gives: ["Straße", "STRASSE"])
            // Folding then NFC: J + caron folds to j + caron, which composes to ǰ.
            try Expect.expect(context, "title ==[c] 'J\u{030C}'", gives: ["ǰ"])
            try Expect.expect(context, "title !=[c] 'fish'", gives: ["İstanbul", "istanbul", "ı", "I", "ΟΔΟΣ", "οδος", "Straße", "STRASSE", "ǰ", "nil"])
            // Diacritics and case together.
            try Expect.expect(context, "title ==[cd] 'STRASSE'", gives: ["Straße", "STRASSE"])
            try Expect.expect(context, "title ==[cd] 'fish'", gives: ["ﬁsh", "FISH"])
            try Expect.expect(context, "title ==[cd] 'j'", gives: ["ǰ"])
            // Foundation leaves dotless ı alone under [d] (`unaccent` makes it i).
            try Expect.expect(context, "title ==[cd] 'i'", gives: ["I"])
            try Expect.expect(context, "title ==[d] 'ı'", gives: ["ı"])
            try Expect.expect(context, "title >=[cd] 'ı'", gives: ["ı", "ΟΔΟΣ", "οδος"])
            try Expect.expect(context, "title BEGINSWITH[cd] 'ISTAN'", gives: ["İstanbul", "istanbul"])
        }
    }

    @Test("caseInsensitiveCompare: sorts by the full case folding", arguments: StoreKind.allCases)
    func caseInsensitiveSort(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.titles.filter { ["ﬁsh", "FISH", "Straße", "STRASSE", "ΟΔΟΣ", "οδος", "I", "ı"].contains($0.unique) })
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            // Folded: fish, fish, strasse, strasse, οδοσ, οδοσ, i, ı — ties by insertion.
            try Expect.expect(
                context,
                "TRUEPREDICATE",
                sortedBy: [FetchSortDescriptor(key: "title", ascending: true, selector: .caseInsensitiveCompare)],
                gives: ["ﬁsh", "FISH", "I", "Straße", "STRASSE", "ı", "ΟΔΟΣ", "οδος"]
            )
            try Expect.expect(
                context,
                "title BEGINSWITH[c] 'S' OR title BEGINSWITH[c] 'F'",
                sortedBy: [FetchSortDescriptor(key: "title", ascending: false, selector: .caseInsensitiveCompare)],
                gives: ["Straße", "STRASSE", "ﬁsh", "FISH"]
            )
        }
    }

    // MARK: Integers against doubles

    /// Views against ratings: `views` compares with `rating` as the comment says, exactly.
    static let numbers: [Seed] = [
        Seed(unique: "a", views: 9_007_199_254_740_993, rating: 9_007_199_254_740_992.0),  // >
        Seed(unique: "b", views: .max, rating: 9.223372036854775807e18),  // < (the double is 2^63)
        Seed(unique: "c", views: 5, rating: 5.0),  // ==
        Seed(unique: "d", views: 0, rating: 0.5),  // <
        Seed(unique: "e", views: -1, rating: -1.5),  // >
        Seed(unique: "f", views: .min, rating: -9.3e18),  // >
        Seed(unique: "g", views: 9_007_199_254_740_992, rating: 9_007_199_254_740_994.0),  // <
        Seed(unique: "h", views: -9_007_199_254_740_993, rating: -9_007_199_254_740_992.0),  // <
    ]

    static let all = ["a", "b", "c", "d", "e", "f", "g", "h"]

    @Test("an integer column against double constants compares exactly", arguments: StoreKind.allCases)
    func integerColumnDoubleConstants(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.numbers)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            try Expect.expect(context, "views == 9007199254740992.0", gives: ["g"])
            try Expect.expect(context, "views > 9007199254740992.0", gives: ["a", "b"])
            try Expect.expect(context, "views >= 9007199254740992.0", gives: ["a", "b", "g"])
            try Expect.expect(context, "views < -9007199254740992.0", gives: ["f", "h"])
            // 2^63 - 1 against the double 9.223372036854775807e18, which is 2^63.
            try Expect.expect(context, "views < 9.223372036854775807e18", gives: Self.all)
            try Expect.expect(context, "views == 9.223372036854775807e18", gives: [])
            try Expect.expect(context, "views != 9.223372036854775807e18", gives: Self.all)
            try Expect.expect(context, "views > 9.2233720368547748e18", gives: ["b"])
            try Expect.expect(context, "views > -9.3e18", gives: Self.all)
            try Expect.expect(context, "views < -9.3e18", gives: [])
            try Expect.expect(context, "views <= -9.223372036854775808e18", gives: ["f"])
            // Fractions between integers.
            try Expect.expect(context, "views < 0.5", gives: ["d", "e", "f", "h"])
            try Expect.expect(context, "views > -0.5", gives: ["a", "b", "c", "d", "g"])
            try Expect.expect(context, "views == 0.5", gives: [])
            try Expect.expect(context, "views != 0.5", gives: Self.all)
            try Expect.expect(context, "views IN {9007199254740992.0, 5.0, 0.5, 9.223372036854775807e18}", gives: ["c", "g"])
            try Expect.expect(context, "views BETWEEN {-1.5, 5.5}", gives: ["c", "d", "e"])
            try Expect.expect(context, "views BETWEEN {9007199254740992.0, 9.3e18}", gives: ["a", "b", "g"])
            try Expect.expect(context, "NOT (views > 9007199254740992.0)", gives: ["c", "d", "e", "f", "g", "h"])
            // A constant on the left, and two constants.
            try Expect.expect(context, "9007199254740992.0 < views", gives: ["a", "b"])
            try Expect.expect(context, "9007199254740993 == 9007199254740992.0", gives: [])
        }
    }

    @Test("NaN and infinite constants compare as the evaluator compares them", arguments: StoreKind.allCases)
    func nanAndInfinity(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.numbers)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            for key in ["views", "rating"] {
                try Expect.expect(context, "\(key) == %@", Double.nan, gives: [])
                try Expect.expect(context, "\(key) != %@", Double.nan, gives: Self.all)
                try Expect.expect(context, "\(key) < %@", Double.nan, gives: [])
                try Expect.expect(context, "\(key) >= %@", Double.nan, gives: [])
                try Expect.expect(context, "\(key) IN %@", [Double.nan, 5.0], gives: ["c"])
                try Expect.expect(context, "\(key) < %@", Double.infinity, gives: Self.all)
                try Expect.expect(context, "\(key) > %@", -Double.infinity, gives: Self.all)
                try Expect.expect(context, "\(key) == %@", Double.infinity, gives: [])
                try Expect.expect(context, "\(key) > %@", Double.infinity, gives: [])
            }
        }
    }

    @Test("a double column against integer constants compares exactly", arguments: StoreKind.allCases)
    func doubleColumnIntegerConstants(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.numbers)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            try Expect.expect(context, "rating == 9007199254740993", gives: [])
            try Expect.expect(context, "rating != 9007199254740993", gives: Self.all)
            try Expect.expect(context, "rating < 9007199254740993", gives: ["a", "c", "d", "e", "f", "h"])
            try Expect.expect(context, "rating > 9007199254740993", gives: ["b", "g"])
            try Expect.expect(context, "rating == 9007199254740994", gives: ["g"])
            try Expect.expect(context, "rating > 9223372036854775807", gives: ["b"])
            try Expect.expect(context, "rating == 9223372036854775807", gives: [])
            try Expect.expect(context, "rating < -9223372036854775807", gives: ["f"])
            try Expect.expect(context, "rating IN {9007199254740993, 5}", gives: ["c"])
            try Expect.expect(context, "rating BETWEEN {-1, 9007199254740993}", gives: ["a", "c", "d"])
        }
    }

    @Test("an integer column against a double column compares exactly", arguments: StoreKind.allCases)
    func integerAgainstDoubleColumn(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.numbers)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            try Expect.expect(context, "views == rating", gives: ["c"])
            try Expect.expect(context, "views != rating", gives: ["a", "b", "d", "e", "f", "g", "h"])
            try Expect.expect(context, "views < rating", gives: ["b", "d", "g", "h"])
            try Expect.expect(context, "views <= rating", gives: ["b", "c", "d", "g", "h"])
            try Expect.expect(context, "views > rating", gives: ["a", "e", "f"])
            try Expect.expect(context, "rating < views", gives: ["a", "e", "f"])
            try Expect.expect(context, "rating >= views", gives: ["b", "c", "d", "g", "h"])
            try Expect.expect(context, "NOT (views < rating)", gives: ["a", "c", "e", "f"])
        }
    }

    // MARK: MATCHES

    static let words: [Seed] = [
        Seed(unique: "hello", title: "hello"), Seed(unique: "Hello", title: "Hello"), Seed(unique: "héllo", title: "héllo"),
        Seed(unique: "a.b", title: "a.b"), Seed(unique: "abc", title: "abc"), Seed(unique: "ABC", title: "ABC"),
        Seed(unique: "x1", title: "x1"), Seed(unique: "ß", title: "ß"), Seed(unique: "break", title: "line\nbreak"),
    ]

    @Test("MATCHES is ICU's on every store: ICU-only syntax is matched in memory", arguments: StoreKind.allCases)
    func matches(kind: StoreKind) throws {
        let stack = try Self.stack(kind, Self.words)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            try Expect.load(context)
            // Written alike in both: these run on the server.
            try Expect.expect(context, "title MATCHES 'h.llo'", gives: ["hello", "héllo"])
            try Expect.expect(context, "title MATCHES 'a\\\\.b'", gives: ["a.b"])
            try Expect.expect(context, "title MATCHES '[a-c]+'", gives: ["abc"])
            try Expect.expect(context, "title MATCHES '[^a-z]+'", gives: ["ABC", "ß"])
            try Expect.expect(context, "title MATCHES '(h|H)(e|é)llo|x1'", gives: ["hello", "Hello", "héllo", "x1"])
            // ICU's `.` matches no line break.
            try Expect.expect(context, "title MATCHES 'line.break'", gives: [])
            try Expect.expect(context, "title MATCHES '.*'", gives: ["hello", "Hello", "héllo", "a.b", "abc", "ABC", "x1", "ß"])
            // ICU only.
            try Expect.expect(context, "title MATCHES '(?i)h.*'", gives: ["hello", "Hello", "héllo"])
            try Expect.expect(context, "title MATCHES '\\\\p{Lu}.*'", gives: ["Hello", "ABC"])
            try Expect.expect(context, "title MATCHES 'x\\\\d'", gives: ["x1"])
            try Expect.expect(context, "title MATCHES 'line\\\\sbreak'", gives: ["break"])
            try Expect.expect(context, "title MATCHES '[a-c]{3}'", gives: ["abc"])
            try Expect.expect(context, "title MATCHES 'abc$'", gives: ["abc"])
            try Expect.expect(context, "title MATCHES[c] 'HELLO'", gives: ["hello", "Hello"])
            try Expect.expect(context, "title MATCHES unique", gives: ["hello", "Hello", "héllo", "a.b", "abc", "ABC", "x1", "ß"])
        }
    }

    /// Whether the store answers `format` on Photo with SQL (it throws for what it leaves to
    /// the context to evaluate in memory).
    static func compilesToSQL(_ context: ManagedObjectContext, _ format: String) throws -> Bool {
        let predicate = try FetchPredicate(parsing: format, argumentArray: [])
        let descriptor = FetchDescriptor(
            entity: "Photo",
            predicate: predicate.node,
            sortDescriptors: [],
            fetchLimit: 0,
            fetchOffset: 0,
            includesSubentities: true
        )
        do {
            _ = try context.store().count(matching: descriptor)
            return true
        } catch {
            return false
        }
    }

    @Test("PostgreSQL answers folding, numbers and MATCHES it reads as ICU in SQL, the rest in memory")
    func postgreSQLRunsOnTheServer() throws {
        let stack = try Self.stack(.postgreSQL, Self.words)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for format in [
                "title ==[c] 'STRASSE'", "title BEGINSWITH[cd] 'İ'", "title LIKE[c] 'ﬁ*'", "views == 9007199254740992.0",
                "views < 0.5", "rating > 9007199254740993", "views < rating", "title MATCHES 'h.llo'", "title MATCHES '[^a-z]+|x'",
            ] {
                let compiled = try Self.compilesToSQL(context, format)
                #expect(compiled, "\(format) runs on the server")
            }
            for format in ["title MATCHES '(?i)h.*'", "title MATCHES '\\\\w+'", "title MATCHES[c] 'h.*'", "title MATCHES unique", "title MATCHES 'a$'"] {
                let compiled = try Self.compilesToSQL(context, format)
                #expect(!compiled, "\(format) is evaluated in memory")
            }
        }
    }

    @Test(
        "MATCHES patterns PostgreSQL reads as ICU does are translated; others are not",
        arguments: [
            ("h.*", "h[^\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029}]*"), ("a\\.b", "a\\.b"), ("[a-z]+", "[a-z]+"), ("[^a]*", "[^a]*"),
            ("(a|b)?c", "(a|b)?c"), ("", ""), ("ß|😀", "ß|😀"), ("(?i)h.*", nil), ("\\p{L}+", nil), ("\\w+", nil), ("\\d", nil),
            ("a$", nil), ("^a", nil), ("a{2}", nil), ("a*?", nil), ("a*+", nil), ("[[a]]", nil), ("[a-]", nil), ("[\\w]", nil),
            ("[[:alpha:]]", nil), ("[]a]", nil), ("[z-a]", nil), ("\\Qa\\E", nil),
        ] as [(String, String?)]
    )
    func regularExpressionTranslation(pattern: String, expected: String?) {
        #expect(PostgreSQLDialect.regularExpression(pattern) == expected)
    }

    // MARK: Localized sorts

    static let names: [Seed] = [
        Seed(unique: "p10", title: "Photo 10"), Seed(unique: "p9", title: "photo 9"), Seed(unique: "äpfel", title: "Äpfel"),
        Seed(unique: "apple", title: "apple"), Seed(unique: "Zebra", title: "Zebra"), Seed(unique: "élan", title: "élan"),
        Seed(unique: "elan", title: "elan"), Seed(unique: "ﬁsh", title: "ﬁsh"), Seed(unique: "nil", title: nil),
        Seed(unique: "straße", title: "straße"), Seed(unique: "Strasse", title: "Strasse"),
    ]

    @Test(
        "localized sorts give Foundation's order, with limits and offsets, objects, IDs and dictionaries",
        arguments: StoreKind.allCases,
        [FetchSortDescriptor.Selector.localizedCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare]
    )
    func localizedSorts(kind: StoreKind, selector: FetchSortDescriptor.Selector) throws {
        let stack = try Self.stack(kind, Self.names)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let everything = try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo"))
            for ascending in [true, false] {
                let sorts = [FetchSortDescriptor(key: "title", ascending: ascending, selector: selector)]
                let order = everything.sorted { PropertyOrder.precedes($0, $1, sorts) }.map(Expect.label)
                for (limit, offset) in [(0, 0), (3, 0), (4, 2), (0, 5)] {
                    var expected = Array(order.dropFirst(offset))
                    if limit > 0 { expected = Array(expected.prefix(limit)) }
                    let request = FetchRequest<ManagedObject>(entityName: "Photo")
                    request.sortDescriptors = sorts
                    request.fetchLimit = limit
                    request.fetchOffset = offset
                    #expect(try context.fetch(request).map(Expect.label) == expected, "objects, limit \(limit) offset \(offset)")
                    let ids = FetchRequest<ManagedObjectID>(entityName: "Photo")
                    ids.sortDescriptors = sorts
                    ids.fetchLimit = limit
                    ids.fetchOffset = offset
                    let fetchedIDs = try context.fetch(ids).map { Expect.label(context.object(with: $0)) }
                    #expect(fetchedIDs == expected, "IDs, limit \(limit) offset \(offset)")
                    let dictionaries = FetchRequest<[String: Any]>(entityName: "Photo")
                    dictionaries.resultType = .dictionaryResultType
                    dictionaries.propertiesToFetch = ["unique"]
                    dictionaries.sortDescriptors = sorts
                    dictionaries.fetchLimit = limit
                    dictionaries.fetchOffset = offset
                    #expect(try context.fetch(dictionaries).map { $0["unique"] as? String } == expected, "dictionaries, limit \(limit) offset \(offset)")
                }
                // With a predicate the server applies, and a second key.
                let request = FetchRequest<ManagedObject>(entityName: "Photo")
                request.predicate = FetchPredicate(format: "title != nil AND title BEGINSWITH[c] 's'")
                let twoKeys = sorts + [FetchSortDescriptor(key: "unique", ascending: false)]
                request.sortDescriptors = twoKeys
                let matching = try everything.filter { try request.predicate!.evaluate(with: $0) }
                let expected = matching.sorted { PropertyOrder.precedes($0, $1, twoKeys) }.map(Expect.label)
                #expect(try context.fetch(request).map(Expect.label) == expected, "filtered")
                #expect(try context.count(for: request) == expected.count, "count")
            }
        }
    }
}

/// ``PostgreSQLFolding``'s tables are Foundation's folding, scalar for scalar, and the
/// functions built from them, run by the server, fold strings as the evaluator does.
@Suite("PostgreSQL folding tables")
struct PredicateSQLCaseFoldingTests {
    @Test("the tables map every Unicode scalar as folding(options:locale:) does")
    func tablesAreFoundations() {
        var cases: [UInt32: [Unicode.Scalar]] = [:]
        for (scalar, folded) in PostgreSQLFolding.caseMappings { cases[scalar.value] = folded }
        var bases: [UInt32: Unicode.Scalar] = [:]
        for (scalar, base) in PostgreSQLFolding.diacriticMappings { bases[scalar.value] = base }
        #expect(cases.count == PostgreSQLFolding.caseMappings.count, "one case mapping per scalar")
        #expect(bases.count == PostgreSQLFolding.diacriticMappings.count, "one diacritic mapping per scalar")
        var differences: [String] = []
        // Every plane that holds characters: planes 4 to 13 are unassigned, 15 and 16 private.
        let scalars = Array(UInt32(0)...0x3FFFF) + Array(UInt32(0xE0000)...0xEFFFF)
        for value in scalars {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let string = String(Character(scalar))
            let folded = Array(string.folding(options: .caseInsensitive, locale: nil).unicodeScalars)
            if folded != (cases[value] ?? [scalar]) { differences.append("[c] " + String(value, radix: 16)) }
            let unaccented = Array(string.folding(options: .diacriticInsensitive, locale: nil).unicodeScalars)
            if unaccented != [bases[value] ?? scalar] { differences.append("[d] " + String(value, radix: 16)) }
            // A mark is removed after a letter, and only a mark is.
            let marked = Array(("a" + string).folding(options: .diacriticInsensitive, locale: nil).unicodeScalars)
            let isMark = PostgreSQLFolding.combiningMarks.contains { $0.contains(scalar) }
            if isMark != (marked == ["a"]) { differences.append("mark " + String(value, radix: 16)) }
        }
        #expect(differences.isEmpty, "scalars whose folding differs: \(differences.prefix(20))")
    }

    @Test(
        "the functions fold strings as the evaluator does",
        arguments: [
            "İstanbul", "ΟΔΟΣ οδος", "ﬁsh ﬂy", "Straße", "J\u{030C}", "ᾼ ᾳ", "ǅ", "Ω K Å", "😀 a", "e\u{0301}", "ΐ", "ŉ", "Zoë",
            "Ïmogen", "ı", "İ", "ø ł đ", "x\u{0327}\u{0301}", "a\u{0345}", "\u{0301}a", "ı\u{0307}", "한국어", "Ǖ ὒ ṩ",
        ]
    )
    func composition(text: String) throws {
        // The functions themselves, as the store creates them, run by the server (not a Swift
        // copy of them), composed as the SQL compiler composes them: diacritics, then case.
        let url = try StoreKind.newPostgresSchemaURL()
        let schema = try PostgresShell.schema(of: url)
        let functions = PostgreSQLFolding.creationSQL(schema: "\"\(schema)\"").joined(separator: ";\n")
        try PostgresShell.run("CREATE SCHEMA \"\(schema)\";\n\(functions);", in: url)
        let nfc = text.precomposedStringWithCanonicalMapping
        let argument = "convert_from(decode('\(Data(nfc.utf8).map { String(format: "%02x", $0) }.joined())', 'hex'), 'UTF8')"
        let optionSets: [ComparisonOptions] = [.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]
        let selects = optionSets.map { options -> String in
            let unmarked = options.contains(.diacriticInsensitive) ? "\(PostgreSQLFolding.diacriticFunctionName)(\(argument))" : argument
            let folded = options.contains(.caseInsensitive) ? "\(PostgreSQLFolding.caseFunctionName)(\(unmarked))" : unmarked
            return "encode(convert_to(\(folded), 'UTF8'), 'hex')"
        }
        let line = try PostgresShell.run("SELECT concat_ws(' ', \(selects.joined(separator: ", ")))", in: url)
        let rows = line.first.map { $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init) } ?? []
        #expect(rows.count == optionSets.count, "\(line)")
        for (options, row) in zip(optionSets, rows) {
            let served = String(decoding: Data(hex: row), as: UTF8.self)
            let expected = StringComparison.fold(nfc, options)
            #expect(Array(served.unicodeScalars) == Array(expected.unicodeScalars), "options \(options.rawValue): the server folds \(text) to \(served)")
        }
        try PostgresShell.run("DROP SCHEMA \"\(schema)\" CASCADE", in: url)
    }

    @Test("the functions' SQL names each mapping once, and no quote")
    func creationSQL() {
        let sql = PostgreSQLFolding.creationSQL(schema: "\"s\"")
        #expect(sql.count == 2)
        #expect(sql[0].hasPrefix("CREATE OR REPLACE FUNCTION \"s\".objectgraph_fold_case(text) RETURNS text"))
        #expect(sql[1].hasPrefix("CREATE OR REPLACE FUNCTION \"s\".objectgraph_fold_diacritics(text) RETURNS text"))
        #expect(sql.allSatisfy { $0.contains("IMMUTABLE STRICT PARALLEL SAFE") })
        let multiple = PostgreSQLFolding.caseMappings.filter { $0.1.count > 1 }.count
        #expect(sql[0].components(separatedBy: "replace(").count - 1 == multiple)
        #expect(sql[0].filter { $0 == "'" }.count == 4 + 4 * multiple)
        #expect(sql[1].filter { $0 == "'" }.count == 10)
    }
}
