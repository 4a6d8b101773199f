import Foundation
import ObjectGraph
import ObjectGraphPostgres

// spot-webbench: the web server under load, with wrk on loopback.
//
// `swift run -c release spot-webbench [--seconds N] [--connections N]` serves a database
// holding a 500-photo spot, and measures with wrk (Debian's package) the Spots page and the
// 500-photo spot's page at 64 connections: throughput and latency percentiles, first idle,
// then while the importer saves pages of new photos into the same database (what a refresh
// does: one save per page, merged into every live list). Prints a Markdown table with the
// p99 ratio (target: during an import ≤ 2× idle). First, each list page against a static file
// of its size from the same server (the page's own body, served under `/static/`): the
// page-to-static ratio (target: a list page within 2× of the static file).
//
// `--postgres URL` measures two instances on one PostgreSQL database instead (issue 24): this
// process serves and imports as instance A, a `spot serve` child serves as instance B; per
// instance, requests/s and p99 idle and during A's import, and wrk's errors (none expected).
//
// `--sse SCENARIO` measures the event streams of a `spot serve` child with a SwiftNIO client
// (issue 41): fan-out to thousands of connections, many lists under steady writes, connection
// churn, list size, and two instances on PostgreSQL (see SSEOptions.usage).

do {
    // The app wires its store at its root: `--postgres` opens SPoT on PostgreSQL.
    PersistentStoreCoordinator.registerPostgreSQLStoreType()
    let options = try Options(CommandLine.arguments)
    if options.showsHelp {
        print(Options.usage)
    } else if let sse = options.sse {
        try await benchmarkEventStreams(sse, postgres: options.postgres)
    } else if let postgres = options.postgres {
        try await benchmarkTwoInstances(options, postgres: postgres)
    } else {
        try await benchmarkOneInstance(options)
    }
} catch {
    FileHandle.standardError.write(Data("spot-webbench: \(error)\n".utf8))
    exit(64)
}
