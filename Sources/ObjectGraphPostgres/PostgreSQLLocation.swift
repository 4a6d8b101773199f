import Foundation
import ObjectGraph
import PostgresNIO

/// Where a PostgreSQL store is, parsed from its URL:
/// `postgres://user[:password]@host[:port]/database[?schema=name]`.
struct PostgreSQLLocation: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    /// The schema holding the store's tables; `public` unless the URL's `schema` says.
    let schema: String

    /// - Throws: ``ObjectGraphError`` naming what is missing (never the password).
    init(_ url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else {
            throw ObjectGraphError(.persistentStoreInvalidType, "\(Self.redacted(url)) is not a postgres:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ObjectGraphError(.persistentStoreOperation, "the PostgreSQL URL \(Self.redacted(url)) names no host")
        }
        self.host = host
        port = components.port ?? 5432
        user = components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : path
        schema = components.queryItems?.first { $0.name == "schema" }?.value ?? "public"
    }

    /// The URL without its password, as errors and logs name the server.
    var description: String {
        var text = "postgres://\(user)@\(host):\(port)/\(database)"
        if schema != "public" { text += "?schema=\(schema)" }
        return text
    }

    /// `url` with its password left out.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the URL" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "the URL"
    }
}

extension PostgreSQLLocation {
    /// The pool's configuration for this server (no TLS), with the store's schema first on
    /// the search path, so that unqualified table names are the store's.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: .disable
        )
        configuration.options.additionalStartupParameters = [("search_path", searchPath)]
        return configuration
    }

    /// The store's schema, quoted, then `public`: unqualified table names are the store's.
    var searchPath: String { "\(PostgreSQLStore.quoted(schema)), public" }

    /// A single connection's configuration for this server (no TLS, a 10-second connect
    /// timeout), for work that must not wait on the pool: preparing the schema, migrating.
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: .disable
        )
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }
}
