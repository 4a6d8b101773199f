import Foundation

/// The command line: `spot-bench [--runs N] [--filter TEXT] [--quick]`.
struct Options {
    var runs = 5
    var filter: String?
    var contender: String?
    var quick = false

    static let usage = """
        usage: spot-bench [--runs N] [--filter TEXT] [--contender TEXT] [--quick]
          --runs N       runs per contender; the median is reported (default 5)
          --filter TEXT  only benchmarks whose name contains TEXT (case-insensitive)
          --contender T  only contenders whose name contains T (for profiling one contender)
          --quick        small data sizes, for a smoke run
        """

    init(arguments: [String]) throws {
        var rest = arguments[...]
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
            case "--help", "-h":
                throw OptionsError(message: "")
            default:
                throw OptionsError(message: "unknown argument \(argument)")
            }
        }
    }
}

struct OptionsError: Error {
    let message: String
}
