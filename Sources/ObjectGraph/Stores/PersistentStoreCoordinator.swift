public import Foundation
import Synchronization

/// Connects contexts to a persistent store, as Core Data's `NSPersistentStoreCoordinator`.
///
/// One store per coordinator (SQLite file or in-memory). Contexts saving through the same
/// coordinator see each other's saves: those with
/// ``ManagedObjectContext/automaticallyMergesChangesFromParent`` merge them automatically.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    // @unchecked Sendable: stores and contexts live in a lock-protected box; the model is frozen.

    /// The model of the objects in the coordinator's stores.
    public let managedObjectModel: ManagedObjectModel

    let state = Mutex(State())

    struct State {
        var stores: [PersistentStore] = []
        var contexts: [WeakContext] = []
        /// One per store added with ``PersistentStore/remoteChangeNotificationPostOption``.
        var monitors: [RemoteChangeMonitor] = []
        /// The continuations of ``remoteChanges`` sequences, by subscription.
        var remoteChangeSubscribers: [UUID: AsyncStream<PersistentStoreRemoteChange>.Continuation] = [:]
    }

    /// Creates a coordinator for `model`; the model is checked and frozen when a store is added.
    public init(managedObjectModel model: ManagedObjectModel) {
        managedObjectModel = model
    }

    /// The stores added so far.
    public var persistentStores: [PersistentStore] {
        state.withLock { $0.stores }
    }

    /// Opens (or creates) a store and adds it, as Core Data's `addPersistentStore(type:at:)`.
    ///
    /// An SQLite file written with another version of the model is migrated when
    /// ``PersistentStore/migratePersistentStoresAutomaticallyOption`` is `true` (see
    /// <doc:Migrations>); otherwise, or when it cannot be migrated, it is refused, listing the
    /// differences, and nothing in the file is changed.
    ///
    /// - Parameters:
    ///   - type: ``PersistentStore/StoreType/sqlite`` (a file at `url`) or
    ///     ``PersistentStore/StoreType/inMemory``.
    ///   - url: The file for an SQLite store; `/dev/null` gives an in-memory store, as the
    ///     common Core Data testing idiom does.
    /// - Throws: ``ManagedObjectModelError`` for an invalid model; ``ObjectGraphError`` for a
    ///   file that is not a store, is damaged, or was written by another model.
    @discardableResult
    public func addPersistentStore(
        type: PersistentStore.StoreType,
        configuration: String? = nil,
        at url: URL?,
        options: [String: Any]? = nil
    ) throws -> PersistentStore {
        try managedObjectModel.validate()
        ManagedObjectClassRegistry.register(managedObjectModel)
        // An option set by a spelling Core Data does not read is read as Core Data's key, with a warning.
        let options = OptionSpellings.corrected(options)
        if state.withLock({ !$0.stores.isEmpty }) {
            throw ObjectGraphError(.persistentStoreOperation, "this coordinator already has a store; ObjectGraph supports one store per coordinator")
        }
        let scheme = url?.scheme?.lowercased()
        // A URL whose scheme a registered type claims (e.g. `postgres://`) names a store of that
        // type whatever type the description kept.
        let claimingType = scheme.flatMap { scheme in Self.registeredStoreTypes.withLock { $0.typeClaiming(scheme: scheme) } }
        let resolvedType = type == .sqlite ? claimingType.map(PersistentStore.StoreType.init(rawValue:)) ?? type : type
        let inMemory = resolvedType == .inMemory || url?.path == "/dev/null"
        let backend: any StoreBackend
        let readOnly = try Self.flag(PersistentStore.readOnlyOption, in: options)
        // Core Data's stages move the store version by version before it opens here.
        if !inMemory, !readOnly, let url, let manager = options?[PersistentStore.stagedMigrationManagerOption] as? StagedMigrationManager {
            try manager.runCoreDataStages(storeAt: url, type: resolvedType, options: options, models: [managedObjectModel])
        }
        if resolvedType == .sqlite || inMemory {
            if !inMemory && url == nil {
                throw ObjectGraphError(.persistentStoreOperation, "an SQLite store needs a file URL")
            }
            if !inMemory, let scheme, scheme != "file" {
                throw ObjectGraphError(
                    .persistentStoreInvalidType,
                    "no store type is registered for \(scheme)\u{3A}// URLs; link the library of the store type that opens them and register it before adding the store"
                )
            }
            backend = try openSQLiteStore(at: inMemory ? nil : url, readOnly: readOnly, options: options)
        } else if let opener = Self.registeredStoreTypes.withLock({ $0.types[resolvedType.rawValue]?.opener }) {
            backend = try opener(StoreOpenRequest(model: managedObjectModel, url: url, configuration: configuration, options: options ?? [:]))
        } else {
            throw ObjectGraphError(.persistentStoreInvalidType, "no store type '\(resolvedType.rawValue)' is registered")
        }
        let interval =
            try Self.number(
                options?[PersistentStore.remoteChangePollingIntervalOption],
                option: PersistentStore.remoteChangePollingIntervalOption,
                allowingZero: false
            ) ?? RemoteChangeMonitor.defaultPollingInterval
        let monitor =
            try Self.flag(PersistentStore.remoteChangeNotificationPostOption, in: options) && !inMemory
            ? try RemoteChangeMonitor(store: backend, coordinator: self, pollingInterval: interval) : nil
        let store = PersistentStore(type: inMemory ? .inMemory : resolvedType, url: url, configurationName: configuration, backend: backend)
        state.withLock { state in
            state.stores.append(store)
            if let monitor { state.monitors.append(monitor) }
        }
        monitor?.start()
        return store
    }

    /// Opens the SQLite store at `url` (in memory for `nil`) with the SQLite options of `options`.
    private func openSQLiteStore(at url: URL?, readOnly: Bool, options: [String: Any]?) throws -> SQLiteStore {
        let observer = options?[PersistentStore.sqlStatementObserverOption] as? SQLStatementObserver
        let timeout =
            try Self.number(options?[PersistentStore.timeoutOption], option: PersistentStore.timeoutOption, allowingZero: true)
            ?? PersistentStore.defaultTimeout
        let migration = try Self.migrationOptions(options)
        let backend = try SQLiteStore(
            model: managedObjectModel,
            url: url,
            readOnly: readOnly,
            statementObserver: observer,
            busyTimeout: timeout,
            migration: migration
        )
        try backend.enableHistoryTracking(requested: Self.flag(PersistentStore.persistentHistoryTrackingOption, in: options), readOnly: readOnly)
        backend.historyRetention = try PersistentHistoryRetention.requested(in: options)
        return backend
    }

    /// The store types other than SQLite and in-memory, registered by the libraries that
    /// implement them (ObjectGraphPostgres's `registerPostgreSQLStoreType()`).
    static let registeredStoreTypes = Mutex(RegisteredStoreTypes())

    /// Registers how stores of `type` are opened, as Core Data's
    /// `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`; a later registration of the
    /// same type replaces the earlier one.
    /// - Parameter urlSchemes: Schemes (lowercase) whose URLs name a store of `type` even in a
    ///   description that kept the default type, SQLite.
    /// - Parameter metadataReader: Reads a store's metadata without opening it, for
    ///   ``metadataForPersistentStore(type:at:options:)`` and
    ///   ``ManagedObjectModel/init(cachedInStoreAt:)``.
    package static func registerStoreType(
        _ type: String,
        urlSchemes: [String] = [],
        metadataReader: StoreMetadataReader? = nil,
        opener: @escaping StoreOpener
    ) {
        let entry = RegisteredStoreTypes.Entry(opener: opener, metadataReader: metadataReader, urlSchemes: Set(urlSchemes))
        let replaced = registeredStoreTypes.withLock { $0.types.updateValue(entry, forKey: type) }
        withExtendedLifetime(replaced) {}  // released after the lock is
    }

    /// The migration options, checked.
    static func migrationOptions(_ options: [String: Any]?) throws -> MigrationOptions {
        var result = MigrationOptions(
            migratesAutomatically: try flag(PersistentStore.migratePersistentStoresAutomaticallyOption, in: options),
            infersMapping: try flag(PersistentStore.inferMappingModelAutomaticallyOption, in: options)
        )
        switch options?[PersistentStore.stagedMigrationManagerOption] {
        case nil: break
        case let manager as StagedMigrationManager: result.manager = manager
        case let value?:
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store option \(PersistentStore.stagedMigrationManagerOption) must be a StagedMigrationManager; got \(type(of: value))"
            )
        }
        return result
    }

    /// The `Bool` option `key` of `options`; `false` when absent.
    /// - Throws: ``ObjectGraphError`` naming the option when its value is not a `Bool`.
    package static func flag(_ key: String, in options: [String: Any]?) throws -> Bool {
        switch options?[key] {
        case nil: return false
        case let value as Bool: return value
        case let value as NSNumber: return value.boolValue
        case let value?: throw ObjectGraphError(.persistentStoreOperation, "the store option \(key) must be a Bool; got \(value)")
        }
    }

    /// The number given as option `option` (seconds, or a count), checked; `nil` when absent.
    /// - Throws: ``ObjectGraphError`` naming the option when the value is not a finite number
    ///   above 0 (or 0 too, `allowingZero`).
    package static func number(_ value: Any?, option: String, allowingZero: Bool) throws -> Double? {
        guard let value else { return nil }
        let number: Double? =
            switch value {
            case let number as Double: number
            case let number as Int: Double(number)
            case let number as NSNumber: number.doubleValue
            default: nil
            }
        guard let number, number.isFinite, allowingZero ? number >= 0 : number > 0 else {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the store option \(option) must be a number \(allowingZero ? "of 0 or more" : "above 0"); got \(value)"
            )
        }
        return number
    }

    /// Core Data's older spelling of ``addPersistentStore(type:configuration:at:options:)``.
    @discardableResult
    public func addPersistentStore(ofType type: String, configurationName: String?, at url: URL?, options: [String: Any]?) throws -> PersistentStore {
        try addPersistentStore(type: PersistentStore.StoreType(rawValue: type), configuration: configurationName, at: url, options: options)
    }

    /// Closes and removes `store`.
    public func remove(_ store: PersistentStore) throws {
        let monitors = state.withLock { state in
            state.stores.removeAll { $0 === store }
            defer { state.monitors = [] }
            return state.monitors
        }
        for monitor in monitors { monitor.stop() }
        store.backend.close()
    }

    /// The ID a URI made by ``ManagedObjectID/uriRepresentation()`` names, if it belongs to
    /// this coordinator's store and model; as Core Data's `managedObjectID(forURIRepresentation:)`.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), let store,
            id.storeIdentifier == store.identifier, managedObjectModel.entity(named: id.entityName) != nil
        else { return nil }
        return id
    }

    /// The store behind the coordinator, for its contexts.
    var store: (any StoreBackend)? {
        state.withLock { $0.stores.first?.backend }
    }

    /// Takes the store-wide lease `name` (see ``StoreLease``) when nobody else holds it: not
    /// this process, not another process on the same file, not another instance on the same
    /// server database; `nil` when someone does.
    ///
    /// - Throws: ``ObjectGraphError`` when no store is added, or the lock cannot be taken for
    ///   a reason other than another holder (a folder that cannot be written, a server that
    ///   does not answer).
    package func tryExclusiveLease(named name: String) throws -> StoreLease? {
        guard let store else { throw ObjectGraphError(.persistentStoreOperation, "No persistent store is added to take the lease \"\(name)\" on") }
        return try store.tryExclusiveLease(named: name)
    }

    /// Returns when the store's write lock is free or held by this process's own writers, so
    /// a write would not wait for another program; never waits behind this process's writes.
    ///
    /// A caller telling an outage from a busy machine asks this: a write of its own that takes
    /// long holds the lock without locking anyone out.
    ///
    /// - Throws: ``ObjectGraphError`` with ``StoreFailure/resultCode`` 5 (`SQLITE_BUSY`) when
    ///   another program held an SQLite file's write lock for all of `patience`; other
    ///   stores have no such lock and return at once.
    package func checkWriteLock(patience: Duration = .seconds(1)) throws {
        guard let store else { throw ObjectGraphError(.persistentStoreOperation, "No persistent store is added to check the write lock of") }
        try store.checkWriteLock(patience: patience)
    }

    // MARK: Contexts and merging

    func register(_ context: ManagedObjectContext) {
        state.withLock { state in
            state.contexts.removeAll { $0.context == nil || $0.context === context }
            state.contexts.append(WeakContext(context: context))
        }
    }

    func updateAutomaticMerging(for context: ManagedObjectContext) {
        register(context)
    }

    /// Hands a saved change set to every other context that merges automatically.
    func contextDidSave(_ source: ManagedObjectContext, _ saved: ContextDidSave) {
        let targets = state.withLock { $0.contexts.compactMap(\.context) }.filter { $0 !== source && $0.automaticallyMergesChangesFromParent }
        for target in targets {
            target.perform { target.mergeChanges(fromContextDidSave: saved) }
        }
    }

    struct WeakContext {
        weak var context: ManagedObjectContext?
    }
}

/// An open store, as Core Data's `NSPersistentStore`.
public final class PersistentStore: @unchecked Sendable {
    // @unchecked Sendable: immutable after creation; the backend is thread-safe.

    /// A kind of store, as Core Data's `NSPersistentStore.StoreType`.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: String
        /// Creates a value from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An SQLite file (WAL mode).
        public static let sqlite = StoreType(rawValue: SQLiteStoreType)
        /// A store in memory, gone when the process ends; same semantics as SQLite.
        public static let inMemory = StoreType(rawValue: InMemoryStoreType)
    }

    /// The option key that opens a store read-only (a `Bool`): Core Data's
    /// `NSReadOnlyPersistentStoreOption`, with its value. ObjectGraph's earlier spelling,
    /// `"ReadOnly"`, still works, with a warning in the log.
    public static let readOnlyOption = "NSReadOnlyPersistentStoreOption"

    /// The option key of an ``SQLStatementObserver`` that sees every SQL statement the store
    /// runs — ObjectGraph's counterpart of Core Data's `-com.apple.CoreData.SQLDebug 1`, and
    /// the way tests prove a batch took one query instead of one per object.
    ///
    /// ```swift
    /// let statements = Mutex<[String]>([])
    /// description.setOption({ sql in statements.withLock { $0.append(sql) } } as SQLStatementObserver,
    ///                       forKey: PersistentStore.sqlStatementObserverOption)
    /// ```
    public static let sqlStatementObserverOption = "SQLStatementObserver"

    /// The option key of how long, in seconds, a write waits for another connection's (or
    /// another process's) write to finish before failing with "database is locked" — Core
    /// Data's `NSPersistentStoreTimeoutOption`. A number; ``defaultTimeout`` when absent.
    public static let timeoutOption = "NSPersistentStoreTimeoutOption"

    /// The write timeout when none is given: 10 seconds.
    public static let defaultTimeout: Double = 10

    /// The store's kind.
    public let type: StoreType
    /// The store's location: its file, its server's URL; `nil` in memory.
    public let url: URL?
    /// The configuration it was added with.
    public let configurationName: String?
    /// A unique identifier, part of every object ID in the store.
    public var identifier: String { backend.identifier }
    /// The store's metadata: `"storeUUID"`, `"modelVersionHash"`, `"formatVersion"`.
    public var metadata: [String: String] { backend.metadataSummary }

    let backend: any StoreBackend

    init(type: StoreType, url: URL?, configurationName: String?, backend: any StoreBackend) {
        self.type = type
        self.url = url
        self.configurationName = configurationName
        self.backend = backend
    }
}

/// Receives the SQL of each statement a store executes (arguments are not included, so
/// values never reach a log); called on the connection's thread, so it must be quick and
/// thread-safe.
public typealias SQLStatementObserver = @Sendable (String) -> Void

/// Core Data's `NSSQLiteStoreType`.
public let SQLiteStoreType = "SQLite"
/// Core Data's `NSInMemoryStoreType`.
public let InMemoryStoreType = "InMemory"
