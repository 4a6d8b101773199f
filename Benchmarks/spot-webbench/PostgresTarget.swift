import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server of the two-instance run (`--postgres URL`), and the schema the run
/// keeps its tables in: `spot_webbench_<pid>`, created by the first store that opens it and
/// dropped by ``dropSchema()``.
struct PostgresTarget: Sendable {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// The run's schema.
    let schema: String
    /// The URL both instances open (`…?schema=spot_webbench_<pid>`), password included.
    let schemaURL: URL

    /// - Throws: ``BenchError`` naming `--postgres` when `text` is not a postgres:// URL with a
    ///   host and no query (the run names its own schema).
    init(_ text: String) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw BenchError("--postgres needs a postgres://user@host:port/database URL, not '\(Self.redacted(text))'")
        }
        guard components.queryItems?.isEmpty ?? true else {
            throw BenchError("--postgres takes no query (the run makes a schema of its own): '\(Self.redacted(text))'")
        }
        self.host = host
        port = components.port ?? 5432
        user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password
        let name = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = name.isEmpty ? user : name
        schema = "spot_webbench_\(getpid())"
        var schemaComponents = components
        schemaComponents.queryItems = [URLQueryItem(name: "schema", value: schema)]
        guard let url = schemaComponents.url else { throw BenchError("--postgres: cannot add a schema to '\(Self.redacted(text))'") }
        schemaURL = url
    }

    /// The server without its password, as the report names it.
    var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// Drops the run's schema and everything in it.
    func dropSchema() async throws {
        let configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: .disable
        )
        let client = PostgresClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE")).collect()
        }
    }

    /// `text` with its password left out.
    private static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "the URL"
    }
}
