import Foundation
import Testing

@testable import ObjectGraph
import ObjectGraphPostgres

/// What a ``SQLDialect`` decides besides predicates: quoting, placeholders, limits, sort
/// terms and LIKE patterns.
@Suite("SQL dialects")
struct SQLDialectTests {
    @Test("identifiers: SQLite's as they are, PostgreSQL's quoted (quotes doubled)")
    func quoting() {
        #expect(SQLiteDialect().column("t0", "Z_PK") == "t0.Z_PK")
        #expect(PostgreSQLDialect().column("t0", "Z_PK") == #"t0."Z_PK""#)
        #expect(PostgreSQLDialect().quoted(#"a"b"#) == #""a""b""#)
    }

    @Test("placeholders: ? in SQLite, numbered in PostgreSQL")
    func placeholders() {
        #expect(SQLiteDialect().placeholder(3) == "?")
        #expect(PostgreSQLDialect().placeholder(3) == "$3")
    }

    @Test("limit and offset, numbered after the query's arguments")
    func limits() {
        let sqlite = SQLiteDialect()
        #expect(sqlite.limitClause(limit: 0, offset: 0, firstPlaceholder: 1) == ("", []))
        #expect(sqlite.limitClause(limit: 5, offset: 0, firstPlaceholder: 3) == (" LIMIT ? OFFSET ?", [.integer(5), .integer(0)]))
        #expect(sqlite.limitClause(limit: 0, offset: 2, firstPlaceholder: 1) == (" LIMIT ? OFFSET ?", [.integer(-1), .integer(2)]))
        let postgreSQL = PostgreSQLDialect()
        #expect(postgreSQL.limitClause(limit: 0, offset: 0, firstPlaceholder: 1) == ("", []))
        #expect(postgreSQL.limitClause(limit: 5, offset: 1, firstPlaceholder: 3) == (" LIMIT $3 OFFSET $4", [.integer(5), .integer(1)]))
        #expect(postgreSQL.limitClause(limit: 0, offset: 2, firstPlaceholder: 2) == (" OFFSET $2", [.integer(2)]))
    }

    @Test("the primary-key tie-breaker")
    func tieBreaker() {
        #expect(SQLCompiler.orderClause(terms: ["a ASC"], alias: "t0", breakingTies: true, dialect: SQLiteDialect()) == " ORDER BY a ASC, t0.Z_PK ASC")
        #expect(
            SQLCompiler.orderClause(terms: ["a ASC"], alias: "t0", breakingTies: true, dialect: PostgreSQLDialect())
                == #" ORDER BY a ASC, t0."Z_PK" ASC"#
        )
        #expect(SQLCompiler.orderClause(terms: [], alias: "t0", breakingTies: false, dialect: PostgreSQLDialect()) == "")
    }

    struct SortRow: Sendable, CustomTestStringConvertible {
        let sort: FetchSortDescriptor
        let sqlite: String
        let postgreSQL: String
        var joins: [String] = []
        /// The sort keys PostgreSQL's store reads to sort in memory, instead of `postgreSQL`.
        var postgreSQLInMemory: [String]? = nil
        var testDescription: String { sort.description }
    }

    static let sortRows: [SortRow] = [
        SortRow(
            sort: FetchSortDescriptor(key: "title", ascending: true),
            sqlite: "t0.ZTITLE ASC",
            postgreSQL: #"t0."ZTITLE" COLLATE "C" ASC NULLS FIRST"#
        ),
        SortRow(
            sort: FetchSortDescriptor(key: "title", ascending: false, selector: .caseInsensitiveCompare),
            sqlite: "t0.ZTITLE COLLATE OG_CASE_INSENSITIVE DESC",
            postgreSQL: #"objectgraph_fold_case(t0."ZTITLE") COLLATE "C" DESC NULLS LAST"#
        ),
        SortRow(
            sort: FetchSortDescriptor(key: "title", ascending: true, selector: .localizedCompare),
            sqlite: "t0.ZTITLE COLLATE OG_LOCALIZED ASC",
            postgreSQL: "",
            postgreSQLInMemory: [#"t0."ZTITLE""#]
        ),
        SortRow(
            sort: FetchSortDescriptor(key: "photographer.name", ascending: true, selector: .localizedStandardCompare),
            sqlite: "t1.ZNAME COLLATE OG_LOCALIZED_STANDARD ASC",
            postgreSQL: "",
            joins: ["LEFT JOIN ZPHOTOGRAPHER t1 ON t1.Z_PK = t0.ZPHOTOGRAPHER"],
            postgreSQLInMemory: [#"t1."ZNAME""#]
        ),
        SortRow(sort: FetchSortDescriptor(key: "views", ascending: true), sqlite: "t0.ZVIEWS ASC", postgreSQL: #"t0."ZVIEWS" ASC NULLS FIRST"#),
        SortRow(sort: FetchSortDescriptor(key: nil, ascending: false), sqlite: "t0.Z_PK DESC", postgreSQL: #"t0."Z_PK" DESC"#),
    ]

    @Test("sort terms: collations, case folding and where NULLs go", arguments: sortRows)
    func sortTerms(_ row: SortRow) throws {
        let stack = try TestStack(inMemory: true)
        let store = try #require(try stack.container.viewContext.store() as? SQLiteStore)
        let sqlite = try store.compile(nil, sorts: [row.sort], dialect: SQLiteDialect())
        #expect(sqlite == .sql(CompiledQuery.SQL(joins: row.joins, whereClause: "", order: [row.sqlite])))
        let postgreSQL = try store.compile(nil, sorts: [row.sort], dialect: PostgreSQLDialect())
        let quotedJoins = row.joins.isEmpty ? [] : [#"LEFT JOIN "ZPHOTOGRAPHER" t1 ON t1."Z_PK" = t0."ZPHOTOGRAPHER""#]
        if let keys = row.postgreSQLInMemory {
            // Foundation's collation is not the server's: the store reads the keys and sorts.
            #expect(postgreSQL == .sql(CompiledQuery.SQL(joins: quotedJoins, whereClause: "", order: [], inMemorySortKeys: keys)))
        } else {
            #expect(postgreSQL == .sql(CompiledQuery.SQL(joins: quotedJoins, whereClause: "", order: [row.postgreSQL])))
        }
    }

    @Test(
        "NSPredicate LIKE patterns as SQL LIKE patterns",
        arguments: [
            ("a*", "a%"), ("?b", "_b"), (#"\*"#, "*"), (#"\?"#, "?"), ("100%", #"100\%"#), ("a_b", #"a\_b"#),
            (#"\\"#, #"\\"#), (#"x\"#, #"x\\"#), ("", ""),
        ]
    )
    func likePatterns(pattern: String, sql: String) {
        #expect(PostgreSQLDialect.likePattern(pattern) == sql)
    }

    @Test("literal text inside a LIKE pattern")
    func escapedForLike() {
        #expect(PostgreSQLDialect.escapedForLike(#"50%_off\"#) == #"50\%\_off\\"#)
        #expect(PostgreSQLDialect.escapedForLike("Zoë") == "Zoë")
    }
}
