package import Foundation

/// A persistent store as the coordinator holds it: what its contexts read and save
/// (``ObjectStore``), plus batch requests, persistent history and the hooks the remote-change
/// monitor uses. The SQLite store implements it in this module; the PostgreSQL store in
/// `ObjectGraphPostgres`.
///
/// Nothing crossing it is a database library's type: rows of ``Value``s, ``FetchPlan``s with
/// ``SQLValue`` arguments, ``StoreFailure``s. A store is opened by a ``StoreOpener`` registered
/// for its type (see ``PersistentStoreCoordinator/registerStoreType(_:urlSchemes:opener:)``).
package protocol StoreBackend: ObjectStore {
    /// Where the store lives, for errors and ``PersistentStoreRemoteChange/storeURL``: a file
    /// URL, a server URL without its password, or `nil` in memory.
    var locationURL: URL? { get }
    /// The store's metadata: `"storeUUID"`, `"modelVersionHash"`, `"formatVersion"`.
    var metadataSummary: [String: String] { get }

    // MARK: Batch requests

    /// Inserts `objects` into the entity named `entityName` in one transaction, upserting on the
    /// entity's uniqueness constraints; returns each object's ID in order.
    func batchInsert(entityName: String, objects: [[String: Any]]) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID])
    /// Inserts the objects `handler` fills, one per call, until it returns `true`.
    func batchInsert(entityName: String, objectsFrom handler: (ManagedObject) -> Bool) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID])
    /// Sets `values` (by attribute name) on every object the predicate matches.
    func batchUpdate(entityName: String, predicate: PredicateNode?, includesSubentities: Bool, values: [String: Any]) throws -> BatchChanges
    /// Deletes the objects a request matches, applying delete rules.
    func batchDelete(matching descriptor: FetchDescriptor) throws -> BatchChanges
    /// Deletes the objects `objectIDs` name (of one entity), applying delete rules.
    func batchDelete(objectIDs: [ManagedObjectID]) throws -> BatchChanges

    // MARK: Persistent history

    /// Whether saves record persistent history.
    var tracksHistory: Bool { get }
    /// Runs a persistent history fetch or deletion.
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult
    /// The token of the last history transaction, or `nil` before any.
    func currentHistoryToken() throws -> PersistentHistoryToken?

    // MARK: Remote changes

    /// The transactions recorded after `token` (all of them when `nil`), this store's own
    /// included, in commit order.
    ///
    /// - Throws: ``ObjectGraphError/Code/persistentHistoryTokenExpired`` when history after
    ///   `token` was pruned.
    func historyTransactions(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction]
    /// Removes and returns which of `numbers` this store wrote; forgets every number up to
    /// `through`.
    func takeOwnTransactions(among numbers: [Int64], through last: Int64) -> Set<Int64>
    /// How many of this store's own transactions the monitor has not read past yet.
    var ownTransactionBacklog: Int { get }
    /// A number that moves when another connection or process committed; `nil` when nobody
    /// else can write (in memory). The monitor reads history only when it moved.
    func remoteCommitMarker() throws -> Int64?
    /// Asks the store to call `handler` as soon as it learns of another instance's commit (a
    /// PostgreSQL `NOTIFY`); returns `false` when it cannot, and the monitor polls
    /// ``remoteCommitMarker()`` on a timer instead.
    func observeRemoteCommits(_ handler: @escaping @Sendable () -> Void) -> Bool

    /// Takes the store-wide lease `name` when no other holder — this process or another, on
    /// this machine or, for a server store, on another — has it; `nil` when one does.
    func tryExclusiveLease(named name: String) throws -> StoreLease?

    /// Closes the store: connections, listeners. Called when it is removed from its coordinator.
    func close()

    /// Returns when the store's write lock is free or held by this process's own writers;
    /// throws (`SQLITE_BUSY`) when another program has held it for all of `patience`.
    func checkWriteLock(patience: Duration) throws
}

extension StoreBackend {
    /// Nothing to check: the store has no lock that another program holds for all its writes
    /// (a server's store locks rows, not the database).
    package func checkWriteLock(patience: Duration) throws {}
}

/// What a store type's opener is given, as Core Data's `NSPersistentStore` initializer is.
package struct StoreOpenRequest {
    /// The coordinator's model (validated).
    package let model: ManagedObjectModel
    /// The store's location (a file, a server URL).
    package let url: URL?
    /// The configuration name.
    package let configuration: String?
    /// The options the store was added with.
    package let options: [String: Any]
}

/// Opens a store of a registered type; see
/// ``PersistentStoreCoordinator/registerStoreType(_:urlSchemes:opener:)``.
package typealias StoreOpener = @Sendable (StoreOpenRequest) throws -> any StoreBackend

/// Reads the metadata of the store of a registered type at a URL without opening the store
/// (nothing created, nothing written); see
/// ``PersistentStoreCoordinator/metadataForPersistentStore(type:at:options:)``.
package typealias StoreMetadataReader = @Sendable (URL, [String: Any]) throws -> RegisteredStoreMetadata

/// What a registered store type's ``StoreMetadataReader`` read: the store's identity and the
/// metadata JSON it keeps as an SQLite store keeps `Z_METADATA.Z_PLIST`.
package struct RegisteredStoreMetadata: Sendable {
    package let storeUUID: String
    package let modelVersionHash: String
    /// The metadata JSON, with the snapshot of the model that wrote the store; `nil` for a
    /// store written before stores kept their model.
    package let json: Data?

    package init(storeUUID: String, modelVersionHash: String, json: Data?) {
        self.storeUUID = storeUUID
        self.modelVersionHash = modelVersionHash
        self.json = json
    }
}

/// The store types registered with the coordinator, by name, and the URL schemes each claims.
struct RegisteredStoreTypes {
    /// One registered type.
    struct Entry {
        /// Opens a store of the type.
        let opener: StoreOpener
        /// Reads a store's metadata without opening it, when the type can.
        let metadataReader: StoreMetadataReader?
        /// The URL schemes (lowercase) that name a store of the type.
        let urlSchemes: Set<String>
    }

    /// The types, by name.
    var types: [String: Entry] = [:]

    /// The type whose registration claims `scheme` (lowercase), if any.
    func typeClaiming(scheme: String) -> String? {
        types.first { $0.value.urlSchemes.contains(scheme) }?.key
    }
}
