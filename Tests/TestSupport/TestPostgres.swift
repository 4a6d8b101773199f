public import Foundation

/// The PostgreSQL server `Scripts/test` starts for the tests.
public enum TestPostgres {
    /// The environment variable holding the server's URL.
    public static let urlVariable = "OBJECTGRAPH_TEST_POSTGRES_URL"

    /// The server's URL with a new schema, `<prefix>_<uuid>`: a database no other test sees.
    ///
    /// - Throws: ``MissingServer`` when no server is given (the tests fail, never skip).
    public static func newSchemaURL(prefix: String = "t") throws -> URL {
        guard let base = ProcessInfo.processInfo.environment[urlVariable], !base.isEmpty else { throw MissingServer() }
        let schema = prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        guard let url = URL(string: base + (base.contains("?") ? "&" : "?") + "schema=\(schema)") else { throw MissingServer() }
        return url
    }

    /// No PostgreSQL test server was given.
    public struct MissingServer: Error, CustomStringConvertible {
        public var description: String {
            "no PostgreSQL server for the tests: \(TestPostgres.urlVariable) is not set. Run the tests with Scripts/test, which starts a private server, or set \(TestPostgres.urlVariable)=postgres://user@127.0.0.1:port/database"
        }
    }
}
