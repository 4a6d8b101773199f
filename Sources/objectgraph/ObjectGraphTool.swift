import ArgumentParser

/// `objectgraph`: a store in hand — Core Data's or ObjectGraph's — inspected, queried and browsed from
/// the command line.
@main
struct ObjectGraphTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objectgraph",
        abstract: "Inspect, query and browse stores: SQLite files in Core Data's layout (written by Core Data or ObjectGraph) and PostgreSQL stores (postgres:// URLs).",
        discussion: """
            The store file is never changed: it is read without a write transaction, and a \
            store opened with a model is opened read-only. A PostgreSQL store is read through \
            ObjectGraph's PostgreSQL store type; a schema without a store is reported, not created.
            """,
        subcommands: [InspectCommand.self, QueryCommand.self, BrowseCommand.self]
    )
}
