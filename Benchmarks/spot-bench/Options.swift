import Foundation

/// The command line: `spot-bench [--runs N] [--filter TEXT] [--quick] [--postgres URL]`.
struct Options {
    var runs = 5
    var filter: String?
    var contender: String?
    var quick = false
    /// The PostgreSQL server of the PostgreSQL benchmarks (`--postgres`, else
    /// `$SPOT_BENCH_POSTGRES_URL`); without one they do not run.
    var postgres: PostgresServer?

    static let usage = """
        usage: spot-bench [--runs N] [--filter TEXT] [--contender TEXT] [--quick] [--postgres URL [--fluent-bench PATH]]
          --runs N       runs per contender; the median is reported (default 5)
          --filter TEXT  only benchmarks whose name contains TEXT (case-insensitive)
          --contender T  only contenders whose name contains T (for profiling one contender;
                 several texts separated by | select each one's contenders)
          --quick        small data sizes, for a smoke run
          --postgres URL also the PostgreSQL benchmarks, on postgres://user@host:port/database
                         (default $SPOT_BENCH_POSTGRES_URL); each makes a schema of its own and drops it
          --fluent-bench PATH  the Fluent contender's executable (default
                         Benchmarks/fluent-bench/.build/release/fluent-bench; build it with
                         swift build -c release --package-path Benchmarks/fluent-bench)
        """

    init(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var rest = arguments[...]
        var postgresURL = environment[PostgresServer.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
        var fluentBench: String?
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs":
                guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                    throw OptionsError(message: "--runs needs a positive number")
                }
                runs = value
            case "--filter":
                guard let text = rest.popFirst() else { throw OptionsError(message: "--filter needs a text") }
                filter = text
            case "--contender":
                guard let text = rest.popFirst() else { throw OptionsError(message: "--contender needs a text") }
                contender = text
            case "--quick":
                quick = true
            case "--postgres":
                guard let text = rest.popFirst() else { throw OptionsError(message: "--postgres needs a postgres:// URL") }
                postgresURL = text
            case "--fluent-bench":
                guard let text = rest.popFirst() else { throw OptionsError(message: "--fluent-bench needs a path") }
                fluentBench = text
            case "--help", "-h":
                throw OptionsError(message: "")
            default:
                throw OptionsError(message: "unknown argument \(argument)")
            }
        }
        if let postgresURL { postgres = try PostgresServer(url: postgresURL, fluentBench: fluentBench) }
    }
}

struct OptionsError: Error {
    let message: String
}
