public import Flickr
public import Foundation
import ObjectGraph

/// Square thumbnails: from the database, or downloaded from Flickr once and stored there.
///
/// Concurrent requests for one photo share one download; after a restart the database
/// answers. A failed download is not remembered: the next request tries again. Nothing is
/// downloaded that nobody asked for.
public actor ThumbnailStore {
    /// The Flickr size used for thumbnails: the 150×150 square.
    public static let format = FlickrPhotoFormat.square150

    let store: SPoTStore
    let client: FlickrClient
    private var downloads: [String: Task<Data, any Error>] = [:]
    /// Callers waiting for a download now (the one they started or one they joined), for
    /// tests that hold downloads back until every concurrent caller is in place.
    private var waitingCallers = ArrivalCount()
    /// Downloads started since the store was made.
    package private(set) var downloadsStarted = 0

    /// Thumbnails of `store`'s photos, downloaded with `client`.
    public init(store: SPoTStore, client: FlickrClient) {
        self.store = store
        self.client = client
    }

    /// The thumbnail of photo `id` (hidden photos included).
    /// - Throws: ``SPoTError`` `.photoNotFound`, or `.image` when Flickr cannot deliver it.
    public func thumbnail(for id: String) async throws -> Data {
        if let download = downloads[id] { return try await wait(for: download) }
        let (stored, photo) = try await store.read { context -> (Data?, FlickrPhoto) in
            let photo = try SPoTStore.photo(id, in: context)
            return (try Self.storedThumbnail(id, in: context), photo.flickrPhoto)
        }
        if let stored { return stored }
        // Another caller may have started the download while this one read the database.
        if let download = downloads[id] { return try await wait(for: download) }
        let client = self.client
        let store = self.store
        let download = Task<Data, any Error> {
            let bytes: [UInt8]
            do {
                bytes = try await client.imageData(for: photo, format: Self.format)
            } catch {
                throw SPoTError(.image, "Could not download the thumbnail of photo \(id): \(error)")
            }
            let data = Data(bytes)
            try await store.writeCache { context in
                guard try Self.storedThumbnail(id, in: context) == nil else { return }
                let thumbnail = Thumbnail(context: context)
                thumbnail.photoID = id
                thumbnail.data = data
            }
            return data
        }
        downloads[id] = download
        downloadsStarted += 1
        defer { downloads[id] = nil }
        return try await wait(for: download)
    }

    private func wait(for download: Task<Data, any Error>) async throws -> Data {
        waitingCallers.add(1)
        defer { waitingCallers.add(-1) }
        return try await download.value
    }

    /// Returns once `count` callers are waiting for downloads at the same time, or when the
    /// calling task is cancelled (a test's time limit then fails the test on its counts
    /// instead of hanging).
    package func waitForWaitingCallers(_ count: Int) async {
        let token = waitingCallers.makeToken()
        await withTaskCancellationHandler {
            await withCheckedContinuation { waitingCallers.wait(token, for: count, $0) }
        } onCancel: {
            Task { await self.cancelWait(token) }
        }
    }

    private func cancelWait(_ token: Int) {
        waitingCallers.cancel(token)
    }

    /// The thumbnail of photo `id` if the database has it; never downloads.
    public func storedThumbnail(for id: String) async throws -> Data? {
        try await store.read { context in try Self.storedThumbnail(id, in: context) }
    }

    private static func storedThumbnail(_ id: String, in context: ManagedObjectContext) throws -> Data? {
        let request = Thumbnail.fetchRequest()
        request.predicate = FetchPredicate(format: "photoID == %@", id)
        request.fetchLimit = 1
        return try context.fetch(request).first?.data
    }
}
