import FluentKit
import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import NIOPosix

// fluent-bench: one workload of spot-bench's PostgreSQL benchmarks, done with Fluent, timed,
// and reported on one line of standard output:
//
//     fluent-bench WORKLOAD --url postgres://user@host:port/db --schema NAME [--rows N] [--queries Q] [--width W] [--entity CODE]
//     → fluent-bench workload=fetch ms=123.456 checksum=7890
//
// Workloads (the data is spot-bench's, in the schema it names; see Models.swift):
//   insert     --rows N --entity CODE: creates rows 1...N in the empty ZITEM, in one transaction
//   fetch      every ZITEM row as a model, all ten values read
//   predicate  --rows N --queries Q --width W: Q range queries on ZA, ~W models each
//   walk       every photo with its tags eager-loaded (`with(\.$tags)`), each tag's name read
//   list       the whole list sorted by letter then rank, filed into sections by letter
//
// Only the workload is timed: the connection pool is warmed by a first query beforehand, and
// shutting down is not timed. Exit status 0 with the line, or 1 with a message on standard error.

struct Arguments {
    var workload = ""
    var url = ""
    var schema = "public"
    var rows = 0
    var queries = 0
    var width = 0
    var entity: Int32 = 1

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        guard let first = rest.popFirst() else { throw Failure("no workload given") }
        workload = first
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Failure("\(flag) needs a value") }
            switch flag {
            case "--url": url = value
            case "--schema": schema = value
            case "--rows": rows = try Self.number(flag, value)
            case "--queries": queries = try Self.number(flag, value)
            case "--width": width = try Self.number(flag, value)
            case "--entity": entity = Int32(try Self.number(flag, value))
            default: throw Failure("unknown argument \(flag)")
            }
        }
        guard !url.isEmpty else { throw Failure("--url is required") }
    }

    private static func number(_ flag: String, _ text: String) throws -> Int {
        guard let value = Int(text), value >= 0 else { throw Failure("\(flag) needs a number, not \(text)") }
        return value
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The PostgreSQL configuration for `url` (`postgres://user[:password]@host[:port]/database`),
/// without TLS, with `schema` first on the search path.
func configuration(url text: String, schema: String) throws -> SQLPostgresConfiguration {
    guard let components = URLComponents(string: text), let host = components.host, let user = components.user else {
        throw Failure("not a postgres://user@host:port/database URL: \(text)")
    }
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    var configuration = SQLPostgresConfiguration(
        hostname: host,
        port: components.port ?? 5432,
        username: user,
        password: components.password,
        database: path.isEmpty ? user : path,
        tls: .disable
    )
    configuration.searchPath = [schema, "public"]
    return configuration
}

/// Runs the workload on `database`; returns its checksum.
func run(_ arguments: Arguments, on database: any Database) async throws -> Int64 {
    switch arguments.workload {
    case "insert":
        // Fluent's batch create: one multi-row INSERT per call. PostgreSQL takes at most 65,535
        // parameters per statement, so 5,000 rows (65,000 values) per batch, all in one transaction.
        let n = Int64(arguments.rows)
        let entity = arguments.entity
        try await database.transaction { transaction in
            var start: Int64 = 1
            while start <= n {
                let end = min(start + 4_999, n)
                let batch = (start...end).map { FluentItem(row: $0, of: n, entity: entity) }
                try await batch.create(on: transaction)
                start = end + 1
            }
        }
        return 0
    case "fetch":
        var sum: Int64 = 0
        for item in try await FluentItem.query(on: database).sort(\.$id).all() { sum = sum &+ item.sum }
        return sum
    case "predicate":
        let span = Int64(arguments.width)
        var sum: Int64 = 0
        for k in 0..<arguments.queries {
            let lower = Int64((k &* 9_973) % (arguments.rows - arguments.width))
            let items = try await FluentItem.query(on: database)
                .filter(\.$a >= lower)
                .filter(\.$a < lower + span)
                .sort(\.$id)
                .all()
            for item in items { sum = sum &+ item.sum }
        }
        return sum
    case "walk":
        var sum: Int64 = 0
        for photo in try await FluentPhoto.query(on: database).with(\.$tags).sort(\.$id).all() {
            sum = sum &+ Int64(photo.title?.utf8.count ?? 0)
            for tag in photo.tags { sum = sum &+ Int64(tag.name?.utf8.count ?? 0) }
        }
        return sum
    case "list":
        let entries = try await FluentListEntry.query(on: database).sort(\.$letter).sort(\.$rank).all()
        var sections: [(name: String, entries: [FluentListEntry])] = []
        for entry in entries {
            let letter = entry.letter ?? ""
            if sections.last?.name != letter { sections.append((letter, [])) }
            sections[sections.count - 1].entries.append(entry)
        }
        return Int64(sections.reduce(0) { $0 + $1.entries.count })
    default:
        throw Failure("unknown workload \(arguments.workload) (insert, fetch, predicate, walk, list)")
    }
}

func main() async -> Int32 {
    let arguments: Arguments
    do {
        arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("fluent-bench: \(error)\n".utf8))
        return 2
    }
    var logger = Logger(label: "fluent-bench")
    logger.logLevel = .warning
    let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
    var status: Int32 = 0
    do {
        databases.use(.postgres(configuration: try configuration(url: arguments.url, schema: arguments.schema)), as: .psql)
        guard let database = databases.database(logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()) else {
            throw Failure("no database")
        }
        // Warm the pool: the connection is open before the clock starts, as the other contenders'.
        guard let sql = database as? any SQLDatabase else { throw Failure("the PostgreSQL database is no SQLDatabase") }
        try await sql.raw("SELECT 1").run()
        let start = DispatchTime.now().uptimeNanoseconds
        let checksum = try await run(arguments, on: database)
        let end = DispatchTime.now().uptimeNanoseconds
        print("fluent-bench workload=\(arguments.workload) ms=\(Double(end - start) / 1_000_000) checksum=\(checksum)")
    } catch {
        FileHandle.standardError.write(Data("fluent-bench: \(String(reflecting: error))\n".utf8))
        status = 1
    }
    await databases.shutdownAsync()
    return status
}

exit(await main())
