public import Flickr
public import Foundation

/// How SPoT runs: where its data lives, which Flickr it talks to, how often it refreshes.
public struct SPoTConfiguration: Sendable {
    /// The folder holding the database (`SPoT.sqlite`) and the image cache (`images/`).
    public var dataDirectory: URL
    /// Real Flickr (with an API key) or a sandbox's endpoints.
    public var flickr: FlickrConfiguration
    /// Time between scheduled refreshes; zero disables the schedule.
    public var refreshInterval: Duration = Refresher.defaultInterval
    /// The clock the schedule sleeps on.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// The image cache's size limit in bytes.
    public var imageCacheSizeLimit: Int = ImageFileCache.defaultSizeLimit
    /// How Flickr's photos are imported (excluded tags).
    public var rules = ImportRules()
    /// Photos per Flickr page, and per save.
    public var perPage = 100

    /// A configuration with defaults for everything but the folder and Flickr.
    public init(dataDirectory: URL, flickr: FlickrConfiguration) {
        self.dataDirectory = dataDirectory
        self.flickr = flickr
    }

    /// A database server to keep the photos in instead of the SQLite file in ``dataDirectory``,
    /// e.g. PostgreSQL's `postgres://user[:password]@host[:port]/database[?schema=name]`:
    /// several `spot serve` instances, on one machine or many, then share one database. The
    /// image cache stays in each instance's data directory. SPoTKit links no database driver:
    /// the program's root registers the store type that opens the URL (the `spot` executable,
    /// built with the PostgreSQL trait, registers ObjectGraphPostgres's).
    public var database: URL?

    /// The database: ``database`` when set, else the SQLite file in the data directory.
    public var databaseURL: URL { database ?? dataDirectory.appendingPathComponent(SPoTStore.fileName) }
    /// The image cache's folder.
    public var imageCacheDirectory: URL { dataDirectory.appendingPathComponent("images", isDirectory: true) }

    /// Where SPoT keeps its data when not told: `$SPOT_DATA_DIR`, else
    /// `$XDG_DATA_HOME/spot`, else `~/.local/share/spot`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["SPOT_DATA_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("spot", isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/spot", isDirectory: true)
    }
}
