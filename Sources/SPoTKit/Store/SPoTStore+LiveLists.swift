import Foundation
import ObjectGraph

/// The live lists, one per screen.
extension SPoTStore {
    /// The sort every photo list uses inside a section: title as people sort it, then id so
    /// equal titles keep a stable order.
    static var photoOrder: [FetchSortDescriptor] {
        [
            FetchSortDescriptor(key: "title", ascending: true, selector: .localizedStandardCompare),
            FetchSortDescriptor(key: "unique", ascending: true),
        ]
    }

    /// List `id`, opened: its spot or photographer looked up once, its rows fetched — within
    /// ``readDeadline``.
    /// - Throws: ``SPoTError`` `.spotNotFound` / `.photographerNotFound`; `.unavailable` at
    ///   once while the database does not answer, or when it does not answer in time.
    public func list(_ id: ListID) async throws -> any LiveListProtocol {
        let doing = "open the list \(id.address) from"
        if let refusal = monitor.refusal(doing) { throw refusal }
        let monitor = self.monitor
        return try await withDeadline(Self.readDeadline, late: { await monitor.late(Self.readDeadline, doing: doing) }) { [self] in
            do {
                let list = try await open(id)
                return list
            } catch {
                throw monitor.failed(error, doing: doing)
            }
        }
    }

    private func open(_ id: ListID) async throws -> any LiveListProtocol {
        switch id {
        case .spots: try await spotList()
        case .spot(let address): try await photoList(spot: address)
        case .recents: try await recentList()
        case .photographers: try await photographerList()
        case .photographer(let userID): try await photoList(photographer: userID)
        case .search(let text): try await searchList(text)
        }
    }

    /// `list`, kept among the lists fetched again after an outage.
    private func opened<Row>(_ list: LiveList<Row>) -> LiveList<Row> {
        register(list)
        return list
    }

    /// What every photo row shows besides the photo: fetched with the photos, in one query
    /// per key path whatever the list's length.
    static let photoRowPrefetching = ["photographer"]

    /// Spots with visible photos: "All" first, then by name, case-insensitively. Unsectioned.
    public func spotList() async throws -> LiveList<SpotRow> {
        let context = listContext
        let info = ListInfo(id: .spots, title: "Spots", emptyText: "No spots yet. Refresh to fetch Stanford's photos.")
        return opened(try await LiveList(info: info, context: context) {
            let request = Tag.fetchRequest()
            request.predicate = FetchPredicate(format: "photoCount > 0")
            request.sortDescriptors = [
                FetchSortDescriptor(key: "rank", ascending: true),
                FetchSortDescriptor(key: "displayName", ascending: true, selector: .localizedCaseInsensitiveCompare),
                FetchSortDescriptor(key: "name", ascending: true),
            ]
            return [FetchedLiveListSource(request: request, context: context) { $0.row }]
        })
    }

    /// The visible photos of the spot `address` names (see ``spot(_:)``).
    ///
    /// A Flickr tag's photos are in alphabetical sections by their title's first letter.
    /// "All" is sectioned by spot: each photo appears once, under its *first* spot (the first
    /// of its Flickr tags that is a spot), so the list holds every photo exactly once.
    /// - Throws: ``SPoTError`` `.spotNotFound`.
    public func photoList(spot address: String) async throws -> LiveList<PhotoRow> {
        let (spot, name) = try await read { context in
            let tag = try Self.spot(address, in: context)
            return (tag.row, tag.name ?? "")
        }
        let context = listContext
        let isAll = spot.id == Tag.allAddress
        let info = ListInfo(id: .spot(spot.id), title: spot.name, back: .spots, emptyText: "No photos in this spot.")
        return opened(try await LiveList(info: info, context: context) {
            let request = Photo.fetchRequest()
            let sectionKey = isAll ? "spotTitle" : "sectionTitle"
            if isAll {
                request.predicate = FetchPredicate(format: "hidden == NO")
            } else {
                request.predicate = FetchPredicate(format: "hidden == NO AND ANY tags.name == %@", name)
            }
            request.sortDescriptors = [FetchSortDescriptor(key: sectionKey, ascending: true)] + Self.photoOrder
            request.relationshipKeyPathsForPrefetching = Self.photoRowPrefetching
            return [FetchedLiveListSource(request: request, context: context, sectionNameKeyPath: sectionKey) { $0.row }]
        })
    }

    /// Recently viewed photos, most recent first (at most ``SPoTModel/maxRecents``). Unsectioned.
    public func recentList() async throws -> LiveList<RecentRow> {
        let context = listContext
        let info = ListInfo(id: .recents, title: "Recents", emptyText: "Photos you view appear here.")
        return opened(try await LiveList(info: info, context: context) {
            let request = Recent.fetchRequest()
            request.predicate = FetchPredicate(format: "photo != nil AND photo.hidden == NO")
            request.sortDescriptors = [FetchSortDescriptor(key: "lastViewed", ascending: false)]
            request.relationshipKeyPathsForPrefetching = ["photo"] + Self.photoRowPrefetching.map { "photo." + $0 }
            return [
                FetchedLiveListSource(request: request, context: context) { recent in
                    RecentRow(photo: recent.photo?.row ?? Self.missingPhotoRow, lastViewed: recent.lastViewed ?? .distantPast)
                }
            ]
        })
    }

    /// Photographers with visible photos, by name. Unsectioned.
    public func photographerList() async throws -> LiveList<PhotographerRow> {
        let context = listContext
        let info = ListInfo(id: .photographers, title: "Photographers", emptyText: "No photographers yet.")
        return opened(try await LiveList(info: info, context: context) {
            let request = Photographer.fetchRequest()
            request.predicate = FetchPredicate(format: "photoCount > 0")
            request.sortDescriptors = [
                FetchSortDescriptor(key: "name", ascending: true, selector: .localizedCaseInsensitiveCompare),
                FetchSortDescriptor(key: "userID", ascending: true),
            ]
            return [FetchedLiveListSource(request: request, context: context) { $0.row }]
        })
    }

    /// One photographer's visible photos, in alphabetical sections.
    /// - Throws: ``SPoTError`` `.photographerNotFound`.
    public func photoList(photographer userID: String) async throws -> LiveList<PhotoRow> {
        let photographer = try await photographer(userID)
        let context = listContext
        let info = ListInfo(
            id: .photographer(userID),
            title: photographer.name,
            back: .photographers,
            emptyText: "No photos by \(photographer.name)."
        )
        return opened(try await LiveList(info: info, context: context) {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "hidden == NO AND photographer.userID == %@", userID)
            request.sortDescriptors = [FetchSortDescriptor(key: "sectionTitle", ascending: true)] + Self.photoOrder
            request.relationshipKeyPathsForPrefetching = Self.photoRowPrefetching
            return [FetchedLiveListSource(request: request, context: context, sectionNameKeyPath: "sectionTitle") { $0.row }]
        })
    }

    /// Spots whose name contains `text`, then photos whose title or description does,
    /// ignoring case and accents: always two sections, "Spots" and "Photos" (empty for empty
    /// text).
    public func searchList(_ text: String) async throws -> LiveList<SearchResultRow> {
        let context = listContext
        let query = PlainText.collapseWhitespace(text)
        let info = ListInfo(
            id: .search(query),
            title: query.isEmpty ? "Search" : "“\(query)”",
            back: .spots,
            emptyText: query.isEmpty ? "Type a spot or a word from a photo's title." : "Nothing matches “\(query)”."
        )
        return opened(try await LiveList(info: info, context: context) {
            let spots = Tag.fetchRequest()
            let photos = Photo.fetchRequest()
            if query.isEmpty {
                spots.predicate = FetchPredicate(value: false)
                photos.predicate = FetchPredicate(value: false)
            } else {
                spots.predicate = FetchPredicate(
                    format: "rank == 1 AND photoCount > 0 AND (displayName CONTAINS[cd] %@ OR name CONTAINS[cd] %@)",
                    query,
                    query
                )
                photos.predicate = FetchPredicate(
                    format: "hidden == NO AND (title CONTAINS[cd] %@ OR subtitle CONTAINS[cd] %@)",
                    query,
                    query
                )
            }
            spots.sortDescriptors = [
                FetchSortDescriptor(key: "displayName", ascending: true, selector: .localizedCaseInsensitiveCompare),
                FetchSortDescriptor(key: "name", ascending: true),
            ]
            photos.sortDescriptors = Self.photoOrder
            photos.relationshipKeyPathsForPrefetching = Self.photoRowPrefetching
            return [
                FetchedLiveListSource(request: spots, context: context, sectionOffset: 0, fixedSectionName: "Spots") {
                    SearchResultRow.spot($0.row)
                },
                FetchedLiveListSource(request: photos, context: context, sectionOffset: 1, fixedSectionName: "Photos") {
                    SearchResultRow.photo($0.row)
                },
            ]
        })
    }

    /// A placeholder for a recent whose photo is gone (the list's predicate excludes them;
    /// this only shows during the instant a delete is merged).
    static let missingPhotoRow = PhotoRow(
        id: "",
        title: ImportRules.unknownTitle,
        subtitle: "",
        sectionTitle: ImportRules.otherSection,
        spotTitle: "",
        photographer: "",
        uploadDate: nil,
        hasOriginal: false
    )
}

/// A live list the store fetches again when the database answers after an outage.
protocol RefetchableList: AnyObject, Sendable {
    /// Fetches the whole list again and sends it to every subscriber.
    func refetch() async
}

/// A live list the store does not keep alive.
struct WeakList: Sendable {
    weak var list: (any RefetchableList)?
}
