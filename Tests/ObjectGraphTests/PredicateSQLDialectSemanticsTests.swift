import Foundation
import Testing

@testable import ObjectGraph

/// The rows of ``PredicateSQLSemanticsTests`` compiled in every ``SQLDialect``: each compiles
/// to SQL that reads as its database's (placeholders, quoting, no SQLite function on
/// PostgreSQL), or — on PostgreSQL without diacritic folding, for `[d]` alone — falls back to
/// evaluation in memory. The SQLite rows also run through the store there; the PostgreSQL
/// answers are compared with memory once a server runs in the tests.
@Suite("Predicate semantics compiled in each dialect")
struct PredicateSQLDialectSemanticsTests {
    typealias Semantics = PredicateSQLSemanticsTests

    @Test("every documented row compiles in each dialect", arguments: Semantics.rows, DialectCase.allCases)
    func row(_ row: Semantics.Row, dialect: DialectCase) throws {
        let stack = try TestStack(inMemory: true)
        try Semantics.Fixture.populate(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let objects = try Semantics.Fixture.objects(in: context)
            let arguments = try row.arguments.map { try Semantics.Fixture.argument($0, objects) }
            let predicate = try FetchPredicate(parsing: row.format, argumentArray: arguments)
            let store = try #require(try context.store() as? SQLiteStore)
            let compiled = try store.compile(predicate, entity: row.entity, dialect: dialect.dialect)
            let foldsDiacritics = row.format.contains("d]")
            switch compiled {
            case .sql(let sql):
                #expect(DialectCheck.problems(sql.text, arguments: sql.arguments.count, dialect: dialect.dialect) == [], "\(sql.text)")
                #expect(!(dialect == .postgreSQLWithoutDiacriticFolding && foldsDiacritics), "[d] without diacritic folding: \(sql.text)")
            case .inMemory(let reason):
                #expect(dialect == .postgreSQLWithoutDiacriticFolding && foldsDiacritics, "falls back to memory: \(reason)")
            }
        }
    }

    @Test("every documented sort compiles in each dialect", arguments: Semantics.sortRows, DialectCase.allCases)
    func sort(_ row: Semantics.SortRow, dialect: DialectCase) throws {
        let stack = try TestStack(inMemory: true)
        let store = try #require(try stack.container.viewContext.store() as? SQLiteStore)
        let compiled = try store.compile(nil, sorts: row.sorts, dialect: dialect.dialect)
        guard case .sql(let sql) = compiled else {
            Issue.record("a sort without a predicate falls back to memory: \(compiled)")
            return
        }
        #expect(DialectCheck.problems(sql.text, arguments: sql.arguments.count, dialect: dialect.dialect) == [], "\(sql.text)")
        #expect(sql.order.count == row.sorts.count)
        if dialect != .sqlite {
            // PostgreSQL puts NULLs last when ascending unless told; the evaluator puts them first.
            for (term, sort) in zip(sql.order, row.sorts) {
                #expect(term.hasSuffix(sort.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"), "\(term)")
            }
        }
    }

    @Test("every decimal row compiles in each dialect", arguments: Semantics.ledgerRows, DialectCase.allCases)
    func ledger(_ row: Semantics.LedgerRow, dialect: DialectCase) throws {
        let stack = try TestStack(inMemory: true, model: Semantics.ledgerModel())
        let store = try #require(try stack.container.viewContext.store() as? SQLiteStore)
        let arguments: [Any?] = try row.decimal.map { [try PredicateSQLDialectTests.decimal($0)] } ?? []
        let predicate = try FetchPredicate(parsing: row.format, argumentArray: arguments)
        let compiled = try store.compile(predicate, entity: row.entity, dialect: dialect.dialect)
        guard case .sql(let sql) = compiled else {
            Issue.record("a decimal comparison falls back to memory: \(compiled)")
            return
        }
        #expect(DialectCheck.problems(sql.text, arguments: sql.arguments.count, dialect: dialect.dialect) == [], "\(sql.text)")
        if dialect != .sqlite {
            // Decimals are NUMERIC: no text collation, bound as decimals, never as text.
            #expect(!sql.arguments.contains { if case .text = $0 { true } else { false } }, "\(sql.arguments)")
        }
    }
}
