import Foundation

/// What a ``BatchUpdateRequest`` returns in its ``BatchUpdateResult``, as Core Data's
/// `NSBatchUpdateRequestResultType`.
public enum BatchUpdateRequestResultType: Sendable, Hashable {
    /// `true` when the update succeeded.
    case statusOnlyResultType
    /// The IDs of the updated objects (`[ManagedObjectID]`).
    case updatedObjectIDsResultType
    /// How many objects were updated (`Int`).
    case updatedObjectsCountResultType
}

/// Sets attributes of every object matching a predicate straight in the store, without loading
/// them, as Core Data's `NSBatchUpdateRequest`.
///
/// ``propertiesToUpdate`` maps attribute names (or ``AttributeDescription``s) to constant
/// values, converted as ``ManagedObject/setValue(_:forKey:)`` converts them; `NSNull` or `nil`
/// clears an optional attribute. Expressions as values (Core Data's `NSExpression`) are not
/// supported, nor are relationships. Every updated row gets a new version, so a context that
/// read one of the objects before and saves a change to it meets an optimistic-locking
/// conflict that its ``ManagedObjectContext/mergePolicy`` resolves.
///
/// The predicate runs in SQLite; a predicate SQLite cannot express (one evaluated in memory by
/// fetches, such as a `MATCHES` on a key path through a to-many relationship) is refused with
/// ``ObjectGraphError/Code/invalidRequest`` and nothing is written. A value that breaks a
/// uniqueness constraint throws ``ObjectGraphError/Code/constraintConflict``, and nothing is
/// written.
///
/// ```swift
/// let request = BatchUpdateRequest(entityName: "Photo")
/// request.predicate = FetchPredicate(format: "views < %d", 10)
/// request.propertiesToUpdate = ["rating": 0.0, "subtitle": NSNull()]
/// request.resultType = .updatedObjectIDsResultType
/// let result = try context.execute(request) as? BatchUpdateResult
/// ```
public final class BatchUpdateRequest: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then executed by a context, as Core Data's.

    /// The name of the entity updated.
    public let entityName: String
    /// The entity updated, when the request was made with one.
    public private(set) var entity: EntityDescription?
    /// Which objects to update; `nil` updates every object of the entity.
    public var predicate: FetchPredicate?
    /// The new values, by attribute name (`String`) or ``AttributeDescription``.
    public var propertiesToUpdate: [AnyHashable: Any]?
    /// Whether objects of sub-entities are updated too; `true` by default.
    public var includesSubentities = true
    /// What the result holds; ``BatchUpdateRequestResultType/statusOnlyResultType`` by default.
    public var resultType: BatchUpdateRequestResultType = .statusOnlyResultType

    /// What kind of request this is: ``PersistentStoreRequest/RequestType/batchUpdateRequestType``.
    public override var requestType: RequestType { .batchUpdateRequestType }

    /// A request updating objects of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
        super.init()
    }

    /// A request updating objects of `entity`.
    public init(entity: EntityDescription) {
        entityName = entity.name
        self.entity = entity
        super.init()
    }

    override func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        let store = try context.batchStore()
        guard let propertiesToUpdate, !propertiesToUpdate.isEmpty else {
            throw ObjectGraphError(.invalidRequest, "the batch update of \(entityName) has no propertiesToUpdate")
        }
        var values: [String: Any] = [:]
        for (key, value) in propertiesToUpdate {
            switch key.base {
            case let name as String: values[name] = value
            case let property as PropertyDescription: values[property.name] = value
            default:
                throw ObjectGraphError(
                    .invalidRequest,
                    "the batch update of \(entityName) names a property by \(type(of: key.base)); use attribute names or AttributeDescriptions"
                )
            }
        }
        if let error = predicate?.error { throw error }
        let changes = try store.batchUpdate(
            entityName: entityName,
            predicate: predicate?.node,
            includesSubentities: includesSubentities,
            values: values
        )
        switch resultType {
        case .statusOnlyResultType: return BatchUpdateResult(resultType: resultType, result: true, changes: changes)
        case .updatedObjectIDsResultType: return BatchUpdateResult(resultType: resultType, result: changes.updated, changes: changes)
        case .updatedObjectsCountResultType: return BatchUpdateResult(resultType: resultType, result: changes.updated.count, changes: changes)
        }
    }
}

/// The result of a ``BatchUpdateRequest``, as Core Data's `NSBatchUpdateResult`.
public final class BatchUpdateResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable; `result` holds a Bool, an Int or [ManagedObjectID].

    /// The kind of ``result``, as the request asked.
    public let resultType: BatchUpdateRequestResultType
    /// `true`, the updated objects' IDs (`[ManagedObjectID]`) or their number (`Int`), as
    /// ``resultType`` says.
    public let result: Any?
    /// Everything the update changed, under ``UpdatedObjectsKey``: hand it to
    /// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
    public let changes: [AnyHashable: Any]

    init(resultType: BatchUpdateRequestResultType, result: Any?, changes: BatchChanges) {
        self.resultType = resultType
        self.result = result
        self.changes = changes.userInfo
        super.init()
    }
}
