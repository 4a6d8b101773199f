import ArgumentParser
import Flickr
import FlickrSandbox
import Foundation
import SPoTKit

/// Options every command that opens the database shares.
struct SpotOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "Where the database and image cache live.",
            discussion: "Default: $SPOT_DATA_DIR, else $XDG_DATA_HOME/spot, else ~/.local/share/spot.",
            valueName: "path"
        )
    )
    var dataDirectory: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL database to keep the photos in, shared by every instance that names it.",
            discussion: """
                postgres://user[:password]@host[:port]/database[?schema=name] (also $SPOT_DATABASE_URL). \
                Default: the SQLite file SPoT.sqlite in --data-dir. The image cache stays in --data-dir. \
                Needs a spot built with the package trait PostgreSQL (swift run --traits PostgreSQL spot …).
                """,
            valueName: "url"
        )
    )
    var database: String?

    @Option(
        name: .customLong("flickr-api-key"),
        help: ArgumentHelp(
            "A Flickr API key (also $FLICKR_API_KEY); without one the built-in sandbox is used.",
            valueName: "key"
        )
    )
    var flickrAPIKey: String?

    @Option(
        name: .customLong("sandbox-epoch"),
        help: ArgumentHelp(
            "Without an API key: the sandbox timeline step to serve (0 is the catalogue as first seen).",
            valueName: "n"
        )
    )
    var sandboxEpoch: Int = 0

    @Option(help: "Output: table, tsv, or auto (a table on a terminal, tab-separated when piped).")
    var format: OutputFormat = .auto

    func validate() throws {
        if let dataDirectory, dataDirectory.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--data-dir must name a folder")
        }
        if let flickrAPIKey, flickrAPIKey.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--flickr-api-key must not be empty")
        }
        if sandboxEpoch < 0 { throw ValidationError("--sandbox-epoch must be 0 or more") }
        if let database = databaseText {
            let source = self.database == nil ? "$SPOT_DATABASE_URL" : "--database"
            guard let url = URL(string: database), Self.isPostgreSQLURL(url), url.host?.isEmpty == false else {
                throw ValidationError("\(source) must be a postgres://user@host[:port]/database URL, not \"\(database)\"")
            }
            if !StoreTypes.hasPostgreSQL {
                throw ValidationError(
                    "\(source): this spot was built without PostgreSQL; build it with the package trait PostgreSQL: swift run --traits PostgreSQL spot …"
                )
            }
        }
    }

    /// Whether `url` names a PostgreSQL database (`postgres://`, `postgresql://`).
    static func isPostgreSQLURL(_ url: URL) -> Bool {
        ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? "")
    }

    /// The database URL's text: the flag, else `$SPOT_DATABASE_URL` (an empty value is unset).
    private var databaseText: String? {
        if let database { return database }
        let environment = ProcessInfo.processInfo.environment["SPOT_DATABASE_URL"]
        return environment?.isEmpty == false ? environment : nil
    }

    /// The PostgreSQL database to use, or `nil` for the SQLite file in the data folder.
    var databaseURL: URL? { databaseText.flatMap(URL.init(string:)) }

    /// The data folder: the flag, else the environment's default.
    var dataDirectoryURL: URL {
        dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? SPoTConfiguration.defaultDataDirectory()
    }

    /// The key from the flag, else from `FLICKR_API_KEY`.
    var apiKey: FlickrAPIKey? {
        if let flickrAPIKey { return FlickrAPIKey(flickrAPIKey) }
        return FlickrAPIKey(environment: ProcessInfo.processInfo.environment)
    }

    /// Opens SPoT (and, without a key, an in-process sandbox), runs `body`, and closes both
    /// whatever happens. Errors are printed as `spot: …` and exit with status 1.
    func withSPoT<T>(refreshInterval: Duration = .zero, _ body: (SPoT) async throws -> T) async throws -> T {
        var sandbox: FlickrSandbox?
        do {
            let flickr: FlickrConfiguration
            if let apiKey {
                flickr = FlickrConfiguration(apiKey: apiKey)
            } else {
                let local = FlickrSandbox(configuration: SandboxConfiguration(epoch: sandboxEpoch, logger: .quiet))
                sandbox = local
                flickr = .sandbox(baseURL: try await local.start())
            }
            StoreTypes.register()
            var configuration = SPoTConfiguration(dataDirectory: dataDirectoryURL, flickr: flickr)
            configuration.database = databaseURL
            configuration.refreshInterval = refreshInterval
            let spot = try SPoT(configuration: configuration, logger: .quiet)
            let result: T
            do {
                result = try await body(spot)
            } catch {
                await spot.close()
                throw error
            }
            await spot.close()
            await sandbox?.stop()
            return result
        } catch let error as ExitCode {
            await sandbox?.stop()
            throw error
        } catch let error as CleanExit {
            await sandbox?.stop()
            throw error
        } catch {
            await sandbox?.stop()
            Terminal.error("\(error)")
            throw ExitCode.failure
        }
    }
}

/// How a command prints its rows.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case auto, table, tsv

    /// Whether to print a table.
    var isTable: Bool {
        switch self {
        case .table: true
        case .tsv: false
        case .auto: Terminal.isTerminal
        }
    }
}
