import Foundation

/// Runs the selected benchmarks and prints the header, progress and the results table.
struct BenchmarkRunner {
    let options: Options

    /// Runs everything; returns the process exit status.
    func run() -> Int32 {
        let sizes = options.quick ? Sizes.quick : Sizes.full
        let benchmarks = BenchmarkList.all(sizes: sizes, postgres: options.postgres).filter { benchmark in
            options.filter.map { benchmark.name.localizedCaseInsensitiveContains($0) } ?? true
        }
        print("# spot-bench: ObjectGraph vs GRDB vs raw SQLite C")
        print("")
        for line in MachineInfo.lines { print("- \(line)") }
        print(
            "- settings: SQLite files in a temporary directory; journal_mode=WAL and synchronous=NORMAL for every contender (GRDB DatabasePool defaults, set by hand on the raw C connection); the same table (ObjectGraph's ZITEM/ZPHOTO/ZTAG shape, index on ZA) for all"
        )
        if let postgres = options.postgres { print("- \(postgres.settingsNote)") }
        print(
            "- runs: median of \(options.runs) run(s) per contender\(options.quick ? "; --quick sizes (smoke run, not comparable with full runs)" : "")"
        )
        print("")
        if benchmarks.isEmpty {
            print("no benchmark matches --filter \(options.filter ?? "")")
            return 1
        }
        let workspace: Workspace
        do {
            workspace = try Workspace(sizes: sizes)
        } catch {
            print("spot-bench: cannot create the workspace: \(error)")
            return 1
        }
        defer { workspace.removeAll() }
        var results: [BenchmarkResult] = []
        var failed = false
        for benchmark in benchmarks {
            do {
                results.append(try run(benchmark, in: workspace))
            } catch {
                print("  FAILED: \(error)")
                failed = true
            }
        }
        print("")
        print(Report.table(results))
        print("")
        for benchmark in benchmarks { for note in benchmark.notes { print("- \(note)") } }
        if results.contains(where: { !$0.checksumsAgree }) {
            print("- ⚠︎ some contenders' checksums differ: they did not do the same work")
            failed = true
        }
        return failed ? 1 : 0
    }

    private func run(_ benchmark: any Benchmark, in workspace: Workspace) throws -> BenchmarkResult {
        print("\(benchmark.name): preparing data…")
        let contenders = try benchmark.contenders(in: workspace).filter { contender in
            options.contender.map { $0.split(separator: "|").contains { contender.name.localizedCaseInsensitiveContains($0) } } ?? true
        }
        let runs = benchmark.fixedRuns ?? options.runs
        // Runs are interleaved (contender 1, 2, 3, 1, 2, 3, …) so that a burst of load on a
        // shared machine spreads over every contender instead of skewing one.
        var values = Array(repeating: [Double](), count: contenders.count)
        var checksums = Array(repeating: Int64(0), count: contenders.count)
        for _ in 0..<runs {
            for (index, contender) in contenders.enumerated() {
                let sample = try contender.run()
                values[index].append(sample.value)
                checksums[index] = sample.checksum
            }
        }
        var rows: [BenchmarkResult.Row] = []
        for (index, contender) in contenders.enumerated() {
            let median = Report.median(values[index])
            print(
                "  \(contender.name): \(Report.figure(median, benchmark.unit)) (runs: \(values[index].map { Report.figure($0, benchmark.unit) }.joined(separator: ", ")))"
            )
            rows.append(.init(contender: contender.name, role: contender.role, median: median, checksum: checksums[index]))
        }
        return BenchmarkResult(name: benchmark.name, unit: benchmark.unit, runs: runs, rows: rows)
    }
}
