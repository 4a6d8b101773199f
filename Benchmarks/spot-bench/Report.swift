import Foundation

/// The measured figures of one benchmark.
struct BenchmarkResult {
    struct Row {
        let contender: String
        let role: ContenderRole
        let median: Double
        let checksum: Int64
    }

    let name: String
    let unit: MeasurementUnit
    let runs: Int
    let rows: [Row]

    var baseline: Double? { rows.first { $0.role == .baseline }?.median }
    /// GRDB at its best: the fastest of its contenders (its Codable and hand-written records).
    var grdb: Double? { rows.filter { $0.role == .grdb }.map(\.median).min() }
    /// Whether every contender read or wrote the same thing (contenders that did not run, such
    /// as an unbuilt fluent-bench, aside).
    var checksumsAgree: Bool { Set(rows.filter { !$0.median.isNaN }.map(\.checksum)).count <= 1 }
}

/// Prints results as one Markdown table.
enum Report {
    /// The SQLite results in one table (against raw SQLite C and GRDB), then the PostgreSQL
    /// results in another (against raw postgres-nio and Fluent).
    static func table(_ results: [BenchmarkResult]) -> String {
        let postgres = results.filter { $0.name.hasPrefix(PostgresServer.benchmarkPrefix) }
        let sqlite = results.filter { !$0.name.hasPrefix(PostgresServer.benchmarkPrefix) }
        var tables: [String] = []
        if !sqlite.isEmpty || postgres.isEmpty { tables.append(table(sqlite, baseline: "raw C", peer: "GRDB")) }
        if !postgres.isEmpty { tables.append(table(postgres, baseline: "raw postgres-nio", peer: "Fluent")) }
        return tables.joined(separator: "\n\n")
    }

    /// One table: ratios to the baseline, and ObjectGraph's to the peer library (GRDB, Fluent).
    private static func table(_ results: [BenchmarkResult], baseline: String, peer: String) -> String {
        var lines = [
            "| benchmark | contender | median | × \(baseline) | × \(peer) |",
            "|---|---|---:|---:|---:|",
        ]
        for result in results {
            for (index, row) in result.rows.enumerated() {
                let vsBaseline = result.baseline.map { ratio(row.median, $0) } ?? "–"
                let vsGRDB = row.role == .objectGraph ? (result.grdb.map { ratio(row.median, $0) } ?? "–") : ""
                let benchmark = index == 0 ? result.name + (result.checksumsAgree ? "" : " ⚠︎ checksums differ") : ""
                lines.append("| \(benchmark) | \(row.contender) | \(figure(row.median, result.unit)) | \(vsBaseline) | \(vsGRDB) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func figure(_ value: Double, _ unit: MeasurementUnit) -> String {
        // A contender that could not run (fluent-bench not built) reports NaN.
        if value.isNaN { return "not built — \(FluentBench.buildCommand)" }
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(digits)f %@", value, unit.symbol)
    }

    static func ratio(_ value: Double, _ reference: Double) -> String {
        guard reference > 0, !value.isNaN else { return "–" }
        return String(format: "%.2f×", value / reference)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
