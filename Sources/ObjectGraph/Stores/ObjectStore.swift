import Foundation

/// What a context reads from and saves to: the coordinator today, a parent context later.
///
/// Everything crossing this boundary is `Sendable` (IDs, rows of ``Value``s), so a context on
/// any queue can use it, and nested contexts can implement it without touching the context.
protocol ObjectStore: AnyObject, Sendable {
    /// The model of the objects in this store (frozen).
    var managedObjectModel: ManagedObjectModel { get }
    /// The store's identifier, part of every object ID in it.
    var identifier: String { get }
    /// A new, permanent ID for an object of `entity` (keys are reserved from the store in ranges).
    func newObjectID(for entity: EntityDescription) throws -> ManagedObjectID
    /// The stored row of `id`, or `nil` when no such object exists.
    func row(for id: ManagedObjectID) throws -> StoredRow?
    /// The stored rows of `ids`, by ID, read with one query per entity (per few hundred IDs);
    /// an ID without a row (or whose row is of another entity) is missing from the result.
    func rows(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: StoredRow]
    /// The compiled plan of a request: whether its predicate has SQL, and the SQL. A context
    /// keeps it on the ``FetchRequest`` and passes it back in ``FetchDescriptor/plan``.
    func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan
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
    func members(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID]
    /// Writes a context's changes, all or nothing.
    func save(_ changes: SaveChanges) throws
}

/// A row as a store returns it: an object's committed values, by slot of its entity.
struct StoredRow: Sendable {
    let id: ManagedObjectID
    let version: Int64
    /// One value per slot; to-many and transient slots hold `.null`.
    let values: ContiguousArray<Value>
}

/// A fetch request reduced to what a store needs; `Sendable`.
struct FetchDescriptor: Sendable {
    var entity: String
    var predicate: PredicateNode?
    var sortDescriptors: [FetchSortDescriptor]
    var fetchLimit: Int
    var fetchOffset: Int
    var includesSubentities: Bool
    /// The request's compiled plan; the store compiles one for this call when `nil`.
    var plan: FetchPlan? = nil
    /// Whether the store applies the predicate; `false` reads every object of the entity
    /// (for a predicate evaluated in memory).
    var appliesPredicate = true

    /// Whether the predicate is evaluated in memory because SQLite cannot express it.
    var needsInMemoryEvaluation: Bool {
        appliesPredicate && predicate != nil && plan?.needsInMemoryEvaluation == true
    }
}

/// One save's writes, as a store applies them in one transaction.
struct SaveChanges: Sendable {
    struct RowWrite: Sendable {
        let id: ManagedObjectID
        /// The written slots and their values (for an insert: every stored slot).
        let slots: [Int]
        let values: [Value]
    }
    /// A change of one relationship stored in a join table (to-many without a to-one inverse).
    struct Membership: Sendable, Hashable {
        let entity: String
        let relationship: String
        let source: ManagedObjectID
        let destination: ManagedObjectID
    }
    /// An ordered relationship's whole new order.
    struct Ordering: Sendable {
        let entity: String
        let relationship: String
        let source: ManagedObjectID
        let members: [ManagedObjectID]
    }
    var inserts: [RowWrite] = []
    var updates: [RowWrite] = []
    var deletes: [ManagedObjectID] = []
    var addedMembers: [Membership] = []
    var removedMembers: [Membership] = []
    var orderings: [Ordering] = []

    var isEmpty: Bool {
        inserts.isEmpty && updates.isEmpty && deletes.isEmpty && addedMembers.isEmpty && removedMembers.isEmpty && orderings.isEmpty
    }
}
