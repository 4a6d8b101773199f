import Foundation
import Testing

@testable import ObjectGraph
import ObjectGraphPostgres

/// The SQL each operator compiles to, in each dialect, as text: SQLite's (which the store runs,
/// so its results are checked by ``PredicateSQLSemanticsTests``) and PostgreSQL's (checked
/// against a server once the PostgreSQL store exists). Layout: `ZPHOTO t0` with `ZTITLE`,
/// `ZSUBTITLE`, `ZVIEWS` (integer), `ZRATING` (double), `ZUPLOADED` (date), `ZPHOTOGRAPHER`
/// (to-one); `ZPHOTOGRAPHER` with `ZNAME`.
@Suite("Predicate SQL in each dialect")
struct PredicateSQLDialectTests {
    /// A predicate argument that is `Sendable`, for the rows.
    enum Argument: Sendable {
        case decimal(String)
        case decimals([String])
        /// A date, in seconds since 2001.
        case date(Double)
        /// The photo with this primary key.
        case photo(Int64)
    }

    /// What a dialect makes of a row: SQL with its arguments, or evaluation in memory.
    enum Expected: Sendable {
        case sql(String, [SQLValue] = [], joins: [String] = [])
        case inMemory
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var entity = "Photo"
        let format: String
        var arguments: [Argument] = []
        let sqlite: Expected
        let postgreSQL: Expected
        var testDescription: String { "\(entity) where \(format)" }
    }

    static let rows: [Row] = [
        // Comparisons and nil.
        Row(format: "title == 'a'", sqlite: .sql("t0.ZTITLE = ?", [.text("a")]), postgreSQL: .sql(#"t0."ZTITLE" = $1"#, [.text("a")])),
        Row(
            format: "title != 'a'",
            sqlite: .sql("t0.ZTITLE IS NOT ?", [.text("a")]),
            postgreSQL: .sql(#"t0."ZTITLE" IS DISTINCT FROM $1"#, [.text("a")])
        ),
        Row(format: "title < 'a'", sqlite: .sql("t0.ZTITLE < ?", [.text("a")]), postgreSQL: .sql(#"t0."ZTITLE" COLLATE "C" < $1"#, [.text("a")])),
        Row(format: "views >= 5", sqlite: .sql("t0.ZVIEWS >= ?", [.integer(5)]), postgreSQL: .sql(#"t0."ZVIEWS" >= $1"#, [.integer(5)])),
        Row(format: "views == YES", sqlite: .sql("t0.ZVIEWS = ?", [.integer(1)]), postgreSQL: .sql(#"t0."ZVIEWS" = $1"#, [.integer(1)])),
        Row(format: "rating <= 2.5", sqlite: .sql("t0.ZRATING <= ?", [.real(2.5)]), postgreSQL: .sql(#"t0."ZRATING" <= $1"#, [.real(2.5)])),
        Row(
            format: "uploaded < %@",
            arguments: [.date(100)],
            sqlite: .sql("t0.ZUPLOADED < ?", [.real(100)]),
            postgreSQL: .sql(#"t0."ZUPLOADED" < $1"#, [.real(100)])
        ),
        Row(format: "title == nil", sqlite: .sql("t0.ZTITLE IS NULL"), postgreSQL: .sql(#"t0."ZTITLE" IS NULL"#)),
        Row(format: "title != nil", sqlite: .sql("t0.ZTITLE IS NOT NULL"), postgreSQL: .sql(#"t0."ZTITLE" IS NOT NULL"#)),
        Row(format: "title > nil", sqlite: .sql("0"), postgreSQL: .sql("FALSE")),
        Row(format: "uploaded == 5", sqlite: .sql("0"), postgreSQL: .sql("FALSE")),
        // Arithmetic: integers exact (PostgreSQL's bigint would raise on overflow, numeric goes
        // on), a division in floating point with NULL for zero, dates as seconds, constants as
        // literals (a comparison may write its operand twice).
        Row(
            format: "views * 2 > 5",
            sqlite: .sql("(t0.ZVIEWS * 2) > ?", [.integer(5)]),
            postgreSQL: .sql(#"(CAST(t0."ZVIEWS" AS NUMERIC) * CAST(2 AS NUMERIC)) > $1"#, [.integer(5)])
        ),
        Row(
            format: "views / 4 < rating",
            sqlite: .sql("(CAST(t0.ZVIEWS AS REAL) / NULLIF(4, 0)) < t0.ZRATING"),
            postgreSQL: .sql(#"(CAST(t0."ZVIEWS" AS DOUBLE PRECISION) / NULLIF(CAST(4 AS DOUBLE PRECISION), 0)) < t0."ZRATING""#)
        ),
        Row(
            format: "-rating + 0.5 >= 1",
            sqlite: .sql("((0 - t0.ZRATING) + 0.5) >= ?", [.integer(1)]),
            postgreSQL: .sql(
                #"(CAST((CAST(0 AS DOUBLE PRECISION) - CAST(t0."ZRATING" AS DOUBLE PRECISION)) AS DOUBLE PRECISION) + CAST(0.5 AS DOUBLE PRECISION)) >= $1"#,
                [.integer(1)]
            )
        ),
        Row(
            format: "uploaded < now()",
            sqlite: .sql("t0.ZUPLOADED < ((julianday('now') - 2451910.5) * 86400.0)"),
            postgreSQL: .sql(#"t0."ZUPLOADED" < (date_part('epoch', statement_timestamp()) - 978307200)"#)
        ),
        Row(format: "views ** 2 > 5", sqlite: .inMemory, postgreSQL: .inMemory),
        Row(format: "abs:(views) > 5", sqlite: .inMemory, postgreSQL: .inMemory),
        Row(format: "title + 1 > 5", sqlite: .inMemory, postgreSQL: .inMemory),
        Row(
            format: "title IN {'a', nil}",
            sqlite: .sql("(t0.ZTITLE IN (?) OR t0.ZTITLE IS NULL)", [.text("a")]),
            postgreSQL: .sql(#"(t0."ZTITLE" IN ($1) OR t0."ZTITLE" IS NULL)"#, [.text("a")])
        ),
        Row(
            format: "views BETWEEN {1, 5}",
            sqlite: .sql("t0.ZVIEWS BETWEEN ? AND ?", [.integer(1), .integer(5)]),
            postgreSQL: .sql(#"t0."ZVIEWS" BETWEEN $1 AND $2"#, [.integer(1), .integer(5)])
        ),
        Row(
            format: "title BETWEEN {'a', 'b'}",
            sqlite: .sql("t0.ZTITLE BETWEEN ? AND ?", [.text("a"), .text("b")]),
            postgreSQL: .sql(#"t0."ZTITLE" COLLATE "C" BETWEEN $1 AND $2"#, [.text("a"), .text("b")])
        ),

        // Decimals against integer columns: exact, as the evaluator compares.
        Row(
            format: "views < %@",
            arguments: [.decimal("2.5")],
            sqlite: .sql("og_numcmp(t0.ZVIEWS, ?) < 0", [.decimal(Decimal(string: "2.5")!)]),
            postgreSQL: .sql(#"CAST(t0."ZVIEWS" AS NUMERIC) < CAST($1 AS NUMERIC)"#, [.decimal(Decimal(string: "2.5")!)])
        ),
        Row(
            format: "views BETWEEN %@",
            arguments: [.decimals(["-3.5", "0.5"])],
            sqlite: .sql(
                "(og_numcmp(t0.ZVIEWS, ?) >= 0 AND og_numcmp(t0.ZVIEWS, ?) <= 0)",
                [.decimal(Decimal(string: "-3.5")!), .decimal(Decimal(string: "0.5")!)]
            ),
            postgreSQL: .sql(
                #"(CAST(t0."ZVIEWS" AS NUMERIC) >= CAST($1 AS NUMERIC) AND CAST(t0."ZVIEWS" AS NUMERIC) <= CAST($2 AS NUMERIC))"#,
                [.decimal(Decimal(string: "-3.5")!), .decimal(Decimal(string: "0.5")!)]
            )
        ),

        // Case and diacritic folding: SQLite folds the constant in Swift, PostgreSQL in SQL.
        Row(
            format: "title ==[c] 'STRASSE'",
            sqlite: .sql("og_fold(t0.ZTITLE, 1) = ?", [.text("strasse")]),
            postgreSQL: .sql(#"objectgraph_fold_case(t0."ZTITLE") = objectgraph_fold_case($1)"#, [.text("STRASSE")])
        ),
        Row(
            format: "title ==[cd] 'Zoë'",
            sqlite: .sql("og_fold(t0.ZTITLE, 3) = ?", [.text("zoe")]),
            postgreSQL: .sql(#"objectgraph_fold_case(objectgraph_fold_diacritics(t0."ZTITLE")) = objectgraph_fold_case(objectgraph_fold_diacritics($1))"#, [.text("Zoë")])
        ),
        Row(
            format: "title <[d] 'é'",
            sqlite: .sql("og_fold(t0.ZTITLE, 2) < ?", [.text("e")]),
            postgreSQL: .sql(#"objectgraph_fold_diacritics(t0."ZTITLE") COLLATE "C" < objectgraph_fold_diacritics($1)"#, [.text("é")])
        ),

        // String operators: SQLite's og_string; PostgreSQL's LIKE with escaped patterns.
        Row(
            format: "title BEGINSWITH 'a_%'",
            sqlite: .sql("og_string('BEGINSWITH', t0.ZTITLE, ?, 0)", [.text("a_%")]),
            postgreSQL: .sql(#"t0."ZTITLE" LIKE $1"#, [.text(#"a\_\%%"#)])
        ),
        Row(
            format: "title ENDSWITH[c] 'A'",
            sqlite: .sql("og_string('ENDSWITH', t0.ZTITLE, ?, 1)", [.text("A")]),
            postgreSQL: .sql(#"objectgraph_fold_case(t0."ZTITLE") LIKE objectgraph_fold_case($1)"#, [.text("%A")])
        ),
        Row(
            format: "title CONTAINS[cd] 'é'",
            sqlite: .sql("og_string('CONTAINS', t0.ZTITLE, ?, 3)", [.text("é")]),
            postgreSQL: .sql(#"objectgraph_fold_case(objectgraph_fold_diacritics(t0."ZTITLE")) LIKE objectgraph_fold_case(objectgraph_fold_diacritics($1))"#, [.text("%é%")])
        ),
        Row(format: "title CONTAINS ''", sqlite: .sql("og_string('CONTAINS', t0.ZTITLE, ?, 0)", [.text("")]), postgreSQL: .sql("FALSE")),
        Row(
            format: #"title LIKE 'a*b?\\*%'"#,
            sqlite: .sql("og_string('LIKE', t0.ZTITLE, ?, 0)", [.text(#"a*b?\*%"#)]),
            postgreSQL: .sql(#"t0."ZTITLE" LIKE $1"#, [.text(#"a%b_*\%"#)])
        ),
        Row(
            format: "title MATCHES 'a.*'",
            sqlite: .sql("og_string('MATCHES', t0.ZTITLE, ?, 0)", [.text("a.*")]),
            postgreSQL: .sql(#"t0."ZTITLE" ~ $1"#, [.text("^(?:a[^\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029}]*)$")])
        ),
        Row(
            format: "title MATCHES[c] 'a.*'",
            sqlite: .sql("og_string('MATCHES', t0.ZTITLE, ?, 1)", [.text("a.*")]),
            // ICU's case-insensitive matching is not PostgreSQL's `~*`.
            postgreSQL: .inMemory
        ),
        Row(format: "title MATCHES[d] 'a.*'", sqlite: .sql("og_string('MATCHES', t0.ZTITLE, ?, 2)", [.text("a.*")]), postgreSQL: .inMemory),
        Row(
            format: "'ow' IN title",
            sqlite: .sql("og_string('CONTAINS', t0.ZTITLE, ?, 0)", [.text("ow")]),
            postgreSQL: .sql(#"t0."ZTITLE" LIKE $1"#, [.text("%ow%")])
        ),
        Row(
            format: "title IN 'Tower'",
            sqlite: .sql("og_string('CONTAINS', ?, t0.ZTITLE, 0)", [.text("Tower")]),
            postgreSQL: .sql(#"(t0."ZTITLE" <> '' AND strpos($1, t0."ZTITLE") > 0)"#, [.text("Tower")])
        ),
        Row(format: "views CONTAINS '5'", sqlite: .sql("og_string('CONTAINS', t0.ZVIEWS, ?, 0)", [.text("5")]), postgreSQL: .sql("FALSE")),

        // Key path against key path.
        Row(
            format: "subtitle == title",
            sqlite: .sql("t0.ZSUBTITLE IS t0.ZTITLE"),
            postgreSQL: .sql(#"t0."ZSUBTITLE" IS NOT DISTINCT FROM t0."ZTITLE""#)
        ),
        Row(
            format: "subtitle != title",
            sqlite: .sql("t0.ZSUBTITLE IS NOT t0.ZTITLE"),
            postgreSQL: .sql(#"t0."ZSUBTITLE" IS DISTINCT FROM t0."ZTITLE""#)
        ),
        Row(format: "subtitle < title", sqlite: .sql("t0.ZSUBTITLE < t0.ZTITLE"), postgreSQL: .sql(#"t0."ZSUBTITLE" COLLATE "C" < t0."ZTITLE""#)),
        Row(
            format: "subtitle ==[c] title",
            sqlite: .sql("og_fold(t0.ZSUBTITLE, 1) IS og_fold(t0.ZTITLE, 1)"),
            postgreSQL: .sql(#"objectgraph_fold_case(t0."ZSUBTITLE") IS NOT DISTINCT FROM objectgraph_fold_case(t0."ZTITLE")"#)
        ),
        Row(
            format: "subtitle == views",
            sqlite: .sql("t0.ZSUBTITLE IS t0.ZVIEWS"),
            postgreSQL: .sql(#"(t0."ZSUBTITLE" IS NULL AND t0."ZVIEWS" IS NULL)"#)
        ),
        Row(
            format: "subtitle BEGINSWITH title",
            sqlite: .sql("og_string('BEGINSWITH', t0.ZSUBTITLE, t0.ZTITLE, 0)"),
            postgreSQL: .sql(#"(t0."ZTITLE" <> '' AND strpos(t0."ZSUBTITLE", t0."ZTITLE") = 1)"#)
        ),
        Row(
            format: "subtitle ENDSWITH[c] title",
            sqlite: .sql("og_string('ENDSWITH', t0.ZSUBTITLE, t0.ZTITLE, 1)"),
            postgreSQL: .sql(
                #"(objectgraph_fold_case(t0."ZTITLE") <> '' AND right(objectgraph_fold_case(t0."ZSUBTITLE"), length(objectgraph_fold_case(t0."ZTITLE"))) = objectgraph_fold_case(t0."ZTITLE"))"#
            )
        ),
        Row(
            format: "subtitle CONTAINS title",
            sqlite: .sql("og_string('CONTAINS', t0.ZSUBTITLE, t0.ZTITLE, 0)"),
            postgreSQL: .sql(#"(t0."ZTITLE" <> '' AND strpos(t0."ZSUBTITLE", t0."ZTITLE") > 0)"#)
        ),
        Row(format: "subtitle LIKE title", sqlite: .sql("og_string('LIKE', t0.ZSUBTITLE, t0.ZTITLE, 0)"), postgreSQL: .inMemory),
        Row(
            format: "subtitle MATCHES title",
            sqlite: .sql("og_string('MATCHES', t0.ZSUBTITLE, t0.ZTITLE, 0)"),
            // A pattern read from a column may use ICU-only syntax.
            postgreSQL: .inMemory
        ),
        Row(format: "views BETWEEN {rating, 5}", sqlite: .inMemory, postgreSQL: .inMemory),

        // Logic: two-valued, as NSPredicate.
        Row(format: "TRUEPREDICATE", sqlite: .sql("1"), postgreSQL: .sql("TRUE")),
        Row(format: "FALSEPREDICATE", sqlite: .sql("0"), postgreSQL: .sql("FALSE")),
        Row(
            format: "NOT (title == 'a')",
            sqlite: .sql("NOT IFNULL((t0.ZTITLE = ?), 0)", [.text("a")]),
            postgreSQL: .sql(#"NOT COALESCE((t0."ZTITLE" = $1), FALSE)"#, [.text("a")])
        ),
        Row(
            format: "title == 'a' AND views > 1 OR rating < 2",
            sqlite: .sql("((t0.ZTITLE = ? AND t0.ZVIEWS > ?) OR t0.ZRATING < ?)", [.text("a"), .integer(1), .integer(2)]),
            postgreSQL: .sql(#"((t0."ZTITLE" = $1 AND t0."ZVIEWS" > $2) OR t0."ZRATING" < $3)"#, [.text("a"), .integer(1), .integer(2)])
        ),

        // Objects and to-one relationships.
        Row(
            format: "SELF == %@",
            arguments: [.photo(7)],
            sqlite: .sql("t0.Z_PK = ?", [.integer(7)]),
            postgreSQL: .sql(#"t0."Z_PK" = $1"#, [.integer(7)])
        ),
        Row(
            format: "SELF != %@",
            arguments: [.photo(7)],
            sqlite: .sql("t0.Z_PK IS NOT ?", [.integer(7)]),
            postgreSQL: .sql(#"t0."Z_PK" IS DISTINCT FROM $1"#, [.integer(7)])
        ),
        Row(format: "photographer == nil", sqlite: .sql("t0.ZPHOTOGRAPHER IS NULL"), postgreSQL: .sql(#"t0."ZPHOTOGRAPHER" IS NULL"#)),
        Row(
            format: "photographer.name == 'a'",
            sqlite: .sql("t1.ZNAME = ?", [.text("a")], joins: ["LEFT JOIN ZPHOTOGRAPHER t1 ON t1.Z_PK = t0.ZPHOTOGRAPHER"]),
            postgreSQL: .sql(#"t1."ZNAME" = $1"#, [.text("a")], joins: [#"LEFT JOIN "ZPHOTOGRAPHER" t1 ON t1."Z_PK" = t0."ZPHOTOGRAPHER""#])
        ),

        // To-many relationships: EXISTS and aggregates.
        Row(
            entity: "Photographer",
            format: "ANY photos.views > 5",
            sqlite: .sql("EXISTS (SELECT 1 FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK AND t1.ZVIEWS > ?)", [.integer(5)]),
            postgreSQL: .sql(#"EXISTS (SELECT 1 FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK" AND t1."ZVIEWS" > $1)"#, [.integer(5)])
        ),
        Row(
            entity: "Photographer",
            format: "ALL photos.views > 5",
            sqlite: .sql("NOT EXISTS (SELECT 1 FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK AND NOT IFNULL((t1.ZVIEWS > ?), 0))", [.integer(5)]),
            postgreSQL: .sql(
                #"NOT EXISTS (SELECT 1 FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK" AND NOT COALESCE((t1."ZVIEWS" > $1), FALSE))"#,
                [.integer(5)]
            )
        ),
        Row(
            entity: "Photographer",
            format: "NONE photos.views > 5",
            sqlite: .sql("NOT EXISTS (SELECT 1 FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK AND t1.ZVIEWS > ?)", [.integer(5)]),
            postgreSQL: .sql(#"NOT EXISTS (SELECT 1 FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK" AND t1."ZVIEWS" > $1)"#, [.integer(5)])
        ),
        Row(
            entity: "Photographer",
            format: "photos.@count > 1",
            sqlite: .sql("(SELECT COUNT(*) FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK) > ?", [.integer(1)]),
            postgreSQL: .sql(#"(SELECT COUNT(*) FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK") > $1"#, [.integer(1)])
        ),
        Row(
            entity: "Photographer",
            format: "photos.@sum.views > 1",
            sqlite: .sql("(SELECT og_sum(t1.ZVIEWS) FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK) > ?", [.integer(1)]),
            postgreSQL: .sql(#"(SELECT COALESCE(SUM(t1."ZVIEWS"), 0) FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK") > $1"#, [.integer(1)])
        ),
        Row(
            entity: "Photographer",
            format: "photos.@avg.rating > 1",
            sqlite: .sql("(SELECT og_avg(t1.ZRATING) FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK) > ?", [.integer(1)]),
            postgreSQL: .sql(#"(SELECT AVG(t1."ZRATING") FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK") > $1"#, [.integer(1)])
        ),
        Row(
            entity: "Photographer",
            format: "photos.@max.title == 'a'",
            sqlite: .sql("(SELECT MAX(t1.ZTITLE) FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK) = ?", [.text("a")]),
            postgreSQL: .sql(#"(SELECT MAX(t1."ZTITLE") FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK") = $1"#, [.text("a")])
        ),
        Row(
            entity: "Photographer",
            format: "SUBQUERY(photos, $p, $p.views > 5).@count == 2",
            sqlite: .sql("(SELECT COUNT(*) FROM ZPHOTO t1 WHERE t1.ZPHOTOGRAPHER = t0.Z_PK AND t1.ZVIEWS > ?) = ?", [.integer(5), .integer(2)]),
            postgreSQL: .sql(
                #"(SELECT COUNT(*) FROM "ZPHOTO" t1 WHERE t1."ZPHOTOGRAPHER" = t0."Z_PK" AND t1."ZVIEWS" > $1) = $2"#,
                [.integer(5), .integer(2)]
            )
        ),
    ]

    static func compile(_ row: Row, dialect: any SQLDialect) throws -> CompiledQuery {
        let stack = try TestStack(inMemory: true)
        let store = try #require(try stack.container.viewContext.store() as? SQLiteStore)
        let arguments: [Any?] = try row.arguments.map { argument -> Any? in
            switch argument {
            case .decimal(let text): try Self.decimal(text)
            case .decimals(let texts): try texts.map(Self.decimal)
            case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
            case .photo(let key): ManagedObjectID(storeIdentifier: store.identifier, entityName: "Photo", primaryKey: key)
            }
        }
        let predicate = try FetchPredicate(parsing: row.format, argumentArray: arguments)
        return try store.compile(predicate, entity: row.entity, dialect: dialect)
    }

    static func decimal(_ text: String) throws -> Decimal {
        let decimal: Decimal? = Decimal(string: text)
        return try #require(decimal)
    }

    static func check(_ compiled: CompiledQuery, _ expected: Expected, _ dialect: any SQLDialect) {
        switch (compiled, expected) {
        case (.sql(let sql), .sql(let text, let arguments, let joins)):
            #expect(sql.whereClause == " WHERE " + text)
            #expect(sql.arguments == arguments)
            #expect(sql.joins == joins)
            #expect(DialectCheck.problems(sql.text, arguments: sql.arguments.count, dialect: dialect) == [])
        case (.inMemory, .inMemory):
            break
        default:
            Issue.record("compiled to \(compiled), expected \(expected)")
        }
    }

    @Test("SQLite's SQL for each operator", arguments: rows)
    func sqlite(_ row: Row) throws {
        Self.check(try Self.compile(row, dialect: SQLiteDialect()), row.sqlite, SQLiteDialect())
    }

    @Test("PostgreSQL's SQL for each operator", arguments: rows)
    func postgreSQL(_ row: Row) throws {
        Self.check(try Self.compile(row, dialect: PostgreSQLDialect()), row.postgreSQL, PostgreSQLDialect())
    }

    @Test("without its diacritic folding function, PostgreSQL evaluates [d] in memory and still compiles [c]")
    func withoutDiacriticFolding() throws {
        let dialect = PostgreSQLDialect(diacriticFolding: false)
        for format in ["title ==[d] 'e'", "title CONTAINS[cd] 'e'", "subtitle ==[d] title", "title LIKE[d] 'e*'"] {
            let compiled = try Self.compile(Row(format: format, sqlite: .inMemory, postgreSQL: .inMemory), dialect: dialect)
            #expect(compiled == .inMemory(reason: "[d] needs the store's diacritic folding function"), "\(format)")
        }
        let folded = try Self.compile(Row(format: "title ==[c] 'E'", sqlite: .inMemory, postgreSQL: .inMemory), dialect: dialect)
        Self.check(folded, .sql(#"objectgraph_fold_case(t0."ZTITLE") = objectgraph_fold_case($1)"#, [.text("E")]), dialect)
    }
}
