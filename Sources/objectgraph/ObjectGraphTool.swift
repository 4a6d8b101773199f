import ArgumentParser

/// `objectgraph`: a store in hand — Core Data's or ObjectGraph's — inspected, queried and browsed from
/// the command line.
@main
struct ObjectGraphTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objectgraph",
        abstract: "Inspect, query and browse SQLite stores in Core Data's layout (written by Core Data or ObjectGraph).",
        discussion: """
            The store file is never changed: it is read without a write transaction, and a \
            store opened with a model is opened read-only.
            """,
        subcommands: [InspectCommand.self, QueryCommand.self, BrowseCommand.self]
    )
}
