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
    /// Whether every contender read or wrote the same thing.
    var checksumsAgree: Bool { Set(rows.map(\.checksum)).count <= 1 }
}

/// Prints results as one Markdown table.
enum Report {
    static func table(_ results: [BenchmarkResult]) -> String {
        var lines = [
            "| benchmark | contender | median | × raw C | × GRDB |",
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
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(digits)f %@", value, unit.symbol)
    }

    static func ratio(_ value: Double, _ reference: Double) -> String {
        guard reference > 0 else { return "–" }
        return String(format: "%.2f×", value / reference)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
