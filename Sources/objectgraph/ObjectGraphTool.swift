import ArgumentParser

/// `objectgraph`: a store in hand — Core Data's or ObjectGraph's — inspected and queried from
/// the command line.
@main
struct ObjectGraphTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objectgraph",
        abstract: "Inspect and query SQLite stores in Core Data's layout (written by Core Data or ObjectGraph).",
        discussion: """
            The store file is never changed: it is read without a write transaction, and a \
            store opened with a model is opened read-only.
            """,
        subcommands: [InspectCommand.self, QueryCommand.self]
    )
}
