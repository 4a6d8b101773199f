import Foundation

/// What a context reads from and saves to: the coordinator today, a parent context later.
///
/// Everything crossing this boundary is `Sendable` (IDs, rows of ``Value``s), so a context on
/// any queue can use it, and nested contexts can implement it without touching the context.
/// None of it is a database library's type: a plan is SQL text with ``SQLValue`` arguments in
/// the store's ``SQLDialect``, a failure a ``StoreFailure``, so a store on another database
/// implements this protocol without GRDB.
package protocol ObjectStore: AnyObject, Sendable {
    /// The model of the objects in this store (frozen).
    var managedObjectModel: ManagedObjectModel { get }
    /// The store's identifier, part of every object ID in it.
    var identifier: String { get }
    /// A new, permanent ID for an object of the entity with code `entityCode` (keys are
    /// reserved from the store in ranges).
    func newObjectID(forEntity entityCode: Int) throws -> ManagedObjectID
    /// A number that changes with every context's save written to this store; `nil` when rows
    /// cannot be kept for faults at all. A fault filled from a fetched row
    /// (`returnsObjectsAsFaults`) uses the row only while this is unchanged — as Core Data's
    /// faults use the row cache's snapshots, which saves through the coordinator replace.
    var snapshotGeneration: UInt64? { get }
    /// The stored row of `id`, or `nil` when no such object exists.
    func row(for id: ManagedObjectID) throws -> StoredRow?
    /// The stored rows of `ids`, by ID, read with one query per entity (per few hundred IDs);
    /// an ID without a row (or whose row is of another entity) is missing from the result.
    func rows(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow]
    /// The compiled plan of a request: whether its predicate has SQL, and the SQL.
    func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan
    /// The plan of a request whose contents `key` names (``FetchRequest``'s key), compiled on
    /// its first fetch and kept by the store (``FetchPlanCache``); a context passes it back in
    /// ``FetchDescriptor/plan``.
    func cachedFetchPlan(for request: FetchDescriptor, key: FetchPlanKey) throws -> FetchPlan
    /// Whether `plan` can run in this store (it was compiled for the same schema).
    func canUse(_ plan: FetchPlan) -> Bool
    /// The rows a request matches, in its order.
    func rows(matching request: FetchDescriptor) throws -> [StoredRow]
    /// The IDs a request matches, in its order.
    func objectIDs(matching request: FetchDescriptor) throws -> [ManagedObjectID]
    /// How many objects a request matches (limit and offset applied).
    func count(matching request: FetchDescriptor) throws -> Int
    /// The requested properties of the matching rows, as dictionaries.
    func dictionaries(matching request: FetchDescriptor, properties: [String], distinct: Bool) throws -> [[String: Value]]
    /// The members of a to-many relationship of `id`, in order for an ordered relationship.
    func members(of id: ManagedObjectID, relationship: RelationshipKey) throws -> [ManagedObjectID]
    /// The members of a to-many relationship of each of `ids` (distinct objects of the
    /// relationship's entity or its subentities), at each one's index in `ids`, in order for
    /// an ordered relationship (`[]` for a source without members): one ordered query for
    /// sources of dense keys (a fetch's), else one per few hundred (for prefetching).
    func members(ofAll ids: [ManagedObjectID], relationship: RelationshipKey) throws -> [[ManagedObjectID]]
    /// Runs `body` — a context's save with its conflict resolution and retries — while no
    /// other context of this process saves to this store.
    func serializingSaves<T>(_ body: () throws -> T) rethrows -> T
    /// Writes a context's changes, all or nothing.
    ///
    /// - Throws: ``OptimisticLockingFailure`` (and writes nothing) when a row of
    ///   ``SaveChanges/versionChecks`` is no longer at the version the context read — checked
    ///   by the save's own UPDATE and DELETE statements (`… AND Z_OPT = ?`), inside its write
    ///   transaction, so no other save can slip in between.
    func save(_ changes: SaveChanges) throws
    /// ``save(_:)``, running `meanwhile` on the calling thread while the write is under way.
    ///
    /// A store whose writes are a server's work calls `meanwhile` once the server is taking
    /// the rows, so that a context's own work for after the save (its did-save payload) is
    /// done while it would otherwise wait; the default writes, then calls it. Whatever
    /// `meanwhile` makes is for a write that succeeds: it may run before a write that fails,
    /// or not at all.
    func save(_ changes: SaveChanges, meanwhile: () -> Void) throws
    /// The values the store itself gave rows while writing the last save (Core Data's
    /// derived attributes, kept by triggers), for the saving context's objects; each once.
    func takeDerivedAttributeUpdates() -> [DerivedAttributeUpdate]
}

/// A value the store gave a row's attribute while writing a save (a derived attribute).
package struct DerivedAttributeUpdate: Sendable {
    package let id: ManagedObjectID
    package let key: String
    package let value: Value
}

extension ObjectStore {
    package func takeDerivedAttributeUpdates() -> [DerivedAttributeUpdate] { [] }

    package func save(_ changes: SaveChanges, meanwhile: () -> Void) throws {
        try save(changes)
        meanwhile()
    }
}

/// A row as a store returns it: an object's committed values, by slot of its entity.
package struct StoredRow: Sendable {
    package let id: ManagedObjectID
    package let version: Int64
    /// One value per slot; to-many and transient slots hold `.null`.
    package let values: ContiguousArray<Value>

    package init(id: ManagedObjectID, version: Int64, values: ContiguousArray<Value>) {
        self.id = id
        self.version = version
        self.values = values
    }
}

/// A fetch request reduced to what a store needs; `Sendable`.
package struct FetchDescriptor: Sendable {
    package var entity: String
    package var predicate: PredicateNode?
    package var sortDescriptors: [FetchSortDescriptor]
    package var fetchLimit: Int
    package var fetchOffset: Int
    package var includesSubentities: Bool
    /// The request's compiled plan; the store compiles one for this call when `nil`.
    package var plan: FetchPlan? = nil
    /// Whether the store applies the predicate; `false` reads every object of the entity
    /// (for a predicate evaluated in memory).
    package var appliesPredicate = true

    /// Whether the predicate is evaluated in memory because the store's SQL cannot express it.
    package var needsInMemoryEvaluation: Bool {
        appliesPredicate && predicate != nil && plan?.needsInMemoryEvaluation == true
    }
}

/// One save's writes, as a store applies them in one transaction.
///
/// Entities and relationships are named by identity (entity code, ``RelationshipKey``), and rows
/// carry all of an object's values by slot: which of them are stored where is the store's
/// business (its ``StorePlan``).
package struct SaveChanges: Sendable {
    /// A row to insert or update.
    package struct RowWrite: Sendable {
        package let id: ManagedObjectID
        /// The object's entity code (`Z_ENT`).
        package let entity: Int
        /// For an update, the slots changed since the last save; `nil` for an insert.
        package let changedSlots: [Int]?
        /// The object's values, by slot (shared with the object's storage, not copied).
        package let values: ContiguousArray<Value>
    }
    /// A row to delete (with its join rows).
    package struct RowDelete: Sendable {
        package let id: ManagedObjectID
        /// The object's entity code (`Z_ENT`).
        package let entity: Int
    }
    /// How one object's to-many relationship changed.
    package struct RelationshipChange: Sendable {
        package let source: ManagedObjectID
        package let relationship: RelationshipKey
        package let added: [ManagedObjectID]
        package let removed: [ManagedObjectID]
        /// An ordered relationship's whole new order; `nil` for an unordered one.
        package let order: [ManagedObjectID]?
    }
    /// A row the save updates or deletes, and the version (`Z_OPT`) its context read.
    package struct VersionCheck: Sendable {
        package let id: ManagedObjectID
        /// The object's entity code (`Z_ENT`).
        package let entity: Int
        package let version: Int64

        /// A check of `id` (of entity code `entity`) at `version`.
        package init(id: ManagedObjectID, entity: Int, version: Int64) {
            self.id = id
            self.entity = entity
            self.version = version
        }
    }
    /// The rows that must still be at the version their context read (optimistic locking).
    package var versionChecks: [VersionCheck] = []
    package var inserts: [RowWrite] = []
    package var updates: [RowWrite] = []
    package var deletes: [RowDelete] = []
    package var relationshipChanges: [RelationshipChange] = []
    /// The saving context's ``ManagedObjectContext/transactionAuthor``, recorded in persistent
    /// history.
    package var transactionAuthor: String? = nil
    /// The saving context's ``ManagedObjectContext/name``, recorded in persistent history.
    package var contextName: String? = nil

    package var isEmpty: Bool {
        inserts.isEmpty && updates.isEmpty && deletes.isEmpty && relationshipChanges.isEmpty
    }
}

/// A save refused because rows it updates or deletes changed in the store since their context
/// read them; nothing was written. The context resolves it with its merge policy.
package struct OptimisticLockingFailure: Error, Sendable {
    /// Each conflicting object's version in the store now; `nil` when its row is gone.
    package let storeVersions: [ManagedObjectID: Int64?]

    package init(storeVersions: [ManagedObjectID: Int64?]) {
        self.storeVersions = storeVersions
    }
}
