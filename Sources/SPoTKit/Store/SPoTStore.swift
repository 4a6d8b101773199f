import Flickr
public import Foundation
public import ObjectGraph
import ObjectGraphPostgres

/// SPoT's database: the ObjectGraph container holding photos, spots, photographers, recents
/// and thumbnails, with a long-lived context for live lists that merges every save.
///
/// Reads use a fresh background context each, so they never wait for an import; the
/// importer writes in background contexts of its own, one save per page.
public final class SPoTStore: Sendable {
    /// The store file's name inside the data directory.
    public static let fileName = "SPoT.sqlite"

    /// How long persistent history is kept, in seconds: long enough for every process on the
    /// file to read it, short enough that the file does not grow with every refresh.
    static let historyRetention: Double = 3_600

    /// The container (model, coordinator, contexts).
    public let container: PersistentContainer
    /// The store file, or `nil` in memory.
    public let url: URL?
    /// The context every live list lives on: private queue, merges every save.
    let listContext: ManagedObjectContext
    /// The importer writing into this store.
    public let importer: PhotoImporter
    /// The context every ``write(_:)`` runs on, one after another (Core Data's single
    /// background writer): writers of this process never conflict with each other, and
    /// optimistic locking retries only for other processes' and the importer's saves.
    private let writerContext: ManagedObjectContext

    /// Opens (creating if needed) the store at `url`; `nil` opens one in memory.
    /// - Parameters:
    ///   - rules: how Flickr's photos are imported.
    ///   - statementObserver: sees every SQL statement (for tests and debugging).
    /// - Throws: ``SPoTError`` of kind `.store` naming the file: not SQLite, damaged, written
    ///   by another app or model, locked, or not writable. The file is not changed then.
    public init(url: URL?, rules: ImportRules = ImportRules(), statementObserver: SQLStatementObserver? = nil) throws {
        let container = PersistentContainer(name: "SPoT", managedObjectModel: SPoTModel.make())
        let description: PersistentStoreDescription
        if let url, Self.isServerURL(url) {
            description = PersistentStoreDescription(postgreSQLURL: url)
        } else if let url {
            description = PersistentStoreDescription(url: url)
        } else {
            description = PersistentStoreDescription()
            description.type = InMemoryStoreType
        }
        if let statementObserver { description.setOption(statementObserver, forKey: PersistentStore.sqlStatementObserverOption) }
        // Other processes write the same file (`spot hide` beside `spot serve`, two refreshes):
        // their saves reach this process's live lists through history and remote change
        // notifications. History older than an hour is pruned; a process asleep longer
        // fetches its lists anew.
        description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
        description.setOption(true, forKey: PersistentStore.remoteChangeNotificationPostOption)
        description.setOption(Self.historyRetention, forKey: PersistentStore.persistentHistoryMaximumAgeOption)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure {
            throw SPoTError(.store, "Could not open the database \(Self.describe(url)): \(failure)")
        }
        self.container = container
        self.url = url
        importer = PhotoImporter(container: container, rules: rules)
        // Merging saves into the live lists gives way to serving pages when both want the
        // processor (see ManagedObjectContext.init(concurrencyType:qualityOfService:)).
        listContext = container.newBackgroundContext(qualityOfService: .background)
        listContext.name = "live lists"
        listContext.automaticallyMergesChangesFromParent = true
        writerContext = container.newBackgroundContext()
        writerContext.name = "background"
    }

    /// Whether `url` names a PostgreSQL database (`postgres://`, `postgresql://`) rather than a
    /// file.
    public static func isServerURL(_ url: URL) -> Bool {
        ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? "")
    }

    /// How errors name the database at `url`: a file's path, a server URL without its
    /// password, or "in memory".
    static func describe(_ url: URL?) -> String {
        guard let url else { return "in memory" }
        guard isServerURL(url), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        if components.password != nil { components.password = "***" }
        return components.string ?? url.absoluteString
    }

    /// Takes the refresh lease: `nil` when another process or instance on the same database
    /// is refreshing (see ``Refresher``).
    func tryRefreshLease() throws -> StoreLease? {
        try container.persistentStoreCoordinator.tryExclusiveLease(named: "refresh")
    }

    /// Returns once every save made before the call has reached the live lists: their
    /// content, snapshots and observers reflect it.
    public func waitForLiveLists() async {
        await listContext.perform {}
    }

    /// Runs `body` in a new background context and returns its result.
    /// - Throws: ``SPoTError``s as thrown; any other error as `.store`, naming the file.
    func read<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = container.newBackgroundContext()
        do {
            return try await context.perform { try body(context) }
        } catch let error as SPoTError {
            throw error
        } catch {
            throw SPoTError(.store, "Could not read the database \(Self.describe(url)): \(error)")
        }
    }

    /// Runs `body` on the writer context, starting from the store's current state, saves if it
    /// changed anything, and returns its result. Writes run one at a time.
    /// - Throws: ``SPoTError``s as thrown; any other error as `.store`, naming the file.
    ///   Nothing is saved then.
    func write<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = writerContext
        do {
            return try await context.perform {
                // Nothing carries over from an earlier write, a failed one included.
                context.reset()
                return try context.savingRetryingConflicts { try body(context) }
            }
        } catch let error as SPoTError {
            throw error
        } catch {
            throw SPoTError(.store, "Could not save to the database \(Self.describe(url)): \(error)")
        }
    }

    // MARK: Lookups (on a context's queue)

    /// The photo with Flickr id `id`.
    static func photo(_ id: String, in context: ManagedObjectContext) throws -> Photo {
        let request = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "unique == %@", id)
        request.fetchLimit = 1
        guard let photo = try context.fetch(request).first else {
            throw SPoTError(.photoNotFound, "No photo has the id \"\(id)\"")
        }
        return photo
    }

    /// The spot `address` names: `all` (any case) is "All"; `tag:NAME` is the Flickr tag
    /// NAME; anything else is a Flickr tag matched by name or display name, in any case.
    static func spot(_ address: String, in context: ManagedObjectContext) throws -> Tag {
        let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
        let request = Tag.fetchRequest()
        request.fetchLimit = 1
        if trimmed.lowercased() == Tag.allAddress {
            request.predicate = FetchPredicate(format: "rank == 0")
        } else if trimmed.lowercased().hasPrefix(Tag.tagAddressPrefix) {
            let name = String(trimmed.dropFirst(Tag.tagAddressPrefix.count)).lowercased()
            request.predicate = FetchPredicate(format: "rank == 1 AND name == %@", name)
        } else {
            request.predicate = FetchPredicate(format: "rank == 1 AND (name ==[c] %@ OR displayName ==[c] %@)", trimmed, trimmed)
        }
        guard !trimmed.isEmpty, let tag = try context.fetch(request).first else {
            throw SPoTError(.spotNotFound, "No spot is called \"\(address)\"")
        }
        return tag
    }
}
