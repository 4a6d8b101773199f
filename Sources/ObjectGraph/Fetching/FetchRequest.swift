import Foundation
import Synchronization

/// A type a fetch can return: managed objects, object IDs, dictionaries or a count.
///
/// `FetchRequest<FetchRequestResult>` ports Core Data's `NSFetchRequest<NSFetchRequestResult>`:
/// set its ``FetchRequest/resultType`` and cast the results.
public protocol FetchRequestResult {}
extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension Dictionary: FetchRequestResult where Key == String, Value == Any {}
extension NSNumber: FetchRequestResult {}

/// What a fetch returns, as Core Data's `NSFetchRequestResultType`.
public enum FetchRequestResultType: Sendable, Hashable {
    /// Managed objects (the default for object requests).
    case managedObjectResultType
    /// Object IDs only; no values are loaded.
    case managedObjectIDResultType
    /// Dictionaries of ``FetchRequest/propertiesToFetch``; pending changes are not included.
    case dictionaryResultType
    /// One `NSNumber`: the number of matching objects.
    case countResultType
}

/// A search for objects of one entity, as Core Data's `NSFetchRequest`.
///
/// ```swift
/// let request = FetchRequest<ManagedObject>(entityName: "Photo")
/// request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "hoo")
/// request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
/// request.fetchLimit = 20
/// let photos = try context.fetch(request)
/// ```
public final class FetchRequest<Result>: CustomStringConvertible {
    /// The entity searched (sub-entities included unless ``includesSubentities`` is `false`).
    public var entityName: String? {
        didSet { planKey = .next() }
    }
    /// Which objects match; `nil` matches all.
    public var predicate: FetchPredicate? {
        didSet { planKey = .next() }
    }
    /// The order of the results; ties end in primary-key order.
    public var sortDescriptors: [FetchSortDescriptor]? {
        didSet { planKey = .next() }
    }
    /// The most results to return; 0 means no limit.
    public var fetchLimit: Int = 0
    /// How many matching results to skip.
    public var fetchOffset: Int = 0
    /// How many objects one query loads: with a batch size, ``ManagedObjectContext/fetch(_:)``
    /// reads IDs and returns faults that fill a batch at a time as they are read (the batches
    /// read longest ago turning back into faults), and
    /// ``ManagedObjectContext/fetchBatched(_:)`` returns a collection that holds only IDs.
    /// 0 (the default) loads every object at once.
    public var fetchBatchSize: Int = 0
    /// What the fetch returns.
    public var resultType: FetchRequestResultType
    /// Whether objects of sub-entities match too.
    public var includesSubentities = true {
        didSet { planKey = .next() }
    }
    /// Whether unsaved inserts, updates and deletes of the context count (objects, IDs and
    /// counts; dictionaries always read the store only, as in Core Data).
    public var includesPendingChanges = true
    /// Whether fetched objects are faults (`true`, Core Data's default) or come loaded.
    ///
    /// A fault keeps the row the fetch read and fills from it on first access without a query,
    /// as Core Data's fill from its row cache; if a context's save was written to the store
    /// since, it reads its row again. Set `false` when every object is about to be read (a
    /// fault's first access costs a little more than a loaded object's). Objects a fetch
    /// evaluated in memory (unsaved changes, a predicate SQL cannot express), objects with
    /// ``relationshipKeyPathsForPrefetching`` and a child context's objects come loaded.
    public var returnsObjectsAsFaults = true
    /// Whether fetched objects come with their values; `false` reads only IDs and returns
    /// faults, each filled by its own query when first read.
    public var includesPropertyValues = true
    /// The properties in dictionary results: names (`String`), ``PropertyDescription``s, and
    /// ``ExpressionDescription``s computing aggregates (`sum:`, `count:`, `min:`, `max:`,
    /// `average:`) over the matching objects or over each group of ``propertiesToGroupBy``.
    public var propertiesToFetch: [Any]?
    /// The properties (names or descriptions) whose values group a dictionary fetch, as
    /// Core Data's `propertiesToGroupBy`: one result per distinct combination, every other
    /// column an aggregate. Sort descriptors, offset and limit apply to the groups.
    public var propertiesToGroupBy: [Any]?
    /// Which groups a grouped dictionary fetch returns, as Core Data's `havingPredicate`: it
    /// reads a group's result by its keys, or as variables (`$total > 100`, the way Core Data
    /// names an expression description's value).
    public var havingPredicate: FetchPredicate?
    /// Whether dictionary results drop duplicates.
    public var returnsDistinctResults = false
    /// Relationship key paths whose destinations load with the results, as Core Data's
    /// `relationshipKeyPathsForPrefetching`: `["tags", "photographer", "tags.photos"]`.
    ///
    /// Each step of a key path costs one ordered query for a to-many relationship's members
    /// (the sources' keys as one range when they are dense, as a fetch's usually are; else
    /// listed, per 500 sources) and one per entity for the related rows, however many objects
    /// were fetched; walking the relationships afterwards reads nothing more. A step that is
    /// not a relationship makes the fetch throw.
    public var relationshipKeyPathsForPrefetching: [String]?

    /// Whether this is a dictionary fetch that groups or computes aggregates: its sort,
    /// offset and limit apply to the groups, after the store has read the matching rows.
    var groupsOrAggregates: Bool {
        guard resultType == .dictionaryResultType else { return false }
        if propertiesToGroupBy?.isEmpty == false { return true }
        return propertiesToFetch?.contains { ($0 as? ExpressionDescription)?.expression?.expressionType == .function } == true
    }

    /// The key of the request's entity, predicate, sort and ``includesSubentities`` in its
    /// store's plan cache (``FetchPlanCache``): new when one of them changes, so the store
    /// compiles the plan again.
    private(set) var planKey = FetchPlanKey.next()

    /// A request for objects of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
        resultType = Self.defaultResultType
    }

    /// A request with no entity yet; set ``entityName`` (or use ``entity``) before fetching.
    public init() {
        resultType = Self.defaultResultType
    }

    /// The entity searched; setting it sets ``entityName``.
    public var entity: EntityDescription? {
        get { entityStorage?.name == entityName ? entityStorage : nil }
        set {
            entityStorage = newValue
            entityName = newValue?.name
        }
    }
    private var entityStorage: EntityDescription?

    private static var defaultResultType: FetchRequestResultType {
        if Result.self == ManagedObjectID.self { return .managedObjectIDResultType }
        if Result.self == [String: Any].self { return .dictionaryResultType }
        if Result.self == NSNumber.self { return .countResultType }
        return .managedObjectResultType
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        var parts = ["entity: \(entityName ?? "nil")"]
        if let predicate { parts.append("predicate: \(predicate)") }
        if let sortDescriptors, !sortDescriptors.isEmpty { parts.append("sortDescriptors: \(sortDescriptors)") }
        if fetchLimit > 0 { parts.append("limit: \(fetchLimit)") }
        if fetchOffset > 0 { parts.append("offset: \(fetchOffset)") }
        return "FetchRequest(\(parts.joined(separator: ", ")))"
    }
}

extension FetchRequestResult where Self: ManagedObject {
    /// A request for objects of this class's entity, as Core Data's generated `fetchRequest()`.
    ///
    /// The entity is the one bound to this class in a loaded model, or else the entity named
    /// like the class.
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>(entityName: ManagedObjectClassRegistry.entityName(for: Self.self))
    }

    /// The entity bound to this class in the most recently loaded model, as Core Data's
    /// `entity()` class method; `nil` when no loaded model binds it.
    public static func entity() -> EntityDescription? {
        ManagedObjectClassRegistry.entity(for: Self.self)
    }
}

/// Which entity each subclass is bound to, filled as models load (the last loaded wins).
enum ManagedObjectClassRegistry {
    private static let entities = Mutex<[ObjectIdentifier: EntityDescription]>([:])

    static func register(_ model: ManagedObjectModel) {
        entities.withLock { entities in
            for entity in model.entities where entity.managedObjectClass != ManagedObject.self {
                entities[ObjectIdentifier(entity.managedObjectClass)] = entity
            }
        }
    }

    static func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entities.withLock { $0[ObjectIdentifier(type)] }
    }

    static func entityName(for type: ManagedObject.Type) -> String {
        entity(for: type)?.name ?? String(describing: type)
    }
}
