import Foundation

/// The Fluent contender: `Benchmarks/fluent-bench`, a package of its own (Fluent is no
/// dependency of SPoT's), run as a child process for one workload per run. The child times the
/// workload alone (its pool already connected) and prints `fluent-bench workload=… ms=… checksum=…`.
enum FluentBench {
    /// The contender's name in the tables.
    static func contenderName(_ idiom: String) -> String { "Fluent (\(idiom))" }

    /// How to build the child, printed in the row when it is not built.
    static let buildCommand = "swift build -c release --package-path Benchmarks/fluent-bench"

    /// A contender running `workload` with `arguments` on `schema`; when fluent-bench is not
    /// built, a contender whose row says so (a `NaN` sample, see `Report`).
    static func contender(
        _ idiom: String,
        workload: String,
        schema: @escaping () throws -> PostgresSchema,
        arguments: [String] = [],
        checksum: ((PostgresSchema) throws -> Int64)? = nil
    ) -> Contender {
        Contender(name: contenderName(idiom), role: fluentRole) {
            let schema = try schema()
            guard let executable = schema.server.fluentBench else { return Sample(value: .nan, checksum: 0) }
            var sample = try run(executable, workload: workload, schema: schema, arguments: arguments)
            if let checksum { sample.checksum = try checksum(schema) }
            return sample
        }
    }

    /// Fluent plays the part GRDB plays in the SQLite tables: the library ObjectGraph's rows are
    /// also divided by (`Report` heads that column "× Fluent" in the PostgreSQL table).
    static let fluentRole = ContenderRole.grdb

    /// Runs the child and reads its line.
    static func run(_ executable: URL, workload: String, schema: PostgresSchema, arguments: [String]) throws -> Sample {
        let process = Process()
        process.executableURL = executable
        process.arguments = [workload, "--url", schema.server.url, "--schema", schema.name] + arguments
        let output = Pipe()
        // Standard error to a file: it is read only when the child failed.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("fluent-bench-\(getpid())-\(UUID().uuidString.prefix(8)).err")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw RawConnection.Failure(description: "cannot create \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("fluent-bench ") })
        else {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw RawConnection.Failure(
                description: "fluent-bench \(workload) exited with status \(process.terminationStatus): \(message.isEmpty ? text : message)"
            )
        }
        var fields: [Substring: Substring] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let milliseconds = fields["ms"].flatMap({ Double($0) }), let checksum = fields["checksum"].flatMap({ Int64($0) }) else {
            throw RawConnection.Failure(description: "fluent-bench printed no timing: \(line)")
        }
        return Sample(value: milliseconds, checksum: checksum)
    }
}
