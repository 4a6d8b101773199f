public import Flickr
import Foundation
public import ObjectGraph

/// What one import changed.
public struct ImportCounts: Sendable, Hashable, Codable {
    /// Photos seen for the first time.
    public var new: Int
    /// Photos already known whose title, description, tags or other details changed.
    public var updated: Int
    /// Photos already known and unchanged.
    public var unchanged: Int

    /// Creates counts.
    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
    }

    /// Adds another import's counts.
    public static func + (lhs: ImportCounts, rhs: ImportCounts) -> ImportCounts {
        ImportCounts(new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated, unchanged: lhs.unchanged + rhs.unchanged)
    }
}

/// Upserts pages of Flickr photos into the store, each page in one background context and
/// one save (one SQLite transaction).
///
/// Finds existing photos, spots and photographers in bulk — one fetch each per page, never
/// one query per photo — and creates what is missing. Applies what Flickr changed (titles,
/// descriptions, tags added and removed) without duplicating anything; a photo the user hid
/// stays hidden; photos that left Flickr are kept.
public struct PhotoImporter: Sendable {
    /// The container whose store receives the photos.
    public let container: PersistentContainer
    /// How Flickr's fields map to SPoT's.
    public let rules: ImportRules

    /// An importer into `container`'s store.
    public init(container: PersistentContainer, rules: ImportRules = ImportRules()) {
        self.container = container
        self.rules = rules
    }

    /// Imports one page in a new background context and saves it.
    /// - Throws: the store's error; nothing of the page is saved then.
    @discardableResult
    public func importPage(_ photos: [FlickrPhoto]) async throws -> ImportCounts {
        let context = container.newBackgroundContext(qualityOfService: .background)
        context.name = "import"
        let rules = self.rules
        do {
            return try await context.perform {
                let counts = try context.savingRetryingConflicts {
                    var page = ImportPage(context: context, rules: rules)
                    return try page.upsert(photos)
                }
                context.reset()
                return counts
            }
        } catch {
            let file = SPoTStore.describe(container.persistentStoreDescriptions.first?.url)
            throw SPoTError(.store, "Could not import \(photos.count) photos into the database \(file): \(error)")
        }
    }
}

/// One page's import, on the import context's queue.
struct ImportPage {
    let context: ManagedObjectContext
    let rules: ImportRules
    private var spots: [String: Tag] = [:]
    private var photographers: [String: Photographer] = [:]

    init(context: ManagedObjectContext, rules: ImportRules) {
        self.context = context
        self.rules = rules
    }

    mutating func upsert(_ flickrPhotos: [FlickrPhoto]) throws -> ImportCounts {
        // Flickr can list a photo twice when its list moves while paging: keep the first.
        var seen: Set<String> = []
        let unique = flickrPhotos.filter { !$0.id.isEmpty && seen.insert($0.id).inserted }
        guard !unique.isEmpty else { return ImportCounts() }
        let spotNamesByPhoto = unique.map { rules.spotNames(of: $0.tags) }
        try loadSpots(named: Set(spotNamesByPhoto.joined()))
        try loadPhotographers(unique)

        let request = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "unique IN %@", unique.map(\.id))
        var existing: [String: Photo] = [:]
        for photo in try context.fetch(request) { existing[photo.unique ?? ""] = photo }

        var counts = ImportCounts()
        for (flickrPhoto, spotNames) in zip(unique, spotNamesByPhoto) {
            if let photo = existing[flickrPhoto.id] {
                if apply(flickrPhoto, spotNames: spotNames, to: photo, isNew: false) {
                    counts.updated += 1
                } else {
                    counts.unchanged += 1
                }
            } else {
                let photo = Photo(context: context)
                photo.unique = flickrPhoto.id
                _ = apply(flickrPhoto, spotNames: spotNames, to: photo, isNew: true)
                counts.new += 1
            }
        }
        return counts
    }

    /// Fetches the page's spots and "All" in one query and creates those missing.
    private mutating func loadSpots(named names: Set<String>) throws {
        let wanted = names.union([Tag.allName])
        let request = Tag.fetchRequest()
        request.predicate = FetchPredicate(format: "name IN %@", Array(wanted))
        for tag in try context.fetch(request) { spots[tag.name ?? ""] = tag }
        for name in wanted where spots[name] == nil {
            let tag = Tag(context: context)
            tag.name = name
            if name == Tag.allName {
                tag.displayName = "All"
                tag.rank = 0
            } else {
                tag.displayName = rules.displayName(ofSpot: name)
                tag.rank = 1
            }
            spots[name] = tag
        }
    }

    /// Fetches the page's photographers in one query and creates those missing.
    private mutating func loadPhotographers(_ photos: [FlickrPhoto]) throws {
        var names: [String: String] = [:]
        for photo in photos where !photo.owner.isEmpty {
            let name = photo.ownerName.map(PlainText.collapseWhitespace) ?? ""
            if names[photo.owner]?.isEmpty ?? true { names[photo.owner] = name }
        }
        let request = Photographer.fetchRequest()
        request.predicate = FetchPredicate(format: "userID IN %@", Array(names.keys))
        for photographer in try context.fetch(request) { photographers[photographer.userID ?? ""] = photographer }
        for (userID, name) in names {
            let display = name.isEmpty ? userID : name
            if let photographer = photographers[userID] {
                if !name.isEmpty, photographer.name != display { photographer.name = display }
            } else {
                let photographer = Photographer(context: context)
                photographer.userID = userID
                photographer.name = display
                photographers[userID] = photographer
            }
        }
    }

    /// Copies Flickr's fields onto `photo`, touching only what differs; returns whether
    /// anything did.
    private func apply(_ flickr: FlickrPhoto, spotNames: [String], to photo: Photo, isNew: Bool) -> Bool {
        var changed = false
        func assign<Value: Equatable>(_ keyPath: ReferenceWritableKeyPath<Photo, Value>, _ value: Value) {
            if photo[keyPath: keyPath] != value {
                photo[keyPath: keyPath] = value
                changed = true
            }
        }
        let title = rules.title(of: flickr)
        assign(\.title, title)
        assign(\.subtitle, rules.subtitle(of: flickr))
        assign(\.sectionTitle, rules.sectionTitle(ofTitle: title))
        assign(\.spotTitle, spotNames.first.map(rules.displayName(ofSpot:)) ?? ImportRules.noSpotTitle)
        assign(\.server, flickr.server)
        assign(\.secret, flickr.secret)
        assign(\.farm, Int64(flickr.farm ?? 0))
        assign(\.originalSecret, flickr.originalSecret)
        assign(\.originalFormat, flickr.originalFormat)
        if let uploadDate = flickr.uploadDate { assign(\.uploadDate, uploadDate) }
        assign(\.latitude, flickr.coordinate?.latitude)
        assign(\.longitude, flickr.coordinate?.longitude)
        // The spots as last imported: a photo whose tags did not change never loads its
        // relationship, so a page of unchanged photos costs no query per photo.
        let spotList = spotNames.joined(separator: " ")
        if isNew || photo.spotList != spotList {
            photo.spotList = spotList
            setSpots([Tag.allName] + spotNames, of: photo)
            changed = true
        }
        if let photographer = photographers[flickr.owner], photo.photographer !== photographer {
            if !photo.hidden {
                photo.photographer?.photoCount -= 1
                photographer.photoCount += 1
            }
            photo.photographer = photographer
            changed = true
        }
        return changed
    }

    /// Makes the photo's spots exactly `names`, keeping the spots' visible-photo counts right.
    private func setSpots(_ names: [String], of photo: Photo) {
        let wanted = Set(names.compactMap { spots[$0] })
        let current = photo.tags
        guard wanted != current else { return }
        let delta: Int64 = photo.hidden ? 0 : 1
        for tag in current.subtracting(wanted) { tag.photoCount -= delta }
        for tag in wanted.subtracting(current) { tag.photoCount += delta }
        photo.tags = wanted
    }
}
