import ArgumentParser

/// `spot`: the Stanford photo tour from the command line.
@main
struct Spot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spot",
        abstract: "Tour Stanford through Flickr photos.",
        discussion: """
            SPoT keeps Flickr's cs193pspot photos in a local database: spots (Flickr tags) with photo \
            counts, each spot's photos, photographers, recently viewed photos. Without a Flickr API key it \
            uses a built-in Flickr sandbox with a bundled Stanford catalogue, so everything works offline.

            Data lives in --data-dir (default $SPOT_DATA_DIR, else $XDG_DATA_HOME/spot, else \
            ~/.local/share/spot). With --database postgres://… (or $SPOT_DATABASE_URL) the photos live in \
            a PostgreSQL database instead, which several `spot serve` instances share. Output is a table \
            on a terminal and tab-separated lines when piped.
            """,
        subcommands: [
            ServeCommand.self, RefreshCommand.self, TagsCommand.self, PhotosCommand.self, RecentsCommand.self, PhotographersCommand.self,
            SearchCommand.self, ViewCommand.self, HideCommand.self, UnhideCommand.self, StatsCommand.self, SandboxCommand.self,
        ]
    )
}
