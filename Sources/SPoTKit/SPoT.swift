public import Flickr
import Foundation
public import Logging

/// The Stanford photo tour: the database, Flickr, the refresher, thumbnails and the image
/// cache, wired together. What the `spot` command and the web server run on.
///
/// ```swift
/// let spot = try await SPoT(configuration: SPoTConfiguration(dataDirectory: folder, flickr: flickr))
/// spot.startRefreshing()                      // at once if empty, then every 20 minutes
/// let spots = try await spot.store.spotList() // a live list
/// ```
public final class SPoT: Sendable {
    /// The configuration it was opened with.
    public let configuration: SPoTConfiguration
    /// The database.
    public let store: SPoTStore
    /// The Flickr client (real Flickr or a sandbox).
    public let client: FlickrClient
    /// Fetches photos from Flickr into the store.
    public let refresher: Refresher
    /// Square thumbnails, kept in the database.
    public let thumbnails: ThumbnailStore
    /// Large and original images, kept in files.
    public let imageCache: ImageFileCache

    /// Opens the data folder (creating it), the database and the image cache.
    /// - Throws: ``SPoTError`` naming the file or folder that could not be opened.
    public init(configuration: SPoTConfiguration, logger: Logger = Logger(label: "spot")) throws {
        self.configuration = configuration
        do {
            try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw SPoTError(.store, "Could not create the data directory \(configuration.dataDirectory.path): \(error.localizedDescription)")
        }
        store = try SPoTStore(url: configuration.databaseURL, rules: configuration.rules, logger: logger)
        do {
            imageCache = try ImageFileCache(directory: configuration.imageCacheDirectory, sizeLimit: configuration.imageCacheSizeLimit)
        } catch {
            throw SPoTError(.store, "Could not open the image cache \(configuration.imageCacheDirectory.path): \(error)")
        }
        client = FlickrClient(configuration: configuration.flickr, logger: logger)
        refresher = Refresher(
            store: store,
            client: client,
            perPage: configuration.perPage,
            interval: configuration.refreshInterval,
            clock: configuration.clock,
            logger: logger
        )
        thumbnails = ThumbnailStore(store: store, client: client)
    }

    /// Starts refreshing: at once when the database is empty, then on the schedule.
    public func startRefreshing() async {
        await refresher.start()
    }

    /// Stops the schedule and waits for a refresh in progress to finish.
    public func close() async {
        await refresher.stop()
    }

    /// Photo `id` at a large size from the image cache, downloading it once.
    /// - Parameter format: `.large1024` for phones, `.original` for large screens (falls back
    ///   to `.large1024` when Flickr offers no original).
    /// - Throws: ``SPoTError`` `.photoNotFound` or `.image`.
    public func image(for id: String, format: FlickrPhotoFormat) async throws -> [UInt8] {
        let photo = try await store.read { context in try SPoTStore.photo(id, in: context).flickrPhoto }
        let format = format == .original && photo.originalSecret == nil ? .large1024 : format
        let client = self.client
        do {
            return try await imageCache.data(for: ImageCacheKey(photoID: id, format: format)) {
                try await client.imageData(for: photo, format: format)
            }
        } catch let error as SPoTError {
            throw error
        } catch {
            throw SPoTError(.image, "Could not fetch photo \(id) at size \(format.suffix.isEmpty ? "-" : format.suffix): \(error)")
        }
    }

    /// Sizes and counts for `spot stats`.
    public func statistics() async throws -> SPoTStatistics {
        let counts = try await store.counts()
        // A server's database has no file here to measure.
        let database =
            configuration.database == nil
            ? ["", "-wal", "-shm"].reduce(0) { total, suffix in total + Self.fileSize(configuration.databaseURL.path + suffix) } : 0
        return SPoTStatistics(
            counts: counts,
            databaseBytes: database,
            imageCacheBytes: await imageCache.totalSize,
            imageCacheFiles: await imageCache.count,
            imageCacheLimit: await imageCache.sizeLimit
        )
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// What `spot stats` prints.
public struct SPoTStatistics: Sendable, Hashable, Codable {
    /// Rows in the database.
    public var counts: StoreCounts
    /// The database's size on disk, WAL included.
    public var databaseBytes: Int
    /// The image cache's size on disk.
    public var imageCacheBytes: Int
    /// Images in the cache.
    public var imageCacheFiles: Int
    /// The image cache's limit.
    public var imageCacheLimit: Int
}
