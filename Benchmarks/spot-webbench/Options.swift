import Foundation

/// The command line: `spot-webbench [--seconds N] [--connections N] [--threads N] [--postgres URL]`,
/// or `spot-webbench --sse SCENARIO [flags]` (``SSEOptions``).
struct Options {
    static let usage = """
        USAGE: spot-webbench [--seconds N] [--connections N] [--threads N] [--postgres URL]
               spot-webbench --sse fanout|mixed|churn|size|two-instances|all [flags] (--sse-help lists them)

        Serves a database of 2,000 photos (one spot of 500) on loopback and measures its pages
        with wrk (apt-get install -y wrk): each list page against a static file of the page's
        size from the same server, then p50/p99 idle and during an import.

        With --postgres, two instances on one PostgreSQL database instead: this process serves
        one (A) and imports into it, a `spot serve` child (B, the `spot` built beside
        spot-webbench) serves the other; one wrk per instance runs at once, idle and while A
        imports, and each instance's requests/s, p99 and errors are reported.

        OPTIONS:
          --seconds N       how long each wrk run lasts (default 10)
          --connections N   wrk's open connections, per instance (default 64)
          --threads N       wrk's threads, per instance (default 2)
          --postgres URL    two instances on postgres://user[:password]@host[:port]/database,
                            in a schema of their own (spot_webbench_<pid>, dropped afterwards)
          -h, --help        show this help
        """

    var seconds = 10
    var connections = 64
    var threads = 2
    /// `--postgres`: the server the two-instance run uses.
    var postgres: PostgresTarget?
    /// `--help` was given: print ``usage`` and measure nothing.
    var showsHelp = false
    /// `--sse SCENARIO` and its flags: event-stream fan-out of `spot serve` instead of wrk.
    var sse: SSEOptions?

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--help", "-h":
                showsHelp = true
            case "--sse-help":
                print(SSEOptions.usage)
                showsHelp = true
            case "--sse":
                guard let text = iterator.next(), let scenario = SSEOptions.Scenario(rawValue: text) else {
                    throw BenchError("--sse needs a scenario: \(SSEOptions.Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sse = sse ?? SSEOptions()
                sse?.scenario = scenario
            case "--postgres":
                guard let text = iterator.next() else { throw BenchError("--postgres needs a postgres://user@host:port/database URL") }
                postgres = try PostgresTarget(text)
            case "--seconds", "--connections", "--threads":
                guard let text = iterator.next() else { throw BenchError("\(argument) needs a positive number") }
                guard let value = Int(text), value > 0 else { throw BenchError("\(argument) needs a positive number, not '\(text)'") }
                switch argument {
                case "--seconds": seconds = value
                case "--connections": connections = value
                default: threads = value
                }
            case _ where SSEOptions.flags.contains(argument):
                sse = sse ?? SSEOptions()
                try sse?.parse(argument, value: argument == "--quick" ? nil : iterator.next())
            default:
                throw BenchError(
                    "unknown option '\(argument)'; options: --seconds N, --connections N, --threads N, --postgres URL, --sse SCENARIO, --help, --sse-help"
                )
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
