import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

/// `#Predicate`s as a SwiftData app writes them: what each becomes in the store, and that the
/// results are those of evaluating the predicate in Swift.
@Suite("ObjectGraphData #Predicate translation")
struct PredicateTranslationTests {
    let context: ModelContext

    init() throws {
        context = ModelContext(try makeContainer())
        try PhotoFixtures.insert(into: context, count: 30, seed: 7)
    }

    /// The store's part of `predicate` and the parts left in memory.
    func translation(_ predicate: Predicate<Photo>) -> PredicateTranslation {
        context.translation(of: FetchDescriptor(predicate: predicate))
    }

    /// Fetches with `predicate` and checks the result against Swift's own evaluation.
    func checkAgainstMemory(_ predicate: Predicate<Photo>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let all = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)]))
        let expected = try all.filter { try predicate.evaluate($0) }.map(\.title)
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(fetched == expected, "\(translation(predicate))", sourceLocation: sourceLocation)
    }

    @Test("Comparisons, logic, strings and optionals compile to the store's predicate")
    func translated() throws {
        // Each with the store predicate it becomes (ObjectGraph then compiles that to SQL).
        let same = ComparisonResult.orderedSame
        let cases: [(Predicate<Photo>, String)] = [
            (#Predicate { $0.views > 10 && $0.title.starts(with: "H") }, "(views > 10) AND (title BEGINSWITH \"H\")"),
            (#Predicate { $0.views == 3 || !($0.isFavorite) }, "((views == 3) OR (NOT (isFavorite == YES)))"),
            (#Predicate { $0.title.contains("ow") }, "(title CONTAINS \"ow\")"),
            (#Predicate { $0.title.localizedStandardContains("hoo") }, "(title CONTAINS[cd] \"hoo\")"),
            (#Predicate { $0.caption == nil }, "(caption == nil)"),
            (#Predicate { $0.rating != nil && $0.rating! > 2 }, "(rating != nil) AND (rating > 2)"),
            (#Predicate { $0.place?.name == "Quad" }, "(place.name == \"Quad\")"),
            (#Predicate { $0.tags.contains { $0.name == "tower" } }, "SUBQUERY(tags, $v1, ($v1.name == \"tower\")).@count > 0"),
            (#Predicate { $0.tags.allSatisfy { $0.uses > 1 } }, "SUBQUERY(tags, $v1, NOT (($v1.uses > 1))).@count == 0"),
            (#Predicate { $0.tags.count >= 2 }, "(tags.@count >= 2)"),
            (#Predicate { $0.tags.isEmpty }, "(tags.@count == 0)"),
            (#Predicate { $0.tags.filter { $0.uses > 3 }.count == 1 }, "(SUBQUERY(tags, $v1, ($v1.uses > 3)).@count == 1)"),
            (#Predicate { ["Quad", "Oval"].contains($0.title) }, "(title IN {\"Quad\", \"Oval\"})"),
            (#Predicate { $0.title.caseInsensitiveCompare("QUAD 3") == same }, "(title ==[c] \"QUAD 3\")"),
            (#Predicate { $0.title.caseInsensitiveCompare("hoop 2") != same }, "(title !=[c] \"hoop 2\")"),
        ]
        for (predicate, format) in cases {
            let result = translation(predicate)
            #expect(result.isFullyTranslated, "\(result)")
            #expect(result.storePredicate != nil)
            let actual = (result.storePredicate?.predicateFormat ?? "").uppercased()
            for keyword in ["BEGINSWITH", "CONTAINS[CD]", "CONTAINS", "SUBQUERY", "@COUNT", " IN ", "NOT", " OR ", "NIL", "PLACE.NAME", "==[C]", "!=[C]"]
            where format.uppercased().contains(keyword) {
                #expect(actual.contains(keyword), "\(keyword) missing from \(actual)")
            }
            try checkAgainstMemory(predicate)
        }
    }

    @Test("?? and ?: distribute over the comparison that uses them")
    func conditionals() throws {
        let coalesce = #Predicate<Photo> { ($0.caption ?? "none") == "none" }
        #expect(translation(coalesce).isFullyTranslated)
        try checkAgainstMemory(coalesce)
        let ternary = #Predicate<Photo> { ($0.isFavorite ? $0.views : 0) > 5 }
        #expect(translation(ternary).isFullyTranslated)
        try checkAgainstMemory(ternary)
    }

    @Test("+, - and * compile to SQL; / and % stay in memory")
    func arithmetic() throws {
        let sums = #Predicate<Photo> { $0.views * 2 + 1 > 9 && $0.views - 3 < 5 }
        let result = translation(sums)
        #expect(result.isFullyTranslated)
        #expect(result.storePredicate?.predicateFormat == "views * 2 + 1 > 9 AND views - 3 < 5")
        try checkAgainstMemory(sums)
        let halves = #Predicate<Photo> { $0.views / 2 == 3 }
        #expect(!translation(halves).isFullyTranslated)
        try checkAgainstMemory(halves)
    }

    @Test("What has no SQL form is evaluated in memory, and says so")
    func inMemory() throws {
        let arithmetic = #Predicate<Photo> { $0.views % 2 == 0 && $0.views > 4 }
        let result = translation(arithmetic)
        #expect(!result.isFullyTranslated)
        #expect(result.storePredicate?.predicateFormat.contains("views > 4") == true)
        #expect(result.inMemory.count == 1)
        try checkAgainstMemory(arithmetic)

        // An enum with raw values is stored as its raw value, and compared as one.
        let video = Photo.Kind.video
        let enumeration = #Predicate<Photo> { $0.kind == video }
        #expect(translation(enumeration).storePredicate?.predicateFormat == "kind == \"video\"")
        try checkAgainstMemory(enumeration)
    }

    @Test("The SQL log names a fetch evaluated in memory")
    func sqlLog() throws {
        let log = StatementLog()
        var configuration = ModelConfiguration(url: TestFiles.url("log.store"))
        configuration.sqlStatementObserver = { log.append($0) }
        let context = ModelContext(try makeContainer(configuration))
        context.insert(Photo(title: "Quad", views: 6))
        try context.save()
        _ = try context.fetch(FetchDescriptor<Photo>(predicate: #Predicate { $0.views % 2 == 0 }))
        let notes = { log.lines.filter { $0.hasPrefix("-- ObjectGraphData: Photo fetch evaluated in memory") } }
        #expect(notes().count == 1)
        _ = try context.fetch(FetchDescriptor<Photo>(predicate: #Predicate { $0.views > 2 }))
        #expect(notes().count == 1)
        #expect(log.lines.contains { $0.contains("SELECT") && $0.contains("ZVIEWS") })
    }

    @Test("caseInsensitiveCompare == .orderedSame matches in the store as in Swift, accents and ß included")
    func caseInsensitiveCompare() throws {
        let context = ModelContext(try makeContainer())
        try CaseFixtures.check(in: context)
    }

    @Test("Sorting with .localizedStandard orders numbers by value, ignoring case")
    func localizedStandardSort() throws {
        let context = ModelContext(try makeContainer())
        for title in ["Photo 10", "photo 9", "Photo 100", "apple"] { context.insert(Photo(title: title)) }
        try context.save()
        let sorted = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title, comparator: .localizedStandard)]))
        #expect(sorted.map(\.title) == ["apple", "photo 9", "Photo 10", "Photo 100"])
        let reversed = try context.fetch(
            FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title, comparator: .localizedStandard, order: .reverse)])
        )
        #expect(reversed.map(\.title) == ["Photo 100", "Photo 10", "photo 9", "apple"])
    }

    @Test("Generated predicates: translated fetch equals evaluation in Swift (SQLite)", arguments: 0..<4)
    func differentialSQLite(seed: UInt64) throws {
        var generator = PredicateGenerator(seed: seed)
        for _ in 0..<60 { try checkAgainstMemory(generator.predicate()) }
    }
}

/// Lines an SQL statement observer received.
final class StatementLog: @unchecked Sendable {
    // @unchecked Sendable: guarded by its lock.
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}

/// Titles that differ only by case, accents or `ß`, and the case-insensitive comparisons of them.
enum CaseFixtures {
    static let titles = ["Café", "CAFÉ", "cafe", "Straße", "STRASSE", "strasse", "Quad", "quad", "QUAD"]

    /// Saves the titles, then checks that each `caseInsensitiveCompare` fetch returns what
    /// Swift's own evaluation of the predicate does, and that it ran in the store.
    static func check(in context: ModelContext, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for title in titles { context.insert(Photo(title: title)) }
        try context.save()
        let all = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)]))
        for probe in ["café", "CAFE", "strasse", "STRASSE", "Straße", "qUAD"] {
            let same = ComparisonResult.orderedSame
            let predicate = #Predicate<Photo> { $0.title.caseInsensitiveCompare(probe) == same }
            let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])
            #expect(context.translation(of: descriptor).isFullyTranslated, sourceLocation: sourceLocation)
            let expected = try all.filter { try predicate.evaluate($0) }.map(\.title)
            #expect(try context.fetch(descriptor).map(\.title) == expected, "\(probe)", sourceLocation: sourceLocation)
            #expect(!expected.isEmpty, "\(probe)", sourceLocation: sourceLocation)
        }
    }
}
