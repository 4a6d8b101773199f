import Foundation
import Testing

@testable import ObjectGraph

/// NSPredicate's documented semantics, row by row, through the store: each row's predicate
/// is evaluated in memory with `evaluate(with:)` and fetched through SQL (a context with no
/// pending changes, so the SQL path answers), and both must give the documented objects.
///
/// The fixture (dates are `D0`, `D1 = D0 + 1 day`, `D2 = D0 + 2 days`):
///
/// | photo | title | subtitle | views | rating | uploaded | tags | photographer |
/// | --- | --- | --- | --- | --- | --- | --- | --- |
/// | p1 | "Hoover Tower" | nil | 5 | 2.5 | D0 | quad, hoover | Ansel |
/// | p2 | nil | "Quad" | 0 | 0 | nil | — | nil |
/// | p3 | "Zoe\u{308}" (stored "Zoë") | "zoe" | -3 | 4.75 | D1 | quad, Zoë | Imogen |
/// | p4 | "straße" | "STRASSE" | 2^53 + 1 | 1 | D2 | hoover | Ansel |
/// | p5 | "" | "" | 10 | 5 | D0 | Zoë | nil |
///
/// p5 alone has a Recent (viewed D2). The tag "empty" has no photos; the photographer
/// Dorothea has none.
@Suite("Predicate semantics through SQL")
struct PredicateSQLSemanticsTests {
    enum Arg: Sendable {
        case string(String)
        /// Days after D0.
        case date(Double)
        case decimal(String)
        /// An array of decimals.
        case decimals([String])
        case int(Int64)
        case double(Double)
        /// An object by label: a photo's unique, `#tag`, `@photographer`.
        case object(String)
        /// Objects by label; `nil` is a nil element.
        case objects([String?])
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var entity = "Photo"
        let format: String
        var arguments: [Arg] = []
        /// The labels of the matching objects (photo uniques, tag and photographer names).
        let expected: Set<String>
        let rule: String

        var testDescription: String { "\(entity) where \(format) — \(rule)" }
    }

    static let rows: [Row] = [
        // nil: == and != are null-safe, ordering and string operators are false on nil, NOT negates that false.
        Row(format: "title == nil", expected: ["p2"], rule: "== nil holds for nil only"),
        Row(format: "title != nil", expected: ["p1", "p3", "p4", "p5"], rule: "!= nil holds for every value, the empty string too"),
        Row(format: "title != 'Hoover Tower'", expected: ["p2", "p3", "p4", "p5"], rule: "nil != a value holds"),
        Row(format: "NOT (title == 'Hoover Tower')", expected: ["p2", "p3", "p4", "p5"], rule: "NOT of a false comparison with nil holds"),
        Row(format: "NOT (title BEGINSWITH 'H')", expected: ["p2", "p3", "p4", "p5"], rule: "BEGINSWITH is false on nil, so NOT holds"),
        Row(format: "title < 'a'", expected: ["p1", "p3", "p5"], rule: "< is false on nil; \"\" sorts first"),
        Row(format: "NOT (title < 'a')", expected: ["p2", "p4"], rule: "NOT of < holds on nil"),
        Row(format: "title > nil", expected: [], rule: "ordering against nil is false"),
        Row(format: "NOT (title > nil)", expected: ["p1", "p2", "p3", "p4", "p5"], rule: "and its negation holds"),
        Row(format: "uploaded < %@", arguments: [.date(1)], expected: ["p1", "p5"], rule: "dates order by time; nil is excluded"),
        Row(format: "NOT (uploaded < %@)", arguments: [.date(1)], expected: ["p2", "p3", "p4"], rule: "NOT includes the nil date"),
        Row(format: "uploaded == nil OR uploaded > %@", arguments: [.date(1)], expected: ["p2", "p4"], rule: "OR of a nil test and an order"),
        Row(format: "NOT (uploaded == nil AND subtitle == nil)", expected: ["p1", "p2", "p3", "p4", "p5"], rule: "NOT of AND over nil tests"),
        Row(format: "title IN {'Zoë', nil}", expected: ["p2", "p3"], rule: "IN with nil matches nil"),
        Row(format: "title IN {}", expected: [], rule: "IN the empty array is false"),
        Row(format: "NOT (title IN {'Zoë'})", expected: ["p1", "p2", "p4", "p5"], rule: "NOT IN holds on nil"),
        Row(format: "subtitle == title", expected: ["p5"], rule: "key == key: nil equals only nil"),
        Row(format: "subtitle != title", expected: ["p1", "p2", "p3", "p4"], rule: "key != key holds when one side is nil"),
        Row(format: "subtitle ==[c] title", expected: ["p4", "p5"], rule: "[c] folds ß to ss"),
        Row(format: "subtitle ==[cd] title", expected: ["p3", "p4", "p5"], rule: "[cd] also removes diacritics"),
        Row(format: "subtitle == nil AND title != nil", expected: ["p1"], rule: "nil tests combine"),

        // Strings: NFC, [c], [d], [cd], and the string operators.
        Row(format: "title == 'Zoe\u{0308}'", expected: ["p3"], rule: "decomposed and precomposed strings are equal (NFC)"),
        Row(format: "title == 'Zoe'", expected: [], rule: "without [d], ë is not e"),
        Row(format: "title ==[c] 'hoover tower'", expected: ["p1"], rule: "[c] ignores case"),
        Row(format: "title ==[cd] 'ZOE'", expected: ["p3"], rule: "[cd] ignores case and diacritics"),
        Row(format: "title ==[c] 'STRASSE'", expected: ["p4"], rule: "[c] uses full case folding"),
        Row(format: "title BEGINSWITH[c] 'hoo'", expected: ["p1"], rule: "BEGINSWITH[c]"),
        Row(format: "title ENDSWITH 'ße'", expected: ["p4"], rule: "ENDSWITH"),
        Row(format: "title CONTAINS[cd] 'OE'", expected: ["p3"], rule: "CONTAINS[cd]"),
        Row(format: "title LIKE 'H*r'", expected: ["p1"], rule: "LIKE * matches any run"),
        Row(format: "title LIKE[c] '?o?'", expected: ["p3"], rule: "LIKE ? matches one character (ë is one in NFC)"),
        Row(format: "title MATCHES 'str.*'", expected: ["p4"], rule: "MATCHES matches the whole string"),
        Row(format: "title MATCHES 'tr'", expected: [], rule: "MATCHES is not a search"),
        Row(format: "'Tower' IN title", expected: ["p1"], rule: "a string IN a string is a substring test"),
        Row(format: "title >= 'a'", expected: ["p4"], rule: "strings order by Unicode scalar: lowercase after uppercase"),
        Row(format: "title BETWEEN {'H', 'Zz'}", expected: ["p1", "p3"], rule: "BETWEEN is inclusive, by Unicode scalar"),

        // Numbers: integers and doubles compare exactly, as numbers; other kinds never equal.
        Row(format: "views > 5", expected: ["p4", "p5"], rule: ">"),
        Row(format: "NOT (views > 5)", expected: ["p1", "p2", "p3"], rule: "NOT >"),
        Row(format: "views == 9007199254740992.0", expected: [], rule: "2^53 + 1 is not the double 2^53: exact comparison"),
        Row(format: "views > 9007199254740992.0", expected: ["p4"], rule: "2^53 + 1 exceeds the double 2^53"),
        Row(format: "views == 5.0", expected: ["p1"], rule: "an integer equals the same double"),
        Row(format: "views < 0.5", expected: ["p2", "p3"], rule: "integers against a fraction"),
        Row(format: "rating == 5", expected: ["p5"], rule: "a double equals the same integer"),
        Row(format: "views BETWEEN {0, 5}", expected: ["p1", "p2"], rule: "BETWEEN is inclusive"),
        Row(format: "views BETWEEN {5, 0}", expected: [], rule: "BETWEEN with reversed bounds is empty"),
        Row(format: "views IN {0, 10, 'x', nil}", expected: ["p2", "p5"], rule: "IN ignores elements of other kinds"),
        Row(format: "views == '5'", expected: [], rule: "a number never equals a string"),
        Row(format: "views != '5'", expected: ["p1", "p2", "p3", "p4", "p5"], rule: "so != a string always holds"),
        Row(format: "views < '5'", expected: [], rule: "numbers and strings do not order"),
        Row(
            format: "rating >= 2.5 AND rating <= %@",
            arguments: [.decimal("4.75")],
            expected: ["p1", "p3"],
            rule: "decimal arguments compare as numbers"
        ),
        Row(format: "views == YES", expected: [], rule: "YES is 1"),
        Row(format: "rating == %@", arguments: [.decimal("2.5")], expected: ["p1"], rule: "a decimal equals the same double"),
        Row(format: "views < %@", arguments: [.decimal("-2.5")], expected: ["p3"], rule: "integers against a fractional decimal"),
        Row(format: "views == %@", arguments: [.decimal("5.5")], expected: [], rule: "an integer never equals a fractional decimal"),
        Row(format: "views != %@", arguments: [.decimal("5.5")], expected: ["p1", "p2", "p3", "p4", "p5"], rule: "so != holds"),
        Row(format: "views IN %@", arguments: [.decimals(["5", "0.5"])], expected: ["p1"], rule: "IN decimals"),
        Row(format: "views BETWEEN %@", arguments: [.decimals(["-3.5", "0.5"])], expected: ["p2", "p3"], rule: "BETWEEN fractional decimals"),
        Row(format: "uploaded == 5", expected: [], rule: "a date never equals a number"),

        // Collections: ANY is implicit, ALL and NONE hold on empty collections, CONTAINS is membership.
        Row(format: "ANY tags.name == 'quad'", expected: ["p1", "p3"], rule: "ANY"),
        Row(format: "tags.name == 'quad'", expected: ["p1", "p3"], rule: "a comparison on a collection means ANY"),
        Row(format: "ALL tags.name == 'quad'", expected: ["p2"], rule: "ALL holds on the empty collection"),
        Row(format: "ALL tags.name != 'quad'", expected: ["p2", "p4", "p5"], rule: "ALL !="),
        Row(format: "NONE tags.name == 'quad'", expected: ["p2", "p4", "p5"], rule: "NONE holds on the empty collection"),
        Row(format: "NOT (ANY tags.name == 'quad')", expected: ["p2", "p4", "p5"], rule: "NOT ANY is NONE"),
        Row(format: "tags.@count == 0", expected: ["p2"], rule: "@count of an empty to-many is 0"),
        Row(format: "tags.@count >= 2", expected: ["p1", "p3"], rule: "@count"),
        Row(format: "ANY tags.name ==[cd] 'zoe'", expected: ["p3", "p5"], rule: "options apply to each element"),
        Row(format: "tags.name CONTAINS 'quad'", expected: ["p1", "p3"], rule: "CONTAINS on a collection is membership"),
        Row(format: "tags.name CONTAINS 'qua'", expected: [], rule: "not a substring search"),
        Row(format: "%@ IN tags", arguments: [.object("#quad")], expected: ["p1", "p3"], rule: "an object IN a to-many"),
        Row(format: "ANY tags IN %@", arguments: [.objects(["#hoover", "#empty"])], expected: ["p1", "p4"], rule: "ANY to-many IN objects"),
        Row(
            format: "SUBQUERY(tags, $t, $t.name BEGINSWITH 'q' OR $t.name BEGINSWITH 'h').@count == 2",
            expected: ["p1"],
            rule: "SUBQUERY counts the members that match"
        ),
        Row(
            format: "SUBQUERY(tags, $t, $t.name ==[cd] title).@count > 0",
            expected: ["p3"],
            rule: "inside SUBQUERY a bare key is the evaluated object's"
        ),
        Row(format: "SUBQUERY(tags, $t, $t.photos.@count > 1).@count == 0", expected: ["p2"], rule: "nested aggregates in SUBQUERY"),

        // Through relationships: a nil to-one has no properties; aggregates over its to-many.
        Row(format: "photographer.name == 'Ansel'", expected: ["p1", "p4"], rule: "a key path through a to-one"),
        Row(format: "photographer.name != 'Ansel'", expected: ["p2", "p3", "p5"], rule: "a nil to-one's key is nil, so != holds"),
        Row(format: "photographer == nil", expected: ["p2", "p5"], rule: "a nil to-one"),
        Row(
            format: "photographer.photos.title != 'Hoover Tower'",
            expected: ["p1", "p3", "p4"],
            rule: "through a nil to-one a to-many is empty, so != (meaning ANY) is false"
        ),
        Row(format: "photographer.photos.title == nil", expected: [], rule: "and == nil is false too"),
        Row(format: "NONE photographer.photos.title == 'Hoover Tower'", expected: ["p2", "p3", "p5"], rule: "NONE holds on it"),
        Row(format: "photographer IN %@", arguments: [.objects(["@Imogen", nil])], expected: ["p2", "p3", "p5"], rule: "IN objects and nil"),
        Row(format: "photographer.photos.@count == 2", expected: ["p1", "p4"], rule: "@count through a to-one"),
        Row(format: "photographer.photos.@count == 0", expected: ["p2", "p5"], rule: "@count through a nil to-one is 0"),
        Row(format: "photographer.photos.@avg.rating > 2", expected: ["p3"], rule: "@avg"),
        Row(format: "photographer.photos.@sum.views == 9007199254740998", expected: ["p1", "p4"], rule: "@sum of integers is exact"),
        Row(format: "photographer.photos.@avg.rating == nil", expected: ["p2", "p5"], rule: "@avg of nothing is nil"),
        Row(format: "recent != nil AND recent.lastViewed > %@", arguments: [.date(1)], expected: ["p5"], rule: "a one-to-one"),
        Row(format: "recent.photo == SELF", expected: ["p5"], rule: "an object compared with SELF"),
        Row(format: "SELF == %@", arguments: [.object("p3")], expected: ["p3"], rule: "SELF == an object"),
        Row(format: "SELF != %@", arguments: [.object("p3")], expected: ["p1", "p2", "p4", "p5"], rule: "SELF != an object"),
        Row(format: "SELF IN %@", arguments: [.objects(["p1", "p4"])], expected: ["p1", "p4"], rule: "SELF IN objects"),

        // Other entities: to-many then to-one flattens, nil members included.
        Row(entity: "Tag", format: "photos.@count == 0", expected: ["empty"], rule: "a tag with no photos"),
        Row(entity: "Tag", format: "ALL photos.views > 100", expected: ["empty"], rule: "ALL on an empty to-many"),
        Row(entity: "Tag", format: "ANY photos.photographer.name == 'Imogen'", expected: ["quad", "Zoë"], rule: "to-many then to-one"),
        Row(entity: "Tag", format: "ANY photos.photographer == nil", expected: ["Zoë"], rule: "a photo with no photographer is a nil member"),
        Row(entity: "Tag", format: "photos.photographer.@count == 2", expected: ["quad", "hoover", "Zoë"], rule: "@count counts nil members"),
        Row(entity: "Tag", format: "ANY photos.tags.name == 'hoover'", expected: ["quad", "hoover"], rule: "to-many then to-many"),
        Row(entity: "Photographer", format: "photos.@count == 0", expected: ["Dorothea"], rule: "no photos"),
        Row(entity: "Photographer", format: "ALL photos.views > 100", expected: ["Dorothea"], rule: "ALL on empty"),
        Row(entity: "Photographer", format: "NONE photos.views > 100", expected: ["Dorothea", "Imogen"], rule: "NONE"),
        Row(entity: "Photographer", format: "ANY photos.views > 100", expected: ["Ansel"], rule: "ANY"),
        Row(entity: "Photographer", format: "photos.@avg.views == nil", expected: ["Dorothea"], rule: "@avg of nothing"),
        Row(entity: "Photographer", format: "photos.@sum.views == 0", expected: ["Dorothea"], rule: "@sum of nothing is 0"),
        Row(entity: "Photographer", format: "photos.@max.title == 'straße'", expected: ["Ansel"], rule: "@max of strings by Unicode scalar"),
        Row(entity: "Photographer", format: "photos.@min.uploaded == %@", arguments: [.date(0)], expected: ["Ansel"], rule: "@min of dates"),
    ]

    @Test("documented semantics hold in memory and through SQL", arguments: rows, StoreKind.allCases)
    func row(_ row: Row, store kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Fixture.populate(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let objects = try Fixture.objects(in: context)
            let arguments = try row.arguments.map { try Fixture.argument($0, objects) }
            let predicate = try FetchPredicate(parsing: row.format, argumentArray: arguments)
            let all = try #require(objects.byEntity[row.entity])
            let inMemory = try Set(all.filter { try predicate.evaluate(with: $0) }.map(Fixture.label))
            #expect(inMemory == row.expected, "evaluate(with:)")

            let store = try context.store()
            let descriptor = FetchDescriptor(
                entity: row.entity,
                predicate: predicate.node,
                sortDescriptors: [],
                fetchLimit: 0,
                fetchOffset: 0,
                includesSubentities: true
            )
            #expect(throws: Never.self, "compiles to SQL") { _ = try store.count(matching: descriptor) }
            let request = FetchRequest<ManagedObject>(entityName: row.entity)
            request.predicate = predicate
            let fetched = try context.fetch(request).map(Fixture.label)
            let counted = try context.count(for: request)
            #expect(Set(fetched) == row.expected, "fetch")
            #expect(fetched.count == row.expected.count, "fetch returns each object once")
            #expect(counted == row.expected.count, "count(for:)")
        }
    }

    struct SortRow: Sendable, CustomTestStringConvertible {
        let sorts: [FetchSortDescriptor]
        let expected: [String]
        let rule: String
        var testDescription: String { "\(sorts.map(\.description).joined(separator: ", ")) — \(rule)" }
    }

    static let sortRows: [SortRow] = [
        SortRow(
            sorts: [FetchSortDescriptor(key: "title", ascending: true)],
            expected: ["p2", "p5", "p1", "p3", "p4"],
            rule: "nil first, then Unicode scalar order: \"\", H, Z, s"
        ),
        SortRow(
            sorts: [FetchSortDescriptor(key: "title", ascending: false)],
            expected: ["p4", "p3", "p1", "p5", "p2"],
            rule: "descending puts nil last"
        ),
        SortRow(
            sorts: [FetchSortDescriptor(key: "title", ascending: true, selector: .caseInsensitiveCompare)],
            expected: ["p2", "p5", "p1", "p4", "p3"],
            rule: "caseInsensitiveCompare: hoover < strasse < zoë"
        ),
        SortRow(
            sorts: [FetchSortDescriptor(key: "subtitle", ascending: true, selector: .caseInsensitiveCompare)],
            expected: ["p1", "p5", "p2", "p4", "p3"],
            rule: "\"\" < quad < strasse < zoe"
        ),
        SortRow(
            sorts: [FetchSortDescriptor(key: "photographer.name", ascending: true), FetchSortDescriptor(key: "views", ascending: false)],
            expected: ["p5", "p2", "p4", "p1", "p3"],
            rule: "a to-one key path, nil first; ties by the next descriptor"
        ),
        SortRow(sorts: [FetchSortDescriptor(key: "rating", ascending: true)], expected: ["p2", "p4", "p1", "p3", "p5"], rule: "doubles"),
        SortRow(
            sorts: [FetchSortDescriptor(key: "uploaded", ascending: true)],
            expected: ["p2", "p1", "p5", "p3", "p4"],
            rule: "dates, nil first, ties by primary key"
        ),
        SortRow(
            sorts: [FetchSortDescriptor(key: "views", ascending: false)],
            expected: ["p4", "p5", "p1", "p2", "p3"],
            rule: "integers beyond 2^53"
        ),
    ]

    @Test("sorting through SQL and in memory give the documented order", arguments: sortRows, StoreKind.allCases)
    func sorted(_ row: SortRow, store kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Fixture.populate(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.sortDescriptors = row.sorts
            #expect(try context.fetch(request).map(Fixture.label) == row.expected, "through SQL")
            // The same order in memory: with an unsaved change to a photo the context merges
            // and sorts the results itself.
            let objects = try Fixture.objects(in: context)
            let p2 = try #require(objects.byLabel["p2"] as? Photo)
            let unsaved = Tag(context: context)
            unsaved.name = "unsaved"
            p2.tags = [unsaved]
            #expect(p2.hasChanges)
            #expect(try context.fetch(request).map(Fixture.label) == row.expected, "in memory")
        }
    }

    // MARK: Decimals

    struct LedgerRow: Sendable, CustomTestStringConvertible {
        var entity = "Account"
        let format: String
        var decimal: String?
        let expected: Set<String>
        let rule: String
        var testDescription: String { "\(entity) where \(format) — \(rule)" }
    }

    /// Accounts A (balance 10; entries 9.5, 10), B (9.5; 100.25, -3), C (nil; none) and
    /// D (100; 0.1, 0.2). Decimals are stored as text: these rows fail if any comparison
    /// falls back to text order ("10" < "9") or to doubles (0.1 + 0.2).
    static let ledgerRows: [LedgerRow] = [
        LedgerRow(format: "balance > 9", expected: ["A", "B", "D"], rule: "numeric, not text, order"),
        LedgerRow(format: "balance > 9.75", expected: ["A", "D"], rule: "against a double"),
        LedgerRow(format: "balance == 10.0", expected: ["A"], rule: "10 equals 10.0"),
        LedgerRow(format: "balance == %@", decimal: "10.00", expected: ["A"], rule: "10 equals 10.00"),
        LedgerRow(format: "balance BETWEEN {9.5, 10}", expected: ["A", "B"], rule: "BETWEEN"),
        LedgerRow(format: "balance IN {100, 9.5}", expected: ["B", "D"], rule: "IN"),
        LedgerRow(format: "balance != 10", expected: ["B", "C", "D"], rule: "!= holds for nil"),
        LedgerRow(format: "balance < 10", expected: ["B"], rule: "< is false for nil"),
        LedgerRow(format: "entries.@max.amount > 9", expected: ["A", "B"], rule: "@max of decimals compares numerically"),
        LedgerRow(format: "entries.@min.amount < 0", expected: ["B"], rule: "@min"),
        LedgerRow(format: "entries.@sum.amount == %@", decimal: "0.3", expected: ["D"], rule: "@sum of decimals is exact"),
        LedgerRow(format: "entries.@sum.amount > 19", expected: ["A", "B"], rule: "@sum orders numerically"),
        LedgerRow(format: "entries.@avg.amount == %@", decimal: "9.75", expected: ["A"], rule: "@avg of decimals"),
        LedgerRow(format: "entries.@sum.amount == 0", expected: ["C"], rule: "@sum of nothing is 0"),
        LedgerRow(format: "ANY entries.amount < 0.15", expected: ["B", "D"], rule: "ANY over decimals"),
        LedgerRow(format: "balance > entries.@max.amount", expected: ["D"], rule: "decimal against decimal aggregate"),
        LedgerRow(format: "balance == entries.@max.amount", expected: ["A", "C"], rule: "nil equals nil"),
        LedgerRow(format: "balance > entries.@count", expected: ["A", "B", "D"], rule: "decimal against an integer"),
        LedgerRow(entity: "Entry", format: "amount > 9", expected: ["9.5", "10", "100.25"], rule: "attribute"),
        LedgerRow(entity: "Entry", format: "amount < account.balance", expected: ["9.5", "-3", "0.1", "0.2"], rule: "decimal against decimal"),
        LedgerRow(entity: "Entry", format: "account.balance > 9.75", expected: ["9.5", "10", "0.1", "0.2"], rule: "through a to-one"),
    ]

    static func ledgerModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Account") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("balance", .decimal)
                RelationshipDescription("entries", to: "Entry", inverse: "account", toMany: true)
            }
            EntityDescription("Entry") {
                AttributeDescription("amount", .decimal, optional: false)
                RelationshipDescription("account", to: "Account", inverse: "entries")
            }
        }
    }

    @Test("decimal attributes compare as numbers in memory and through SQL", arguments: ledgerRows, StoreKind.allCases)
    func ledger(_ row: LedgerRow, store kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.ledgerModel())
        let seeding = stack.container.newBackgroundContext()
        try seeding.performAndWait {
            for (name, balance, amounts) in [
                ("A", "10", ["9.5", "10"]), ("B", "9.5", ["100.25", "-3"]), ("C", nil, []),
                ("D", "100", ["0.1", "0.2"]),
            ] {
                let account = try seeding.insertObject(entityName: "Account")
                account.setValue(name, forKey: "name")
                account.setValue(balance.flatMap { Decimal(string: $0) }, forKey: "balance")
                for amount in amounts {
                    let entry = try seeding.insertObject(entityName: "Entry")
                    entry.setValue(Decimal(string: amount), forKey: "amount")
                    entry.setValue(account, forKey: "account")
                }
            }
            try seeding.save()
        }
        func label(_ object: ManagedObject) -> String {
            if let name = object.value(forKey: "name") as? String { return name }
            return (object.value(forKey: "amount") as? Decimal)?.description ?? "?"
        }
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var arguments: [Any?] = []
            if let text = row.decimal {
                let decimal = try #require(Decimal(string: text))
                arguments.append(decimal)
            }
            let predicate = try FetchPredicate(parsing: row.format, argumentArray: arguments)
            let all = try context.fetch(FetchRequest<ManagedObject>(entityName: row.entity))
            #expect(Set(try all.filter { try predicate.evaluate(with: $0) }.map(label)) == row.expected, "evaluate(with:)")
            let request = FetchRequest<ManagedObject>(entityName: row.entity)
            request.predicate = predicate
            let fetched = try context.fetch(request).map(label)
            #expect(Set(fetched) == row.expected && fetched.count == row.expected.count, "fetch")
            #expect(try context.count(for: request) == row.expected.count, "count(for:)")
        }
    }

    enum Fixture {
        static let base = Date(timeIntervalSinceReferenceDate: 700_000_000)

        static func populate(_ stack: TestStack) throws {
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                func tag(_ name: String) -> Tag {
                    let tag = Tag(context: context)
                    tag.name = name
                    return tag
                }
                let quad = tag("quad")
                let hoover = tag("hoover")
                let zoe = tag("Zoë")
                _ = tag("empty")
                func photographer(_ name: String) -> Photographer {
                    let photographer = Photographer(context: context)
                    photographer.name = name
                    return photographer
                }
                let ansel = photographer("Ansel")
                let imogen = photographer("Imogen")
                _ = photographer("Dorothea")
                func photo(
                    _ unique: String,
                    _ title: String?,
                    _ subtitle: String?,
                    _ views: Int64,
                    _ rating: Double,
                    _ day: Double?,
                    _ tags: Set<Tag>,
                    _ by: Photographer?
                ) -> Photo {
                    let photo = Photo(context: context)
                    photo.unique = unique
                    photo.title = title
                    photo.subtitle = subtitle
                    photo.views = views
                    photo.rating = rating
                    photo.uploaded = day.map { base.addingTimeInterval($0 * 86_400) }
                    photo.tags = tags
                    photo.photographer = by
                    return photo
                }
                _ = photo("p1", "Hoover Tower", nil, 5, 2.5, 0, [quad, hoover], ansel)
                _ = photo("p2", nil, "Quad", 0, 0, nil, [], nil)
                _ = photo("p3", "Zoe\u{0308}", "zoe", -3, 4.75, 1, [quad, zoe], imogen)
                _ = photo("p4", "straße", "STRASSE", 9_007_199_254_740_993, 1, 2, [hoover], ansel)
                let p5 = photo("p5", "", "", 10, 5, 0, [zoe], nil)
                let recent = Recent(context: context)
                recent.lastViewed = base.addingTimeInterval(2 * 86_400)
                p5.recent = recent
                try context.save()
            }
        }

        struct Objects {
            var byEntity: [String: [ManagedObject]] = [:]
            var byLabel: [String: ManagedObject] = [:]
        }

        static func objects(in context: ManagedObjectContext) throws -> Objects {
            var objects = Objects()
            for entity in ["Photo", "Tag", "Photographer"] {
                let all = try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
                objects.byEntity[entity] = all
                for object in all {
                    let prefix = entity == "Tag" ? "#" : entity == "Photographer" ? "@" : ""
                    objects.byLabel[prefix + label(object)] = object
                }
            }
            return objects
        }

        static func label(_ object: ManagedObject) -> String {
            switch object {
            case let photo as Photo: photo.unique ?? "?"
            case let tag as Tag: tag.name ?? "?"
            case let photographer as Photographer: photographer.name ?? "?"
            default: "?"
            }
        }

        static func argument(_ arg: Arg, _ objects: Objects) throws -> Any? {
            switch arg {
            case .string(let string): return string
            case .date(let days): return base.addingTimeInterval(days * 86_400)
            case .decimal(let text):
                let decimal = try #require(Decimal(string: text))
                return decimal
            case .decimals(let texts):
                return try texts.map { text -> Decimal in try #require(Decimal(string: text)) }
            case .int(let int): return int
            case .double(let double): return double
            case .object(let label):
                let object = try #require(objects.byLabel[label], "no object labelled \(label)")
                return object
            case .objects(let labels):
                return try labels.map { label -> Any? in
                    guard let label else { return nil }
                    let object = try #require(objects.byLabel[label], "no object labelled \(label)")
                    return object
                }
            }
        }
    }
}
