import Foundation

/// Who a contender is: ratios are taken against the baseline (raw SQLite C), and ObjectGraph
/// contenders are also compared with the GRDB contender of the same benchmark.
enum ContenderRole: Sendable {
    /// ObjectGraph, the framework under test.
    case objectGraph
    /// GRDB records or rows, the library ObjectGraph is built on.
    case grdb
    /// The raw SQLite C API: the baseline every ratio divides by.
    case baseline
}

/// What a benchmark measures, and how it prints.
enum MeasurementUnit: Sendable {
    case milliseconds
    case megabytes
    case percent

    var symbol: String {
        switch self {
        case .milliseconds: "ms"
        case .megabytes: "MB"
        case .percent: "%"
        }
    }
}

/// One run of a contender: the measured figure (in the benchmark's unit) and a checksum of
/// what it read or wrote, so contenders can be checked to do the same work (and the work
/// cannot be optimised away).
struct Sample: Sendable {
    var value: Double
    var checksum: Int64
}

/// One way of doing a benchmark's work. `run` sets up whatever it needs that is not measured
/// (fresh files, contexts) and returns one sample.
struct Contender {
    let name: String
    let role: ContenderRole
    let run: () throws -> Sample
}

/// A benchmark: the same work done by several contenders on the same data.
///
/// To add one, write a type conforming to this protocol in its own file and list it in
/// ``BenchmarkList/all``.
protocol Benchmark {
    /// A short name, matched by `--filter`.
    var name: String { get }
    /// What the figures are.
    var unit: MeasurementUnit { get }
    /// Lines printed under the table (caveats, settings specific to this benchmark).
    var notes: [String] { get }
    /// Runs per contender when the benchmark cannot usefully repeat (`nil`: the `--runs` value).
    var fixedRuns: Int? { get }
    /// Prepares data in `workspace` (not measured) and returns the contenders.
    func contenders(in workspace: Workspace) throws -> [Contender]
}

extension Benchmark {
    var unit: MeasurementUnit { .milliseconds }
    var notes: [String] { [] }
    var fixedRuns: Int? { nil }
}

/// Times `body` on the monotonic clock, in milliseconds.
func measureMilliseconds(_ body: () throws -> Int64) rethrows -> Sample {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = try body()
    let end = DispatchTime.now().uptimeNanoseconds
    return Sample(value: Double(end - start) / 1_000_000, checksum: checksum)
}
