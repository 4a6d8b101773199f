public import Foundation
import ObjectGraph

/// Reading one photo, spot or photographer; viewing, hiding and unhiding photos.
extension SPoTStore {
    /// The spot `address` names: `all` is "All", `tag:NAME` a Flickr tag even when it is
    /// spelled `all`, otherwise a spot by name or display name in any case.
    /// - Throws: ``SPoTError`` `.spotNotFound`.
    public func spot(_ address: String) async throws -> SpotRow {
        try await read { context in try Self.spot(address, in: context).row }
    }

    /// The photographer with Flickr id `userID`.
    /// - Throws: ``SPoTError`` `.photographerNotFound`.
    public func photographer(_ userID: String) async throws -> PhotographerRow {
        try await read { context in
            let request = Photographer.fetchRequest()
            request.predicate = FetchPredicate(format: "userID == %@", userID)
            request.fetchLimit = 1
            guard let photographer = try context.fetch(request).first else {
                throw SPoTError(.photographerNotFound, "No photographer has the id \"\(userID)\"")
            }
            return photographer.row
        }
    }

    /// Everything known about photo `id`, hidden or not.
    /// - Throws: ``SPoTError`` `.photoNotFound`.
    public func photo(_ id: String) async throws -> PhotoDetail {
        try await read { context in
            let photo = try Self.photo(id, in: context)
            let spots = photo.tags.sorted { ($0.rank, $0.displayName ?? "") < ($1.rank, $1.displayName ?? "") }
            return PhotoDetail(
                row: photo.row,
                latitude: photo.latitude,
                longitude: photo.longitude,
                isHidden: photo.hidden,
                spots: spots.map(\.row),
                photographerID: photo.photographer?.userID ?? "",
                lastViewed: photo.recent?.lastViewed
            )
        }
    }

    /// Makes photo `id` the most recently viewed: one entry per photo, the oldest beyond
    /// ``SPoTModel/maxRecents`` dropped. When it returns, the live lists show it.
    /// - Throws: ``SPoTError`` `.photoNotFound`.
    public func markViewed(_ id: String, at date: Date = Date()) async throws {
        try await write { context in
            let photo = try Self.photo(id, in: context)
            let recent = photo.recent ?? Recent(context: context)
            recent.lastViewed = date
            recent.photo = photo
            let request = Recent.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "lastViewed", ascending: false)]
            request.fetchOffset = SPoTModel.maxRecents
            for stale in try context.fetch(request) { context.delete(stale) }
        }
        await waitForLiveLists()
    }

    /// Hides photo `id`: it leaves every list and count (a spot left with no visible photo
    /// disappears) and a refresh never brings it back. Hiding a hidden photo does nothing.
    /// When it returns, the live lists show it.
    /// - Throws: ``SPoTError`` `.photoNotFound`.
    public func hide(_ id: String) async throws {
        try await setHidden(true, id)
    }

    /// Shows photo `id` again where it was.
    /// - Throws: ``SPoTError`` `.photoNotFound`.
    public func unhide(_ id: String) async throws {
        try await setHidden(false, id)
    }

    private func setHidden(_ hidden: Bool, _ id: String) async throws {
        try await write { context in
            let photo = try Self.photo(id, in: context)
            guard photo.hidden != hidden else { return }
            photo.hidden = hidden
            let delta: Int64 = hidden ? -1 : 1
            for tag in photo.tags { tag.photoCount += delta }
            photo.photographer?.photoCount += delta
        }
        await waitForLiveLists()
    }

    /// How many photos the store holds: all, visible and hidden, with spots and photographers.
    /// - Parameter deadline: how long to wait for the database.
    /// - Throws: ``SPoTError`` `.unavailable` while the database does not answer, or when it
    ///   does not answer within `deadline`.
    public func counts(deadline: Duration = SPoTStore.readDeadline) async throws -> StoreCounts {
        try await read(deadline: deadline, waitingForProbe: false) { context in
            let photos = Photo.fetchRequest()
            let total = try context.count(for: photos)
            photos.predicate = FetchPredicate(format: "hidden == YES")
            let hidden = try context.count(for: photos)
            let spots = Tag.fetchRequest()
            spots.predicate = FetchPredicate(format: "rank == 1 AND photoCount > 0")
            let photographers = Photographer.fetchRequest()
            photographers.predicate = FetchPredicate(format: "photoCount > 0")
            return StoreCounts(
                photos: total,
                hiddenPhotos: hidden,
                spots: try context.count(for: spots),
                photographers: try context.count(for: photographers),
                recents: try context.count(for: Recent.fetchRequest()),
                thumbnails: try context.count(for: Thumbnail.fetchRequest())
            )
        }
    }
}

/// What a store holds.
public struct StoreCounts: Sendable, Hashable, Codable {
    /// Every photo, hidden ones included.
    public var photos: Int
    /// Photos the user hid.
    public var hiddenPhotos: Int
    /// Spots with visible photos, "All" not counted.
    public var spots: Int
    /// Photographers with visible photos.
    public var photographers: Int
    /// Recently viewed photos.
    public var recents: Int
    /// Thumbnails kept in the database.
    public var thumbnails: Int
    /// Photos not hidden.
    public var visiblePhotos: Int { photos - hiddenPhotos }
}
