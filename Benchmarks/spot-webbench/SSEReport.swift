import Foundation

/// Latencies in milliseconds, and their percentiles (nearest rank).
struct Latencies: Sendable {
    private(set) var sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }

    func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    var p50: Double { percentile(0.50) }
    var p99: Double { percentile(0.99) }
    var max: Double { sorted.last ?? .nan }
}

/// The `--sse` run's Markdown table: each row a figure beside its target, with the machine's
/// load when it was taken.
final class SSETable: @unchecked Sendable {
    // @unchecked Sendable: rows are added by the one task that runs the scenarios, in turn.

    struct Row {
        let what: String
        let target: String
        let measured: String
        /// `nil` when the row has no target of its own (a point of the graph).
        let met: Bool?
        let load: String
    }

    private(set) var rows: [Row] = []
    /// Lines printed under the table: what each scenario saw go wrong, and how it ran.
    private(set) var notes: [String] = []

    func add(_ what: String, target: String, measured: String, met: Bool?) {
        let row = Row(what: what, target: target, measured: measured, met: met, load: loadAverage())
        rows.append(row)
        // Each row as it is made, so that a long run shows its progress.
        say("  → \(what): \(measured)\(met.map { $0 ? " (target met)" : " (target missed)" } ?? "") — load \(row.load)")
    }

    func note(_ text: String) {
        notes.append(text)
        say("  · \(text)")
    }

    var markdown: String {
        var lines = [
            "| What | Target | Measured | Met | Load (1, 5, 15 min) |",
            "|---|---|---|---|---|",
        ]
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "–"
            lines.append("| \(row.what) | \(row.target) | \(row.measured) | \(met) | \(row.load) |")
        }
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Writes a line to standard output at once (print's buffer holds it when piped, and a long
/// run should show its progress).
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Milliseconds as the table shows them: "12.3 ms".
func ms(_ value: Double) -> String {
    value.isNaN ? "–" : value < 10 ? String(format: "%.2f ms", value) : String(format: "%.1f ms", value)
}

/// A number with thousands separators: "10,000".
func grouped(_ value: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.groupingSeparator = ","
    formatter.usesGroupingSeparator = true
    return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
}

/// One point of the fan-out graph.
struct FanoutPoint: Sendable {
    let connections: Int
    let p50: Double
    let p99: Double
}

/// The fan-out graph, drawn by hand: p50 and p99 of one hide's change event against the number
/// of connections on the list (log scale), with the issue's targets as dashed lines.
func fanoutSVG(_ points: [FanoutPoint], title: String) -> String {
    let width = 720.0
    let height = 440.0
    let (left, right, top, bottom) = (70.0, 30.0, 50.0, 60.0)
    let plotWidth = width - left - right
    let plotHeight = height - top - bottom
    let xs = points.map { Double($0.connections) }
    let xMin = log10(max((xs.min() ?? 100) / 1.5, 1))
    let xMax = log10((xs.max() ?? 10_000) * 1.5)
    let highest = max(points.map(\.p99).filter { !$0.isNaN }.max() ?? 0, 250)
    let step = niceStep(highest / 5)
    let yMax = (highest / step).rounded(.up) * step
    func x(_ connections: Double) -> Double { left + (log10(connections) - xMin) / (xMax - xMin) * plotWidth }
    func y(_ milliseconds: Double) -> Double { top + plotHeight - milliseconds / yMax * plotHeight }
    func f(_ value: Double) -> String { String(format: "%.1f", value) }

    var svg = [
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        "<text x=\"\(f(width / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">\(escaped(title))</text>",
    ]
    // Grid and axes.
    var tick = 0.0
    while tick <= yMax + step / 2 {
        svg.append("<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(tick)))\" stroke=\"#e4e4e4\"/>")
        svg.append("<text x=\"\(f(left - 8))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(Int(tick))</text>")
        tick += step
    }
    for connections in xs {
        svg.append("<line x1=\"\(f(x(connections)))\" y1=\"\(f(top))\" x2=\"\(f(x(connections)))\" y2=\"\(f(top + plotHeight))\" stroke=\"#f0f0f0\"/>")
        svg.append("<text x=\"\(f(x(connections)))\" y=\"\(f(top + plotHeight + 18))\" text-anchor=\"middle\">\(grouped(Int(connections)))</text>")
    }
    svg.append("<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"#444\"/>")
    svg.append("<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 16))\" text-anchor=\"middle\">open EventSource connections on one list (log scale)</text>")
    svg.append("<text transform=\"translate(18 \(f(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">hide → change event received (ms)</text>")
    // Targets.
    for (value, label, below) in [(100.0, "p50 target 100 ms", true), (250.0, "p99 target 250 ms", false)] where value <= yMax {
        svg.append("<line x1=\"\(f(left))\" y1=\"\(f(y(value)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(value)))\" stroke=\"#999\" stroke-dasharray=\"6 4\"/>")
        // The two labels apart when the lines are close: p50's under its line, p99's above;
        // at the left, where the fewest connections keep the series low (at the right the
        // largest counts' points and their values would cover them).
        let labelY = below ? y(value) + 14 : y(value) - 5
        svg.append("<text x=\"\(f(left + plotWidth * 0.18))\" y=\"\(f(labelY))\" text-anchor=\"start\" fill=\"#777\">\(label)</text>")
    }
    // Series.
    for (name, color, values) in [("p99", "#c0392b", points.map(\.p99)), ("p50", "#2471a3", points.map(\.p50))] {
        let drawn = zip(xs, values).filter { !$0.1.isNaN }
        let path = drawn.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
        svg.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\"/>")
        for (connections, value) in drawn {
            svg.append("<circle cx=\"\(f(x(connections)))\" cy=\"\(f(y(value)))\" r=\"4\" fill=\"\(color)\"/>")
            svg.append("<text x=\"\(f(x(connections) + 6))\" y=\"\(f(y(value) - 6))\" fill=\"\(color)\">\(String(format: "%.0f", value))</text>")
        }
        let legendY = name == "p99" ? top + 16 : top + 34
        svg.append("<line x1=\"\(f(left + 12))\" y1=\"\(f(legendY - 4))\" x2=\"\(f(left + 36))\" y2=\"\(f(legendY - 4))\" stroke=\"\(color)\" stroke-width=\"2.5\"/>")
        svg.append("<text x=\"\(f(left + 42))\" y=\"\(f(legendY))\">\(name)</text>")
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
}

/// 1, 2 or 5 times a power of ten, at least `value`.
private func niceStep(_ value: Double) -> Double {
    let power = pow(10, floor(log10(max(value, 1))))
    for factor in [1.0, 2.0, 5.0, 10.0] where factor * power >= value { return factor * power }
    return 10 * power
}

private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
}
