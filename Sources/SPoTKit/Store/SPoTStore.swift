import Flickr
public import Foundation
public import Logging
public import ObjectGraph
import Synchronization

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
    /// The context of ``writeCache(_:)``.
    private let cacheWriterContext: ManagedObjectContext
    /// Whether the database answers (see ``DatabaseMonitor``): calls fail at once while it
    /// does not, and the live lists fetch again when it answers again.
    public let monitor: DatabaseMonitor
    /// The live lists opened on ``listContext``, to fetch again after an outage.
    private let openLists = Mutex<[WeakList]>([])

    /// Opens (creating if needed) the store at `url`: an SQLite file, or any URL a registered
    /// store type claims (the `spot` executable registers PostgreSQL's for `postgres://`);
    /// `nil` opens one in memory.
    /// - Parameters:
    ///   - rules: how Flickr's photos are imported.
    ///   - statementObserver: sees every SQL statement (for tests and debugging).
    /// - Throws: ``SPoTError`` of kind `.store` naming the file: not SQLite, damaged, written
    ///   by another app or model, locked, or not writable. The file is not changed then.
    ///   - logger: where the database monitor reports outages and recoveries.
    public convenience init(
        url: URL?,
        rules: ImportRules = ImportRules(),
        statementObserver: SQLStatementObserver? = nil,
        logger: Logger = Logger(label: "spot.database")
    ) throws {
        let description: PersistentStoreDescription
        if let url {
            description = PersistentStoreDescription(url: url)
        } else {
            description = PersistentStoreDescription()
            description.type = InMemoryStoreType
        }
        try self.init(description: description, rules: rules, statementObserver: statementObserver, logger: logger)
    }

    /// Opens (creating if needed) the store `description` names, of any type registered with
    /// ObjectGraph: the caller (the app's root) chooses and links the store; SPoTKit sets only
    /// the options it relies on (history, remote change notifications, history retention).
    /// - Parameters:
    ///   - description: the store; its options are added to, not replaced.
    ///   - rules: how Flickr's photos are imported.
    ///   - statementObserver: sees every SQL statement (for tests and debugging).
    ///   - logger: where the database monitor reports outages and recoveries.
    /// - Throws: ``SPoTError`` of kind `.store` naming the store: not SQLite, damaged, written
    ///   by another app or model, locked, not writable, or of a type nobody registered. The
    ///   store is not changed then.
    public init(
        description: PersistentStoreDescription,
        rules: ImportRules = ImportRules(),
        statementObserver: SQLStatementObserver? = nil,
        logger: Logger = Logger(label: "spot.database")
    ) throws {
        let container = PersistentContainer(name: "SPoT", managedObjectModel: SPoTModel.make())
        let url = description.type == InMemoryStoreType ? nil : description.url
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
        cacheWriterContext = container.newBackgroundContext()
        cacheWriterContext.name = "cache"
        // What kind of database answers is known from the store's type, not from its URL: an
        // SQLite file, memory, or a server (any other registered type, e.g. PostgreSQL).
        let storeType = container.persistentStoreCoordinator.persistentStores.first?.type
        let isFile = storeType == .sqlite
        let isServer = storeType != nil && storeType != .sqlite && storeType != .inMemory
        // A server that does not answer is unreachable. A file's probe asks whether another
        // program holds its write lock, so a late answer there is a busy machine (this
        // process's own long saves hold the lock too) until it has been late for long.
        monitor = DatabaseMonitor(
            databaseName: Self.describe(url),
            awayAfter: isServer ? .seconds(2) : isFile ? Self.fileAwayAfter : nil,
            logger: logger
        ) { [container] call in
            // A store in this process's memory cannot be away: there is nothing to ask, and
            // a late read there is only a loaded machine.
            guard isFile || isServer else { return }
            let context = container.newBackgroundContext()
            try await context.perform {
                try call.run {
                    try Self.probe(container, context: context, isServer: isServer)
                }
            }
        }
        monitor.onRecovery { [weak self] in await self?.refetchLiveLists() }
    }

    /// The monitor's questions to the database, on `context`'s queue.
    private static func probe(_ container: PersistentContainer, context: ManagedObjectContext, isServer: Bool) throws {
        if isServer {
            // A fetch may be answered from the store's cache of rows: an advisory lock taken
            // and given back is asked of the server itself.
            try container.persistentStoreCoordinator.tryExclusiveLease(named: "probe")?.release()
            return
        }
        let request = Tag.fetchRequest()
        request.fetchLimit = 1
        _ = try context.fetch(request)
        // Another process may hold an SQLite file's write lock while reads go on (WAL).
        try container.persistentStoreCoordinator.checkWriteLock(patience: .seconds(1))
    }

    /// How errors name the database at `url`: a file's path, any other URL (a server's)
    /// without its password, or "in memory".
    static func describe(_ url: URL?) -> String {
        guard let url else { return "in memory" }
        guard !url.isFileURL, url.scheme != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        if components.password != nil { components.password = "***" }
        return components.string ?? url.absoluteString
    }

    /// How long a probe of an SQLite file may go unanswered before the file counts as away (a
    /// disk that hangs): far longer than the probe's deadline, since the probe names a lock
    /// held by another program within a second and a late answer is a loaded machine.
    static let fileAwayAfter: Duration = .seconds(15)

    /// How long a request may wait for a read (a photo, a spot, a thumbnail, a list opened for
    /// the first time) before it is answered that the database does not answer. Generous: a
    /// database known to be away refuses at once, this bounds only the moment it goes away.
    public static let readDeadline: Duration = .seconds(5)
    /// How long a request may wait for a write (hide, unhide, a view) before it is answered
    /// that the database does not answer, unless the monitor knows already: then the probe
    /// decides (within ``DatabaseMonitor/probeDeadline``, 2 s: a loaded machine must not pass
    /// for a database gone away). A database that answers the probe is only busy: the write
    /// goes on.
    public static let writeDeadline: Duration = .milliseconds(900)
    /// How long a write waits for the live lists to show it before answering anyway.
    public static let liveListsDeadline: Duration = .seconds(5)

    /// Takes the refresh lease: `nil` when another process or instance on the same database
    /// is refreshing (see ``Refresher``). Off the caller's thread (taking it may wait for a
    /// server), within ``readDeadline``; a lease taken after that is released at once.
    /// - Throws: ``SPoTError`` `.unavailable` while the database does not answer.
    func tryRefreshLease() async throws -> StoreLease? {
        if let refusal = monitor.refusal("take the refresh lease in") { throw refusal }
        let coordinator = container.persistentStoreCoordinator
        let context = container.newBackgroundContext()
        let ticket = CallTicket()
        let monitor = self.monitor
        return try await withDeadline(Self.readDeadline, late: {
            guard let error = await monitor.late(Self.readDeadline, doing: "take the refresh lease in") else { return nil }
            _ = ticket.abandon()
            return error
        }) {
            let lease: StoreLease?
            do {
                lease = try await context.perform {
                    guard ticket.start() else { return nil }
                    return try coordinator.tryExclusiveLease(named: "refresh")
                }
            } catch {
                throw monitor.failed(error, doing: "take the refresh lease in")
            }
            if !ticket.finish() { lease?.release() }
            return lease
        }
    }

    /// Returns once every save made before the call has reached the live lists: their
    /// content, snapshots and observers reflect it — or after ``liveListsDeadline`` when the
    /// lists' context is held up by a database that does not answer.
    public func waitForLiveLists() async {
        let context = listContext
        _ = try? await withDeadline(Self.liveListsDeadline, late: { CancellationError() }) { await context.perform {} }
    }

    /// Fetches every open live list again (after the database answers again): each sends its
    /// whole content, so whatever it missed while the database was away is there.
    func refetchLiveLists() async {
        let lists = openLists.withLock { lists in
            lists.removeAll { $0.list == nil }
            return lists.compactMap(\.list)
        }
        for list in lists { await list.refetch() }
    }

    /// Keeps `list` among the lists fetched again after an outage, while it lives.
    func register(_ list: some RefetchableList) {
        openLists.withLock { lists in
            lists.removeAll { $0.list == nil }
            lists.append(WeakList(list: list))
        }
    }

    /// Runs `body` in a new background context and returns its result, within `deadline`:
    /// past it, the monitor's probe decides whether to keep waiting (`waitingForProbe`), or
    /// the caller is answered at once that the database did not answer in time.
    /// - Throws: ``SPoTError``s as thrown; `.unavailable` at once while the database does not
    ///   answer, and when it fails to answer or cannot be reached; any other error as
    ///   `.store`, naming the file.
    func read<T: Sendable>(
        deadline: Duration = SPoTStore.readDeadline,
        waitingForProbe: Bool = true,
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        if let refusal = monitor.refusal("read") { throw refusal }
        let context = container.newBackgroundContext()
        let monitor = self.monitor
        let late: @Sendable () async -> (any Error)?
        if waitingForProbe {
            late = { await monitor.late(deadline, doing: "read") }
        } else {
            late = { monitor.lateNow(deadline, doing: "read") }
        }
        return try await withDeadline(deadline, late: late) {
            do {
                let result = try await context.perform { try body(context) }
                return result
            } catch let error as SPoTError {
                throw error
            } catch {
                throw monitor.failed(error, doing: "read")
            }
        }
    }

    /// Runs `body` on the writer context, starting from the store's current state, saves if it
    /// changed anything, and returns its result. Writes run one at a time.
    ///
    /// Answers within ``writeDeadline``: a write that has not started by then never runs; one
    /// under way then is in one transaction, saved whole or not at all, and the caller is told
    /// it was not confirmed.
    /// - Throws: ``SPoTError``s as thrown; `.unavailable` at once while the database does not
    ///   answer, or when it does not answer in time; any other error as `.store`, naming the
    ///   file. Nothing is saved then.
    func write<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await write(on: writerContext, deadline: Self.writeDeadline, body)
    }

    /// Like ``write(_:)`` for what the store keeps for speed (a downloaded thumbnail), on a
    /// writer of its own so that a burst of them never holds up a user's write, and without
    /// a deadline of its own (a thumbnail is answered whether or not it was kept).
    func writeCache<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await write(on: cacheWriterContext, deadline: Self.readDeadline, body)
    }

    private func write<T: Sendable>(
        on context: ManagedObjectContext,
        deadline: Duration,
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        if let refusal = monitor.refusal("save to") { throw refusal }
        let monitor = self.monitor
        let ticket = CallTicket()
        let late: @Sendable () async -> (any Error)? = {
            guard let error = await monitor.late(deadline, doing: "save to") else { return nil }
            return ticket.abandon()
                ? SPoTError(.unavailable, error.description + "; nothing was saved")
                : SPoTError(.unavailable, error.description + "; the change is saved only if the database takes it later")
        }
        return try await withDeadline(deadline, late: late) {
            do {
                let result = try await context.perform {
                    guard ticket.start() else { throw SPoTError(.unavailable, "The write was given up before it started") }
                    // Nothing carries over from an earlier write, a failed one included.
                    context.reset()
                    return try context.savingRetryingConflicts { try body(context) }
                }
                _ = ticket.finish()
                return result
            } catch let error as SPoTError {
                _ = ticket.finish()
                throw error
            } catch {
                _ = ticket.finish()
                throw monitor.failed(error, doing: "save to")
            }
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
