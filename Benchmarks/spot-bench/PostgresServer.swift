import Foundation
import Logging
import ObjectGraph
import ObjectGraphPostgres
import PostgresNIO
import Synchronization

/// The PostgreSQL server the PostgreSQL benchmarks run against (`--postgres URL` or
/// `$SPOT_BENCH_POSTGRES_URL`), and where the Fluent contender's executable is.
///
/// Every data set lives in a schema of its own (``PostgresSchema``), created for the benchmark
/// and dropped when its contenders are done; nothing else in the database is touched.
struct PostgresServer: Sendable {
    /// Benchmarks on this server are named with this prefix; `Report` prints them in a table of
    /// their own, against raw postgres-nio and Fluent.
    static let benchmarkPrefix = "PostgreSQL: "
    /// The environment variable naming the server when `--postgres` does not.
    static let urlVariable = "SPOT_BENCH_POSTGRES_URL"

    /// `postgres://user[:password]@host[:port]/database`, without a schema.
    let url: String
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// fluent-bench's executable, when built.
    let fluentBench: URL?
    /// Where fluent-bench was looked for, for the "not built" row.
    let fluentBenchLookedAt: String

    /// - Parameter fluentBench: `--fluent-bench PATH`; by default
    ///   `Benchmarks/fluent-bench/.build/release/fluent-bench` in the current directory or in the
    ///   package this executable was built in.
    init(url text: String, fluentBench path: String?) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw OptionsError(message: "--postgres needs a postgres://user@host:port/database URL, not \(text)")
        }
        guard components.queryItems?.isEmpty ?? true else {
            throw OptionsError(message: "--postgres takes no query (each benchmark makes a schema of its own): \(text)")
        }
        url = text
        self.host = host
        port = components.port ?? 5432
        user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password
        let name = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = name.isEmpty ? user : name
        let candidates: [String]
        if let path {
            candidates = [path]
        } else {
            let relative = "Benchmarks/fluent-bench/.build/release/fluent-bench"
            var found = [FileManager.default.currentDirectoryPath + "/" + relative]
            // <package>/.build/<configuration>/spot-bench (or .build/<triple>/<configuration>/…)
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
                while directory.path != "/" {
                    if directory.lastPathComponent == ".build" {
                        found.append(directory.deletingLastPathComponent().appendingPathComponent(relative).path)
                        break
                    }
                    directory = directory.deletingLastPathComponent()
                }
            }
            candidates = found
        }
        fluentBench = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
        fluentBenchLookedAt = candidates.first ?? ""
    }

    /// The settings line printed under the PostgreSQL table.
    var settingsNote: String {
        let fluent = fluentBench.map { "fluent-bench at \($0.path)" } ?? "fluent-bench not built"
        return
            "PostgreSQL: \(redactedURL), server defaults (synchronous_commit on); each benchmark's data in a schema of its own, dropped afterwards; each contender's connection is open before its clock starts; \(fluent)"
    }

    /// The URL without its password.
    var redactedURL: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// A new, empty schema (`spot_bench_<pid>_<n>_<label>`), dropped when the returned object goes.
    func newSchema(_ label: String) throws -> PostgresSchema {
        try PostgresSchema(server: self, label: label)
    }

    /// A configuration of postgres-nio's client for this server, with `schema` first on the
    /// search path (as ObjectGraph's store sets it).
    func clientConfiguration(schema: String) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: .disable
        )
        configuration.options.additionalStartupParameters = [("search_path", "\"\(schema)\", public")]
        return configuration
    }
}

/// A schema of the server holding one benchmark's data, and a raw postgres-nio client whose
/// search path starts with it. Dropped (with everything in it) when the object is released,
/// i.e. when the benchmark's contenders are done.
final class PostgresSchema: @unchecked Sendable {
    // @unchecked Sendable: every property is set in init and never changed; the client is Sendable.

    let server: PostgresServer
    let name: String
    /// The schema's URL, as ObjectGraph's PostgreSQL store takes it (`…?schema=name`).
    let url: URL
    /// postgres-nio's pool on the schema, its `run()` started.
    let client: PostgresClient
    private let runTask: Task<Void, Never>

    private static let counter = Atomic<Int>(0)

    fileprivate init(server: PostgresServer, label: String) throws {
        self.server = server
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        name = "spot_bench_\(getpid())_\(number)_\(label)"
        guard let url = URL(string: server.url + "?schema=" + name) else {
            throw RawConnection.Failure(description: "cannot make a schema URL from \(server.redactedURL)")
        }
        self.url = url
        let client = PostgresClient(configuration: server.clientConfiguration(schema: name))
        self.client = client
        runTask = Task.detached { await client.run() }
        let quoted = "\"\(name)\""
        try blocking { _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(quoted)")).collect() }
    }

    deinit {
        let quoted = "\"\(name)\""
        let client = client
        do {
            try blocking { _ = try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(quoted) CASCADE")).collect() }
        } catch {
            FileHandle.standardError.write(Data("spot-bench: could not drop schema \(name): \(error)\n".utf8))
        }
        runTask.cancel()
    }

    /// Flushes every earlier run's writes (dirty pages, dropped schemas) with a `CHECKPOINT`, so
    /// that the server's background writes do not land in the next contender's measured run.
    /// A server that refuses (no superuser or `pg_checkpoint` role) is left as it is.
    func settle() {
        try? execute("CHECKPOINT")
    }

    /// Runs statements that return no rows of interest.
    func execute(_ sql: String...) throws {
        let client = client
        for statement in sql { try blocking { _ = try await client.query(PostgresQuery(unsafeSQL: statement)).collect() } }
    }

    /// The first column of the first row of `sql`, as an integer.
    func int(_ sql: String) throws -> Int64 {
        let client = client
        return try blocking {
            try await client.query(PostgresQuery(unsafeSQL: sql)).collect().first?.decode(Int64?.self) ?? 0
        }
    }

    /// The first column of every row of `sql`, as text.
    func strings(_ sql: String) throws -> [String] {
        let client = client
        return try blocking {
            var result: [String] = []
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql)) { result.append(try row.decode(String.self)) }
            return result
        }
    }

    /// An ObjectGraph container with one PostgreSQL store on this schema (its tables created
    /// when the schema has none), loaded.
    func container(_ model: ManagedObjectModel) throws -> PersistentContainer {
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        let container = PersistentContainer(name: "Bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgreSQLURL: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Copies `rows` of `columns` into `table` with `COPY … FROM STDIN` (text format), in
    /// buffers of about 1 MB. `row(i, &buffer)` writes row `i`'s values, tab-separated, without
    /// the newline.
    func copy(into table: String, columns: [String], rows: Int, row: @escaping @Sendable (Int, inout ByteBuffer) -> Void) throws {
        let client = client
        try blocking {
            try await client.withConnection { connection in
                try await connection.copyFrom(table: table, columns: columns, logger: PostgresSchema.logger) { writer in
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(1 << 20)
                    for index in 0..<rows {
                        row(index, &buffer)
                        buffer.writeInteger(UInt8(ascii: "\n"))
                        if buffer.readableBytes >= 1 << 20 {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
            }
        }
    }

    static let logger = Logger(label: "spot-bench.postgres")
}

extension ByteBuffer {
    /// Writes item `row` of `count` (its key, the entity code, version 1 and ten values) as a
    /// line of COPY's text format, without the newline.
    mutating func writeItemRow(_ row: Int64, entity: Int64, of count: Int64) {
        writeDecimal(row)
        writeInteger(UInt8(ascii: "\t"))
        writeDecimal(entity)
        writeString("\t1")
        for column in 0..<10 {
            writeInteger(UInt8(ascii: "\t"))
            writeDecimal(Models.value(row: row, column: column, of: count))
        }
    }

    /// Writes `value` in decimal, as COPY's text format reads it (no `String` in between).
    mutating func writeDecimal(_ value: Int64) {
        if value < 0 { writeInteger(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // scratch for the 20 digits at most
        let count = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return scratch.count - index
        }
        withUnsafeBytes(of: &digits) { scratch in
            _ = writeBytes(UnsafeRawBufferPointer(rebasing: scratch[(scratch.count - count)...]))
        }
    }
}
