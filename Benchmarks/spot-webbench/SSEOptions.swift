import Foundation

/// `spot-webbench --sse SCENARIO`: event-stream fan-out of a `spot serve` child (issue 41).
/// The defaults are the figures; every one has a flag, and `--quick` shrinks them all
/// for a run of a few minutes.
struct SSEOptions {
    enum Scenario: String, CaseIterable {
        case fanout, mixed, churn, size
        case twoInstances = "two-instances"
        case all
    }

    static let usage = """
        USAGE: spot-webbench --sse fanout|mixed|churn|size|two-instances|all [flags]

        Runs `spot serve` (the `spot` built beside spot-webbench) on a data folder of its own and
        measures its event streams (`GET /events?list=tags/NAME`) with a SwiftNIO client in
        this process. Prints a Markdown table, with the issue's targets beside the figures.

          fanout         connections on one list, opened up to each of --counts: server RSS per
                         idle connection, one hide → the change on every connection (p50/p99),
                         `/` p99 idle and during the largest count, SIGTERM with all of them open;
                         writes the graph to --svg
          mixed          --mixed-connections over --lists lists, --writes-per-second hides and
                         unhides for --duration seconds: p99, RSS after warm-up
          churn          --connect-rate connects/s for --duration seconds, each dropped
                         mid-stream, with writes and one refresh: `/health` every 250 ms, RSS
                         and open sockets before and after
          size           server CPU per change on a --big-rows list against a --small-rows list
          two-instances  two `spot serve` on --postgres URL, --per-instance connections each,
                         hides on A, p50/p99 on B
          all            each of the above in turn (two-instances only with --postgres)

        FLAGS:
          --counts LIST            fan-out connection counts (default 100,1000,2000,5000,10000)
          --rounds N               hides per count (default 10)
          --rows N                 photos in the fanned-out spot (default 20)
          --page-seconds N         how long `/` is requested, idle and loaded (default 10)
          --mixed-connections N    (default 1000)
          --lists N                (default 100)
          --writes-per-second N    (default 50)
          --duration N             seconds of mixed and churn (default 60)
          --connect-rate N         churn connects per second (default 500)
          --big-rows N             (default 100000)
          --small-rows N           (default 10)
          --changes N              changes per list in size (default 200)
          --per-instance N         two-instances connections per instance (default 5000)
          --client-threads N       the client's event loops (default 1)
          --svg PATH               the fan-out graph (default Benchmarks/fanout.svg when run
                                   from the package, else fanout.svg)
          --quick                  counts 100,500, 3 rounds, 200 connections over 20 lists for
                                   10 s, churn 200/s for 10 s, 10,000 big rows, 500 per instance
        """

    /// The flags ``parse(_:value:)`` takes, each with a value but `--quick`.
    static let flags: Set<String> = [
        "--counts", "--rounds", "--rows", "--page-seconds", "--mixed-connections", "--lists", "--writes-per-second",
        "--duration", "--connect-rate", "--big-rows", "--small-rows", "--changes", "--per-instance", "--client-threads",
        "--svg", "--quick",
    ]

    var scenario = Scenario.all
    var counts = [100, 1_000, 2_000, 5_000, 10_000]
    var rounds = 10
    var rows = 20
    var pageSeconds = 10
    var mixedConnections = 1_000
    var lists = 100
    var writesPerSecond = 50
    var duration = 60
    var connectRate = 500
    var bigRows = 100_000
    var smallRows = 10
    var changes = 200
    var perInstance = 5_000
    var clientThreads = 1
    var svg: String?

    /// Sets `flag` from `value` (`--quick` takes none; flags after it override its values).
    mutating func parse(_ flag: String, value: String?) throws {
        if flag == "--quick" {
            counts = [100, 500]
            rounds = 3
            pageSeconds = 3
            mixedConnections = 200
            lists = 20
            duration = 10
            connectRate = 200
            bigRows = 10_000
            changes = 50
            perInstance = 500
            return
        }
        guard let value else { throw BenchError("\(flag) needs a value") }
        if flag == "--svg" {
            svg = value
            return
        }
        if flag == "--counts" {
            let numbers = value.split(separator: ",").compactMap { Int($0.filter { $0 != "_" }) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 > 0 }) else { throw BenchError("--counts needs positive numbers, e.g. 100,1000") }
            counts = numbers.sorted()
            return
        }
        guard let number = Int(value.filter { $0 != "_" }), number > 0 else { throw BenchError("\(flag) needs a positive number, not '\(value)'") }
        switch flag {
        case "--rounds": rounds = number
        case "--rows": rows = number
        case "--page-seconds": pageSeconds = number
        case "--mixed-connections": mixedConnections = number
        case "--lists": lists = number
        case "--writes-per-second": writesPerSecond = number
        case "--duration": duration = number
        case "--connect-rate": connectRate = number
        case "--big-rows": bigRows = number
        case "--small-rows": smallRows = number
        case "--changes": changes = number
        case "--per-instance": perInstance = number
        default: clientThreads = number
        }
    }

    /// Where the fan-out graph goes.
    var svgPath: String {
        if let svg { return svg }
        return FileManager.default.fileExists(atPath: "Benchmarks/RESULTS.md") ? "Benchmarks/fanout.svg" : "fanout.svg"
    }
}
