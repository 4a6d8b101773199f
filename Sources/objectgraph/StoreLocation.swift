import Foundation
import ObjectGraph
import ObjectGraphPostgres

/// The store a command names: an SQLite file's path, or a PostgreSQL store's
/// `postgres://user[:password]@host[:port]/database[?schema=name]` URL.
struct StoreLocation {
    /// The file's URL, or the server store's.
    let url: URL
    /// As output and errors name it: the path as given, or the URL without its password.
    let name: String

    /// Whether the store is a file (an SQLite store), not a server's.
    var isFile: Bool { url.isFileURL }

    /// Reads `argument`: text with a `scheme://` is a URL, anything else a path.
    ///
    /// - Throws: ``ToolError`` for a URL of a scheme no store type of this tool opens, or one
    ///   that is not a URL at all.
    init(_ argument: String) throws {
        // The tool links the PostgreSQL store and registers it where it starts reading a store.
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        guard let separator = argument.range(of: "://"),
            argument[..<separator.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            !argument[..<separator.lowerBound].isEmpty
        else {
            url = URL(fileURLWithPath: argument)
            name = argument
            return
        }
        let scheme = argument[..<separator.lowerBound].lowercased()
        guard let url = URL(string: argument), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ToolError("\(argument.replacingOccurrences(of: #":[^:@/]*@"#, with: ":***@", options: .regularExpression)): not a valid URL")
        }
        if components.password != nil { components.password = "***" }
        let name = components.string ?? scheme + "://…"
        guard ["postgres", "postgresql", "file"].contains(scheme) else {
            throw ToolError("\(name): objectgraph opens SQLite store files and postgres:// URLs, not \(scheme):// URLs")
        }
        self.url = url
        self.name = scheme == "file" ? url.path : name
    }
}
