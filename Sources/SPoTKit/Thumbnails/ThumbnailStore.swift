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

    /// Thumbnails of `store`'s photos, downloaded with `client`.
    public init(store: SPoTStore, client: FlickrClient) {
        self.store = store
        self.client = client
    }

    /// The thumbnail of photo `id` (hidden photos included).
    /// - Throws: ``SPoTError`` `.photoNotFound`, or `.image` when Flickr cannot deliver it.
    public func thumbnail(for id: String) async throws -> Data {
        if let download = downloads[id] { return try await download.value }
        let (stored, photo) = try await store.read { context -> (Data?, FlickrPhoto) in
            let photo = try SPoTStore.photo(id, in: context)
            return (try Self.storedThumbnail(id, in: context), photo.flickrPhoto)
        }
        if let stored { return stored }
        // Another caller may have started the download while this one read the database.
        if let download = downloads[id] { return try await download.value }
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
            try await store.write { context in
                guard try Self.storedThumbnail(id, in: context) == nil else { return }
                let thumbnail = Thumbnail(context: context)
                thumbnail.photoID = id
                thumbnail.data = data
            }
            return data
        }
        downloads[id] = download
        defer { downloads[id] = nil }
        return try await download.value
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
